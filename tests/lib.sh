# Helpers for scripted tests (source it). See tests/PROTOCOL.md.
# shellcheck shell=bash
LRS_ROOT=${LRS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
LRS_BUILD=${LRS_BUILD:-$LRS_ROOT/build}
LRS_BIN=${LRS_BIN:-$LRS_BUILD/lruscope}

# lrs_secs N: N seconds of waiting, stretched by LRS_TIME_SCALE (the lab guest, where a test
# runs several times slower, sets it): for deadlines only, never for how long a load runs.
lrs_secs() { echo $(( $1 * ${LRS_TIME_SCALE:-1} )); }

tap_ok()   { echo "ok - $*"; }
tap_fail() { echo "not ok - $*"; }
tap_skip() { local name=$1; shift; echo "ok - $name # SKIP $*"; }
# tap_plan N: the plan, printed before the first check: N check lines follow, skips
# included. The runner fails a test whose count differs, that has none, or prints it late.
tap_plan() { echo "1..$1"; }
# tap_skip_each REASON NAME...: a section that cannot run here prints one skip line per
# check it plans (each NAME), so that the count still matches the plan.
tap_skip_each() {
	local why=$1 name
	shift
	for name in "$@"; do tap_skip "$name" "$why"; done
}
# tap_python NAME COMMAND...: runs a test's Python block (COMMAND reads it from a heredoc:
# tap_python NAME /usr/bin/python3 - ARGS <<'EOF'), its output passed through. Where it
# exits non-zero (it raised), prints "not ok - NAME: python raised ..." with the exception's
# line: a raise is a failure, not checks gone missing. Returns its exit status.
tap_python() {
	local name=$1 err rc last
	shift
	err=$(mktemp /tmp/lrs-test-python.XXXXXX) || { tap_fail "$name: mktemp failed"; return 1; }
	"$@" 2>"$err"
	rc=$?
	cat "$err" >&2
	if [ "$rc" -ne 0 ]; then
		last=$(grep -v '^[[:space:]]*$' "$err" | tail -n 1 | cut -c 1-300)
		tap_fail "$name: python raised (exit $rc): ${last:-it said nothing on stderr}"
	fi
	rm -f "$err"
	return "$rc"
}
# tap_check NAME COMMAND...: ok if the command succeeds.
tap_check() {
	local name=$1; shift
	if "$@"; then tap_ok "$name"; else tap_fail "$name"; fi
}

# The memory cgroup hierarchy: the first cgroup2 mount whose cgroup.controllers
# lists memory, else the v1 mount with the memory option. Prints "v1 PATH" or
# "v2 PATH". The same search as lruscope's own (lrs_cgroup_root__detect in
# collector/live/cgroup_fs.c, the reference, which the demo uses too), in shell
# because a test script cannot call it.
lrs_memcg_root() {
	local m
	for m in $(awk '$3 == "cgroup2" {print $2}' /proc/mounts); do
		grep -qw memory "$m/cgroup.controllers" 2>/dev/null && { echo "v2 $m"; return 0; }
	done
	m=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ {print $2; exit}' /proc/mounts)
	[ -n "$m" ] && { echo "v1 $m"; return 0; }
	return 1
}

# lrs_node0: the command words that run a command on node 0's CPUs, so that its pages and
# its lruvec waits are on node 0 (the lab guest has two nodes; most hosts one, where this is
# all CPUs): $(lrs_node0) CMD... & leaves CMD's own pid in $! (taskset execs it).
lrs_node0() {
	local cpus
	cpus=$(cat /sys/devices/system/node/node0/cpulist 2>/dev/null)
	echo "taskset -c ${cpus:-0-$(($(nproc) - 1))}"
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
	for ((i = 0; i < $(lrs_secs "$2") * 4; i++)); do
		lrs_running "$1" || break
		sleep 0.25
	done
	if lrs_running "$1"; then
		echo "# $1 ($(cat /proc/"$1"/comm 2>/dev/null)) still running after $2 s: ending it;" \
			"state $(awk '{print $3}' /proc/"$1"/stat 2>/dev/null), in the kernel at:" >&2
		# where it waits, when that is in the kernel (root reads the stack)
		sed 's/^/#   /' /proc/"$1"/stack 2>/dev/null | head -16 >&2
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

# A test that needs traced lruvec-lock waits carries "# live: traced" near its top: where the
# host traces none, the runner runs it in the lab guest (tests/PROTOCOL.md). Its checks never
# skip for want of them. One that reads the running kernel's memory with drgn carries
# "# live: kcore": where this host's kernel cannot be read (lrs_kcore_verdict), it runs there.

# lrs_vmlinux: the running kernel's vmlinux with debug info, from the places drgn searches,
# or nothing.
lrs_vmlinux() {
	local r p
	r=$(uname -r)
	for p in "/usr/lib/debug/boot/vmlinux-$r" "/usr/lib/debug/lib/modules/$r/vmlinux" \
		"/boot/vmlinux-$r" "/lib/modules/$r/build/vmlinux" "/lib/modules/$r/vmlinux"; do
		[ -f "$p" ] && { echo "$p"; return 0; }
	done
	return 1
}
# lrs_kcore_verdict: "readable: ..." where drgn can read this kernel's memory (/proc/kcore
# and a vmlinux with debug info), else "unreadable: why". LRS_KCORE_VERDICT stands in for it
# in the runner's own tests.
lrs_kcore_verdict() {
	local v
	if [ -n "${LRS_KCORE_VERDICT:-}" ]; then echo "$LRS_KCORE_VERDICT"; return; fi
	if [ ! -e /proc/kcore ]; then
		echo "unreadable: no /proc/kcore (CONFIG_PROC_KCORE off)"
	elif ! v=$(lrs_vmlinux); then
		echo "unreadable: no vmlinux with debug info for $(uname -r) where drgn looks for one"
	else
		echo "readable: /proc/kcore and $v"
	fi
}

# lrs_map_of PID NAME: the id of the BPF map named NAME (as the kernel keeps it, cut to 15
# characters) that process PID holds
lrs_map_of() {
	local id
	for id in $(grep -hs '^map_id:' /proc/"$1"/fdinfo/* | awk '{print $2}' | sort -un); do
		bpftool map show id "$id" 2>/dev/null | grep -q " name $2 " && { echo "$id"; return 0; }
	done
	return 1
}

# lrs_wait_map_of PID NAME [SECS]: lrs_map_of once process PID holds that map: it loads its
# BPF objects one after another, and under TCG a minute apart (up to SECS, default 60 s, times
# LRS_TIME_SCALE; 1 if PID ended first)
lrs_wait_map_of() {
	local i
	for i in $(seq 1 $(( $(lrs_secs "${3:-60}") * 4 ))); do
		lrs_map_of "$1" "$2" && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.25
	done
	return 1
}

# lrs_ready FILE PID [SECS]: until lruscope PID wrote its --ready-file FILE (from beside this
# file, not LRS_ROOT: tests of the runner point that at trees of their own)
. "$(dirname "${BASH_SOURCE[0]}")/lib/ready.sh"

# Wait (up to SECS, default 20 s, times LRS_TIME_SCALE) until process PID holds BPF
# programs: loading takes from 0.3 s to several seconds on a busy machine, and a minute in
# the lab guest. Prints their ids.
lrs_wait_bpf_loaded() {
	local ids="" i
	for i in $(seq 1 $(( $(lrs_secs "${2:-20}") * 4 ))); do
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
# on SOCKET) shows REGEX, at most SECS (default 20) by the clock: in the lab guest
# a capture alone can take longer than the pause between two. The last capture is
# left in LRS_SCREEN: what the user saw, for a check's message.
LRS_SCREEN=
lrs_screen_wait() {
	local sock=$1 s=$2 re=$3 end
	end=$((SECONDS + $(lrs_secs "${4:-20}")))
	while :; do
		LRS_SCREEN=$(tmux -L "$sock" capture-pane -p -t "$s" 2>&1)
		grep -Eq -- "$re" <<<"$LRS_SCREEN" && return 0
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.25
	done
}
# lrs_screen_show: LRS_SCREEN as TAP comment lines.
lrs_screen_show() { sed 's/^/#   /' <<<"$LRS_SCREEN"; }
# lrs_screen_check NAME SESSION REGEX SECS [COMMAND...]: a check that, within SECS,
# the pane of the server on SOCK shows REGEX and, if given, COMMAND succeeds on that
# same screen (in LRS_SCREEN); prints the last screen when not. One screen for both:
# a capture can fall between the bytes of one frame (the header redrawn, the bottom
# line not yet), so a screen that has REGEX but fails COMMAND is captured again.
# Returns the verdict (0: ok).
lrs_screen_check() {
	local name=$1 s=$2 re=$3 ok=0 end
	end=$((SECONDS + $(lrs_secs "$4")))
	shift 4
	while :; do
		LRS_SCREEN=$(tmux -L "$SOCK" capture-pane -p -t "$s" 2>&1)
		if grep -Eq -- "$re" <<<"$LRS_SCREEN" && { [ $# -eq 0 ] || "$@"; }; then
			ok=1
			break
		fi
		[ "$SECONDS" -lt "$end" ] || break
		sleep 0.25
	done
	tap_check "$name" [ "$ok" = 1 ]
	[ "$ok" = 1 ] || lrs_screen_show
	[ "$ok" = 1 ]
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

# need_contention_tracepoint NAME: a test of lruscope's live collector needs the kernel's
# BTF and its lock:contention_begin tracepoint (Linux 5.19+); without either it plans one
# check, skips it saying which, and exits.
need_contention_tracepoint() {
	local why=""
	if [ ! -r /sys/kernel/btf/vmlinux ]; then
		why="kernel has no BTF (/sys/kernel/btf/vmlinux)"
	elif ! grep -q 'contention_begin' /proc/kallsyms 2>/dev/null; then
		why="kernel has no lock:contention_begin tracepoint (Linux 5.19+)"
	fi
	[ -z "$why" ] && return 0
	tap_plan 1
	tap_skip "$1" "$why"
	exit 0
}

# Whether the running kernel traces spinlock waits, decided from what the kernel is.
# lock:contention_begin sits in the queued slow path of x86's qspinlock: every contended
# spinlock that reaches the queue is traced, the first waiter (spinning on the pending bit)
# never. Under a hypervisor without paravirt spinlocks, virt_spin_lock() takes a contended
# spinlock by test-and-set before the queue: no spinlock wait, lruvec locks included, is
# traced (mutexes and rwsems still are). The evidence, in order:
#   LRS_ASSUME_UNTRACED=1        untraced, on purpose (the tests then take that path)
#   no contention tracepoint     untraced (Linux before 5.19)
#   no "hypervisor" CPU flag     native qspinlock: traced where 3 or more CPUs can queue
#   the kernel's log             "PV spinlocks enabled": every slow path queues (traced);
#                                "PV spinlocks disabled, no host support": test-and-set
#                                (untraced); disabled otherwise: native qspinlock (traced)
#   a probe                      where the log says nothing: a readtwice load under a report
#                                that waits for its BPF programs; untraced only if sleeping
#                                locks were traced and not one plain spinlock wait
# Prints "traced: EVIDENCE", "untraced: EVIDENCE" or "inconclusive: EVIDENCE" (a probe that
# proved nothing: then taken as traced, and the tests fail where nothing is). Conclusive
# verdicts are cached per boot under $LRS_BUILD.
lrs_spin_verdict() {
	local boot cache v
	if [ "${LRS_ASSUME_UNTRACED:-0}" = 1 ]; then
		echo "untraced: assumed by LRS_ASSUME_UNTRACED=1 (the host itself may trace them)"
		return
	fi
	boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)
	cache=$LRS_BUILD/spin-verdict-v3.$boot
	if [ -s "$cache" ]; then cat "$cache"; return; fi
	v=$(lrs_spin_evidence)
	case "$v" in
	traced*|untraced*) mkdir -p "$LRS_BUILD" && echo "$v" >"$cache" ;;
	esac
	echo "$v"
}
lrs_spin_evidence() {
	local ncpu log
	ncpu=$(nproc)
	if ! grep -q "__traceiter_contention_begin$" /proc/kallsyms 2>/dev/null &&
		[ ! -d /sys/kernel/tracing/events/lock/contention_begin ]; then
		echo "untraced: this kernel has no lock:contention_begin tracepoint (Linux 5.19+)"
		return
	fi
	if ! grep -qw hypervisor /proc/cpuinfo; then
		if [ "$ncpu" -ge 3 ]; then
			echo "traced: no hypervisor, native qspinlock on $ncpu CPUs (waits queued behind a first waiter are traced)"
		else
			echo "untraced: no hypervisor and $ncpu CPUs: native qspinlock, and the only waiter is always the first, which spins on the pending bit untraced"
		fi
		return
	fi
	log=$(dmesg 2>/dev/null | grep -m1 -E 'PV spinlocks (enabled|disabled)')
	case "$log" in
	*"PV spinlocks enabled"*)
		echo "traced: a guest with paravirt spinlocks (kernel log: \"${log#*] }\"): every slow path queues"; return ;;
	*"no host support"*)
		echo "untraced: a guest without paravirt spinlocks (kernel log: \"${log#*] }\"): virt_spin_lock() takes contended spinlocks by test-and-set"; return ;;
	*"PV spinlocks disabled"*)
		echo "traced: paravirt spinlocks off, native qspinlock (kernel log: \"${log#*] }\")"; return ;;
	esac
	lrs_spin_load_probe
}
# The probe of last resort: a readtwice load under report -f json, then sleeping-lock waits
# (dd writers on one file's rwsem), each report started first and waited for until its BPF
# programs are in (up to 60 s).
lrs_spin_load_probe() {
	local tmp load report
	tmp=$(mktemp -d /tmp/lrs-test-spin.XXXXXX)
	"$LRS_BIN" report -d 4 -f json >"$tmp/report.json" 2>"$tmp/report.err" &
	report=$!
	lrs_wait_bpf_loaded "$report" 60 >/dev/null
	"$LRS_BIN" workload --layout shared --readers 4 --duration 3 --size 256m --limit 48m \
		--cpu-shares 8192 --prefix "lrs-test-spin$$-" >"$tmp/load" 2>&1 &
	load=$!
	wait "$report" "$load"
	"$LRS_BIN" report -d 3 -f json >"$tmp/sleeping.json" 2>>"$tmp/report.err" &
	report=$!
	lrs_wait_bpf_loaded "$report" 60 >/dev/null
	lrs_rewriters "$tmp/rewritten" 2
	wait "$report" "$LRS_REWRITERS"
	/usr/bin/python3 - "$tmp/report.json" "$tmp/load" "$tmp/sleeping.json" <<'PY'
import json, sys
SPIN = 1	# LCB_F_SPIN alone: a spinlock (an rwlock adds LCB_F_READ or LCB_F_WRITE)
try:
    snap = json.load(open(sys.argv[1]))
    load = json.loads([l for l in open(sys.argv[2]) if l.startswith("{")][-1])
    sleeping = json.load(open(sys.argv[3]))
except (OSError, ValueError, IndexError) as e:
    print("inconclusive: the probe failed (%s)" % e); sys.exit()
spin = sum(l["contended"] for l in snap["lruvecs"])
spin += sum(o["contended"] for s in (snap, sleeping) for o in s["other_locks"]
            if o.get("flags", 0) == SPIN)
other = sum(o["contended"] for s in (snap, sleeping) for o in s["other_locks"])
if spin:
    print("traced: a probe load traced %d spinlock waits" % spin)
elif other and load.get("mb_per_s"):
    print("untraced: under a hypervisor, a readtwice load traced 0 spinlock waits and %d "
          "sleeping-lock waits: spinlocks are taken by test-and-set (virt_spin_lock)" % other)
else:
    print("inconclusive: the probe load traced nothing (%d sleeping-lock waits, %s MB/s)" % (
        other, load.get("mb_per_s")))
PY
	rm -rf "$tmp"
}
# lrs_spin_traced: returns 0 where spinlock waits are traced (or the verdict is
# inconclusive); else prints why not and returns 1.
lrs_spin_traced() {
	local v
	v=$(lrs_spin_verdict)
	case "$v" in untraced*) echo "${v#untraced: }"; return 1 ;; esac
	return 0
}

# Run lrs_cleanup and remove directory $1 when the test exits, also on INT, TERM and HUP.
lrs_cleanup_on_exit() {
	LRS_TMP=$1
	trap 'lrs_cleanup; rm -rf "$LRS_TMP"' EXIT
	trap 'exit 130' INT TERM HUP
}
