# Helpers for scripted tests (source it). See tests/PROTOCOL.md.
# shellcheck shell=bash
LRS_ROOT=${LRS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
LRS_BUILD=${LRS_BUILD:-$LRS_ROOT/build}
LRS_BIN=${LRS_BIN:-$LRS_BUILD/lruscope}

tap_plan() { echo "1..$1"; }
tap_ok()   { echo "ok - $*"; }
tap_fail() { echo "not ok - $*"; }
tap_skip() { local name=$1; shift; echo "ok - $name # SKIP $*"; }
# tap_check NAME COMMAND...: ok if the command succeeds.
tap_check() {
	local name=$1; shift
	if "$@"; then tap_ok "$name"; else tap_fail "$name"; fi
}

# The memory cgroup hierarchy: v2 if the unified mount has the memory
# controller, else the v1 memory mount. Prints "v1 PATH" or "v2 PATH".
lrs_memcg_root() {
	local m
	m=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
	if [ -n "$m" ] && grep -qw memory "$m/cgroup.controllers" 2>/dev/null; then
		echo "v2 $m"; return 0
	fi
	m=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ {print $2; exit}' /proc/mounts)
	[ -n "$m" ] && { echo "v1 $m"; return 0; }
	return 1
}

# Processes and cgroups a test created, removed by lrs_cleanup (trap it).
LRS_PIDS=()
LRS_CGROUPS=()
lrs_track_pid() { LRS_PIDS+=("$1"); }
lrs_track_cgroup() { LRS_CGROUPS+=("$1"); }
# After a test waited for PID itself: the cleanup must not signal the number again.
lrs_untrack_pid() {
	local p keep=()
	for p in "${LRS_PIDS[@]}"; do [ "$p" = "$1" ] || keep+=("$p"); done
	LRS_PIDS=("${keep[@]}")
}
# lrs_wait_for PID SECS: waits for a child that ends by itself (a report with
# -d, a tracer sent SIGINT) at most SECS seconds; its exit status, or 124
# after ending it when it overran, with a line saying so on stderr.
lrs_running() {	# lrs_running PID: alive and not a zombie waiting to be reaped
	local state
	state=$(ps -o stat= -p "$1" 2>/dev/null)
	[ -n "$state" ] && [ "${state#Z}" = "$state" ]
}
lrs_wait_for() {
	local i
	for ((i = 0; i < $2 * 4; i++)); do
		lrs_running "$1" || break
		sleep 0.25
	done
	if lrs_running "$1"; then
		echo "# $1 ($(cat /proc/"$1"/comm 2>/dev/null)) still running after $2 s: ending it" >&2
		kill -TERM "$1" 2>/dev/null
		sleep 2
		kill -KILL "$1" 2>/dev/null
		wait "$1" 2>/dev/null
		return 124
	fi
	wait "$1"
}
lrs_cleanup() {
	local pid cg i
	for pid in "${LRS_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null; done
	for pid in "${LRS_PIDS[@]}"; do
		for i in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	# children first: reverse order of creation
	for ((i = ${#LRS_CGROUPS[@]} - 1; i >= 0; i--)); do
		cg=${LRS_CGROUPS[i]}
		case "${cg##*/}" in lrs-test-*|lrs-demo-*) ;; *) continue ;; esac
		[ -d "$cg" ] || continue
		for i2 in 1 2 3 4 5 6 7 8 9 10; do rmdir "$cg" 2>/dev/null && break; sleep 0.3; done
	done
}

# tap_check_traced NAME COMMAND...: a check that needs traced spinlock waits
# (lruvec contention): skipped with the kernel's reason where it traces none
# (see lrs_spin_traced; call lrs_spin_probe first to set LRS_UNTRACED).
LRS_UNTRACED=
lrs_spin_probe() { LRS_UNTRACED=$(lrs_spin_traced); export LRS_UNTRACED; }
tap_check_traced() {
	local name=$1; shift
	if lrs_traced "$name"; then tap_check "$name" "$@"; fi
}
# lrs_traced NAME: whether a check that needs traced spinlock waits can run;
# where the kernel traces none, prints NAME as skipped with the reason.
lrs_traced() { [ -z "$LRS_UNTRACED" ] && return 0; tap_skip "$1" "$LRS_UNTRACED"; return 1; }

# Wait (up to 20 s) until process PID holds BPF programs: loading takes from
# 0.3 s to several seconds on a busy machine. Prints their ids.
lrs_wait_bpf_loaded() {
	local ids="" i
	for i in $(seq 1 80); do
		ids=$(grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{print $2}' | sort -u)
		[ -n "$ids" ] && break
		kill -0 "$1" 2>/dev/null || break
		sleep 0.25
	done
	echo $ids
}

# lrs_tmux_test NAME: the start of a test that drives lruscope in tmux. Fails
# unless lruscope and tmux are there; sets T=NAME, TAG, SOCK (a tmux server of
# the test's own: kill-server touches nothing else), WORK (a new directory)
# and tm (tmux on SOCK); on exit kills that server, ends the tracked
# processes and removes WORK.
# lrs_tmux_end SOCK: ends the tmux server on socket SOCK and removes the socket
# file, which kill-server leaves behind.
lrs_tmux_end() {
	tmux -L "$1" kill-server 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$1"
}
lrs_tmux_test() {
	T=$1
	[ -x "$LRS_BIN" ] || { tap_fail "$T: $LRS_BIN is missing (make)"; exit 1; }
	command -v tmux >/dev/null || { tap_fail "$T: tmux is missing (make deps)"; exit 1; }
	TAG=lrs-test-$T$$
	SOCK=$TAG
	WORK=$(mktemp -d "/tmp/$TAG.XXXXXX")
	tm() { tmux -L "$SOCK" "$@"; }
	trap 'lrs_tmux_end "$SOCK"; lrs_cleanup; rm -rf "$WORK"' EXIT
	trap 'exit 130' INT TERM
}

# lrs_screen_wait SOCKET SESSION REGEX [SECS]: until the tmux pane (of the server
# on SOCKET) shows REGEX, at most SECS (default 20). The last capture is left in
# LRS_SCREEN: what the user saw, for a check's message.
LRS_SCREEN=
lrs_screen_wait() {
	local sock=$1 s=$2 re=$3 secs=${4:-20} i
	for ((i = 0; i < secs * 4; i++)); do
		LRS_SCREEN=$(tmux -L "$sock" capture-pane -p -t "$s" 2>&1)
		grep -Eq -- "$re" <<<"$LRS_SCREEN" && return 0
		sleep 0.25
	done
	return 1
}
# lrs_screen_show: LRS_SCREEN as TAP comment lines.
lrs_screen_show() { sed 's/^/#   /' <<<"$LRS_SCREEN"; }
# lrs_screen_check NAME SESSION REGEX SECS [COMMAND...]: a check that the pane of
# the server on SOCK shows REGEX within SECS and then, if given, that COMMAND
# succeeds on what it showed (in LRS_SCREEN); prints the screen when not.
lrs_screen_check() {
	local name=$1 s=$2 re=$3 secs=$4 ok=1
	shift 4
	lrs_screen_wait "$SOCK" "$s" "$re" "$secs" || ok=0
	[ "$ok" = 1 ] && [ $# -gt 0 ] && { "$@" || ok=0; }
	tap_check "$name" [ "$ok" = 1 ]
	[ "$ok" = 1 ] || lrs_screen_show
}

# lrs_rewriters FILE SECS: for SECS, four writers rewrite the first 16 MB of
# FILE over and over, queueing on its inode's rwsem: sleeping-lock waits, which
# every kernel traces (a pipe's mutex waits are too rare). LRS_REWRITERS is the
# pid to wait for.
LRS_REWRITERS=
lrs_rewriters() {
	(
		for _ in 1 2 3 4; do
			timeout "$2" sh -c 'while :; do dd if=/dev/zero of="$1" bs=64k count=256 \
				conv=notrunc status=none; done' _ "$1" &
		done
		wait
	) &
	LRS_REWRITERS=$!
}

# lrs_progs_left IDS...: how many of these BPF program ids are still loaded, once
# none is or 5 s have passed (a program goes soon after its process closed its
# fds). By id: others may run lruscope too, and this bpftool shows no owner pid.
lrs_progs_left() {
	local id n i
	for ((i = 0; i < 20; i++)); do
		n=0
		for id in "$@"; do bpftool prog show id "$id" >/dev/null 2>&1 && n=$((n + 1)); done
		[ "$n" = 0 ] && break
		sleep 0.25
	done
	echo "$n"
}

# lrs_xvfb NAME DIR: start an Xvfb (tracked for lrs_cleanup) and export its
# DISPLAY; its files go in DIR. Where it does not start, fails NAME and exits.
lrs_xvfb() {
	Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3>"$2/display" 2>"$2/xvfb.err" &
	lrs_track_pid $!
	for _ in $(seq 1 50); do [ -s "$2/display" ] && break; sleep 0.1; done
	if [ ! -s "$2/display" ]; then
		tap_fail "$1: Xvfb did not start: $(head -c 300 "$2/xvfb.err")"
		exit 1
	fi
	DISPLAY=:$(head -1 "$2/display")
	export DISPLAY
}

# Root is not a kernel feature: a test that needs it fails without it.
need_root() {
	[ "$(id -u)" = 0 ] || { tap_fail "$1: needs root (run: sudo make check)"; exit 1; }
}

# Whether the running kernel traces spinlock contention. lock:contention_begin
# sits in the queued slow path; under a hypervisor without paravirt spinlocks
# x86 takes a contended spinlock by test-and-set (virt_spin_lock) instead, and
# no spinlock wait, lruvec locks included, is ever traced: mutexes still are.
# Decided once per boot (cached under $LRS_BUILD) from the kernel's answer to
# a load that makes about 100k spinlock waits a second where they are traced:
# untraced only if the CPU runs under a hypervisor, the tracepoint reports
# sleeping-lock waits, and not one plain spinlock wait (an rwlock's waits are
# traced under a hypervisor too: its flags add READ or WRITE to SPIN, and they
# are no evidence). Prints the reason; returns 1 then.
lrs_spin_traced() {
	local boot cache tmp
	boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)
	cache=$LRS_BUILD/spin-traced-v2.$boot	# v2: verdicts of plain spinlocks only
	if [ ! -s "$cache" ]; then
		tmp=$(mktemp -d /tmp/lrs-test-spin.XXXXXX)
		"$LRS_BIN" workload --layout shared --readers 4 --duration 5 --size 256m --limit 48m \
			--cpu-shares 8192 --prefix "lrs-test-spin$$-" >"$tmp/load" 2>&1 &
		local load=$!
		sleep 0.5
		"$LRS_BIN" report -d 3 -f json >"$tmp/report.json" 2>"$tmp/report.err"
		wait "$load"
		# then sleeping-lock waits, to show the tracepoint fires at all (beside
		# the readers' cpu.shares the writers would starve)
		"$LRS_BIN" report -d 3 -f json >"$tmp/sleeping.json" 2>>"$tmp/report.err" &
		local report=$!
		lrs_wait_bpf_loaded "$report" >/dev/null
		lrs_rewriters "$tmp/rewritten" 2
		wait "$report" "$LRS_REWRITERS"
		/usr/bin/python3 - "$tmp/report.json" "$tmp/load" "$tmp/sleeping.json" >"$cache" <<'PY'
import json, sys
SPIN = 1	# LCB_F_SPIN alone: a spinlock (an rwlock adds LCB_F_READ or LCB_F_WRITE)
try:
    snap = json.load(open(sys.argv[1]))
    load = json.loads([l for l in open(sys.argv[2]) if l.startswith("{")][-1])
    sleeping = json.load(open(sys.argv[3]))
except (OSError, ValueError, IndexError) as e:
    print("yes probe failed (%s): assuming traced" % e); sys.exit()
if not load.get("mb_per_s"):
    # no load, no verdict: the tests then run, and fail if nothing is traced
    print("yes the probe's readers read nothing: assuming traced"); sys.exit()
spin = sum(l["contended"] for l in snap["lruvecs"])
spin += sum(o["contended"] for o in snap["other_locks"] if o.get("flags", 0) == SPIN)
spin += sum(o["contended"] for o in sleeping["other_locks"] if o.get("flags", 0) == SPIN)
other = sum(o["contended"] for s in (snap, sleeping) for o in s["other_locks"])
hyper = "hypervisor" in open("/proc/cpuinfo").read().split()
if spin == 0 and other > 0 and hyper:
    print("no this kernel never traced a spinlock wait under a readtwice load (%d other lock "
          "waits traced, 0 of a plain spinlock): under a hypervisor without paravirt spinlocks it "
          "takes spinlocks by test-and-set (virt_spin_lock), which bypasses "
          "lock:contention_begin" % other)
else:
    print("yes %d spinlock waits traced" % spin)
PY
		rm -rf "$tmp"
	fi
	case "$(cat "$cache")" in
	no*) echo "$(cut -d' ' -f2- "$cache")"; return 1 ;;
	esac
	return 0
}

# Run lrs_cleanup and remove directory $1 when the test exits, also on INT, TERM and HUP.
lrs_cleanup_on_exit() {
	LRS_TMP=$1
	trap 'lrs_cleanup; rm -rf "$LRS_TMP"' EXIT
	trap 'exit 130' INT TERM HUP
}
