#!/usr/bin/env bash
# Runs every test of `make check` (see tests/PROTOCOL.md) and ends with
# "N passed, N failed, N skipped". Exits 1 if anything failed.
set -u
root=${LRS_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
build=${LRS_BUILD:-$root/build}
export LRS_ROOT=$root LRS_BUILD=$build LRS_BIN=${LRS_BIN:-$build/lruscope}
export LRS_CACHE=${LRS_CACHE:-/var/cache/lruscope}
only=${1:-}	# optional: a substring of the test paths (from the repository's top) to run

passed=0 failed=0 skipped=0
failures=()
log=$(mktemp -d /tmp/lrs-check.XXXXXX)

if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
	green=$'\e[32m' red=$'\e[31m' yellow=$'\e[33m' bold=$'\e[1m' off=$'\e[0m'
else
	green='' red='' yellow='' bold='' off=''
fi

# Scripted tests run in a cpu cgroup of their own with a large weight: their
# loads give readers cpu.shares 8192 to keep contention steady, which would
# otherwise starve the lruscope under test (a 1 s report taking 14 s).
boost=""
if [ "$(id -u)" = 0 ] && [ -z "${LRS_NO_BOOST:-}" ]; then
	cpu_v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ {print $2; exit}' /proc/mounts)
	cpu_v2=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
	# the cgroup of a run that ended without its trap (SIGKILL, a restart of the machine):
	# lrs-test-run-PID, PID no longer a runner, no task left in it
	for stale in "$cpu_v1"/lrs-test-run-* "$cpu_v2"/lrs-test-run-*; do
		[ -d "$stale" ] || continue
		grep -qs run-all "/proc/${stale##*-}/cmdline" && continue
		[ -s "$stale/cgroup.procs" ] || rmdir "$stale" 2>/dev/null
	done
	if [ -n "$cpu_v1" ] && mkdir "$cpu_v1/lrs-test-run-$$" 2>/dev/null; then
		boost=$cpu_v1/lrs-test-run-$$
		echo 32768 >"$boost/cpu.shares"
	elif [ -n "$cpu_v2" ] && grep -qw cpu "$cpu_v2/cgroup.subtree_control" 2>/dev/null &&
		mkdir "$cpu_v2/lrs-test-run-$$" 2>/dev/null; then
		boost=$cpu_v2/lrs-test-run-$$
		echo 10000 >"$boost/cpu.weight"
	fi
fi
# end_boost: what a test left running in the boost cgroup (a process it started and did
# not end) is ended, TERM then KILL, so that the cgroup can go; rmdir is tried again
# while it is busy (an exiting task holds the cgroup a moment after leaving cgroup.procs).
# KILL comes 20 s after TERM, as the watchdog's: a test ended while its lab guest runs
# needs that long to stop the guest and remove its work directory.
end_boost() {
	local i
	[ -n "$boost" ] && [ -d "$boost" ] || return 0
	for i in $(seq 1 120); do
		rmdir "$boost" 2>/dev/null && return 0
		[ "$i" = 1 ] && xargs -r kill -TERM <"$boost/cgroup.procs" 2>/dev/null
		[ "$i" = 80 ] && xargs -r kill -KILL <"$boost/cgroup.procs" 2>/dev/null
		sleep 0.25
	done
	echo "run-all: $boost still holds tasks: $(tr '\n' ' ' <"$boost/cgroup.procs")" >&2
}
trap '[ -z "${live_pid:-}" ] || kill "$live_pid" 2>/dev/null; rm -rf "$log"; end_boost' EXIT

# A test that hangs must cost one failure, not the whole run: each .t runs in
# a session of its own, and a watchdog ends that session after its time limit
# (LRS_TEST_LIMIT seconds, 300 by default; or a "# time-limit: N" line near the top of the
# test), after writing down where each of its processes waits.
default_limit=${LRS_TEST_LIMIT:-300}
time_limit() {
	local n
	n=$(head -n 20 "$1" | sed -n 's/^# time-limit: \([0-9][0-9]*\)\( .*\)\{0,1\}$/\1/p' | head -n 1)
	echo "${n:-$default_limit}"
}
watchdog() {	# watchdog SID LIMIT: ends session SID if it outlives LIMIT s
	local sid=$1 limit=$2 p end=$((SECONDS + $2))
	while [ "$SECONDS" -lt "$end" ]; do
		kill -0 "$sid" 2>/dev/null || return 0
		sleep 0.25
	done
	echo "# time limit: still running after ${limit}s; its processes and where they wait:"
	ps -s "$sid" -o pid=,stat=,etime=,wchan:32=,args= 2>/dev/null | sed 's/^/#   /'
	for p in $(ps -s "$sid" -o pid= 2>/dev/null); do
		[ -r "/proc/$p/stack" ] || continue
		echo "#   kernel stack of $p ($(cat "/proc/$p/comm" 2>/dev/null)):"
		sed 's/^/#     /' "/proc/$p/stack" 2>/dev/null
	done
	# TERM first, so that the test's own trap removes what it made
	pkill -TERM -s "$sid"
	for p in $(seq 1 80); do	# 20 s for it to clean up
		pgrep -s "$sid" >/dev/null || break
		sleep 0.25
	done
	pkill -KILL -s "$sid"
	echo "not ok - $rel: ran past its time limit of ${limit}s; ended it"
}
run_test() {	# run_test LIMIT TEST: runs TEST (boosted) in a new session, bounded
	local limit=$1 pid dog rc
	shift
	if [ -n "$boost" ]; then
		setsid bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$boost" "$@" &
	else
		setsid "$@" &
	fi
	pid=$!	# setsid does not fork here (a background job leads no group): the sid
	watchdog "$pid" "$limit" >"$out.dog" 2>&1 &
	dog=$!
	wait "$pid"
	rc=$?
	wait "$dog"	# it sees the test gone within a quarter of a second
	return "$rc"
}

# The plan: a test says how many check lines it prints (skips included) in a line "1..N"
# before the first of them, so that no check can vanish (a section that exits early, a
# Python block that raised). plan_problems FILE prints, one a line, what is wrong with the
# plan of the test output in FILE: none, more than one, one after the first check, a count
# that differs. The plan line counts nothing itself. Each is one failure; a missing plan
# only where LRS_REQUIRE_PLAN is not 0 (else a comment says so).
require_plan=${LRS_REQUIRE_PLAN:-1}
plan_problems() {
	awk '
		/^1\.\.[0-9]+([ \t#]|$)/ {
			if (plans++ == 0) { plan = substr($1, 4) + 0; at = NR; late = checks > 0 }
			next
		}
		/^ok - / || /^not ok( |$)/ { if (checks++ == 0) first = NR }
		END {
			if (plans == 0) {
				print "no plan (a line 1..N before its first check)"
				exit
			}
			if (plans > 1) print plans " plan lines, not one"
			if (late) print "its plan (line " at ") came after its first check (line " first ")"
			if (checks != plan) print "its plan says " plan " checks, it printed " checks
		}' "$1"
}

# The "not ok" lines of a test's output, each after the (up to 3) comment lines
# just before it, which hold what the check measured; cut to 600 characters a
# line. The run's end repeats them: a CI log that keeps only its head and tail
# still says which check failed and why.
failed_checks() {
	awk '/^#/ { ctx[n++ % 3] = $0; next }
	     /^not ok( |$)/ { for (i = (n > 3 ? n - 3 : 0); i < n; i++) print "  " substr(ctx[i % 3], 1, 600)
	                      print "  " substr($0, 1, 600); n = 0; next }
	     { n = 0 }' "$1" | head -n 60
}

# Spinlock waits: traced by this kernel or not, and why (tests/lib.sh lrs_spin_verdict). A
# test with the line "# live: traced" near its top needs traced lruvec-lock waits: where this
# host traces none, it runs in the lab guest that does (tests/lab/lib/live_guest.py), the same
# file and checks, one boot for all of them, while the other tests run here. So does a test
# with "# live: kcore" (drgn on the running kernel) where this kernel cannot be read.
# LRS_SPIN_VERDICT, LRS_KCORE_VERDICT and LRS_LIVE_RUNNER stand in for the verdicts and the
# guest's runner in the runner's own tests (tests/build/runner.t).
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
verdict=${LRS_SPIN_VERDICT:-$(lrs_spin_verdict)}
printf '%s== spinlock waits: %s%s\n' "$bold" "$verdict" "$off"
LRS_UNTRACED=
case "$verdict" in untraced*) LRS_UNTRACED=${verdict#untraced: } ;; esac
export LRS_UNTRACED
# The same for the running kernel's memory, read by drgn ("# live: kcore").
kcore=$(lrs_kcore_verdict)
printf '%s== live kernel memory: %s%s\n' "$bold" "$kcore" "$off"
no_kcore=
case "$kcore" in unreadable*) no_kcore=${kcore#unreadable: } ;; esac
# needs_guest TEST: the test needs what this host lacks and the lab guest has. A lab test
# boots a guest of its own: it is never run inside the live guest.
needs_guest() {
	local want
	case "$1" in */tests/lab/*) return 1 ;; esac
	want=$(head -n 20 "$1" | sed -n 's/^# live: \([a-z]*\)$/\1/p' | head -n 1)
	case "$want" in
	traced) [ -n "$LRS_UNTRACED" ] ;;
	kcore) [ -n "$no_kcore" ] ;;
	*) return 1 ;;
	esac
}
live_rel=() live_pid="" live_dir=$log/live
while IFS= read -r t; do
	rel=${t#"$root"/}
	case "$rel" in *"$only"*) ;; *) continue ;; esac
	needs_guest "$t" && live_rel+=("$rel")
done < <(find "$root/tests" -mindepth 2 -maxdepth 2 -name '*.t' -perm -u+x | sort)
if [ ${#live_rel[@]} -gt 0 ]; then
	echo "== ${#live_rel[@]} tests need traced lruvec-lock waits or a readable kernel this host lacks: they run in the lab guest (${live_rel[*]})"
	# Its checks time what its guest does (a snapshot a second, a demo's runs), and its TCG
	# guest runs on one host thread: that thread gets a core before this runner's own tests,
	# builds and a shared lab guest, which then share the other (nice, where root may raise it).
	live_nice=
	[ "$(id -u)" = 0 ] && live_nice="nice -n -10"
	$live_nice ${LRS_LIVE_RUNNER:-/usr/bin/python3 $here/lab/lib/live_guest.py} "$live_dir" "${live_rel[@]}" \
		>"$log/live-guest.err" 2>&1 &
	live_pid=$!
fi

# count_test REL OUT RC SECS [WHERE [CUT]]: counts the TAP lines of a test's output OUT (exit
# status RC) into the run's totals, as one line of its own; its plan is held against what it
# printed unless CUT is 1 (a time limit ended it). WHERE: ", in the lab guest" or nothing.
where_ran=()
count_test() {
	local rel=$1 out=$2 rc=$3 secs=$4 where=${5:-} cut=${6:-0} p s f problems problem
	problems=""
	[ "$cut" = 1 ] || problems=$(plan_problems "$out")
	while IFS= read -r problem; do
		case "$problem" in
		"") ;;
		"no plan"*) if [ "$require_plan" = 0 ]; then
				echo "# $rel: $problem: not counted, LRS_REQUIRE_PLAN=0"
			else
				echo "not ok - $rel: $problem"
			fi ;;
		*) echo "not ok - $rel: $problem" ;;
		esac
	done <<<"$problems" | tee -a "$out"
	p=$(grep -cE '^ok - ' "$out" | head -1)	# a bare "ok ..." line is no check
	s=$(grep -cE '^ok - .*# SKIP' "$out" | head -1)
	f=$(grep -cE '^not ok( |$)' "$out" | head -1)
	p=$((p - s))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $rel exited with status $rc" | tee -a "$out"
		f=1
	fi
	printf '   (%s%s: %d passed, %d failed, %d skipped in %ds)\n' "$rel" "$where" "$p" "$f" "$s" "$secs"
	[ -z "$where" ] || where_ran+=("$rel: $p passed, $f failed, $s skipped")
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	if [ "$f" -gt 0 ]; then
		failures+=("$rel")
		{ echo "$rel:"; failed_checks "$out"; } >>"$log/failed"
	fi
}
# run_live_tests: the tests that ran in the lab guest, each once its guest run ended
run_live_tests() {
	local rel name rc start cut
	for rel in "${live_rel[@]}"; do
		name=$(echo "$rel" | tr / _)
		printf '%s== %s (in the lab guest)%s\n' "$bold" "$rel" "$off"
		start=$(date +%s)
		while [ ! -e "$live_dir/$name.rc" ] && kill -0 "$live_pid" 2>/dev/null; do sleep 1; done
		if [ ! -e "$live_dir/$name.rc" ]; then
			echo "not ok - $rel: the lab guest's runner ended without running it: $(tail -n 3 "$log/live-guest.err" | tr '\n' ' ')" >>"$live_dir/$name.out"
			echo 1 >"$live_dir/$name.rc"
		fi
		cat "$live_dir/$name.out"
		rc=$(cat "$live_dir/$name.rc")
		cut=0
		grep -q "^not ok - $rel: ran past its time limit in the lab guest" "$live_dir/$name.out" && cut=1
		count_test "$rel" "$live_dir/$name.out" "$rc" $(( $(date +%s) - start )) ", in the lab guest" "$cut"
	done
	live_rel=()
	[ -z "$live_pid" ] || { wait "$live_pid"; sed 's/^/# /' "$log/live-guest.err" | tail -n 20; }
}

# cmocka binaries: count their summary lines.
for bin in "$build"/tests/unit/test_*; do
	[ -x "$bin" ] || continue
	case "${bin#"$build"/}" in *"$only"*) ;; *) continue ;; esac
	name=${bin##*/}
	printf '%s== %s%s\n' "$bold" "$name" "$off"
	out="$log/$name.out"
	"$bin" >"$out" 2>&1
	rc=$?
	cat "$out"
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')
	s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')
	# its plan: the "Running N test(s)" of each group, against what the summaries count
	planned=$(sed -n 's/^\[==========\] Running \([0-9]*\) test.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')
	unplanned=""
	if ! grep -q '^\[==========\] Running [0-9]* test' "$out"; then
		unplanned="no plan (no \"[==========] Running N test(s)\" line)"
	elif [ $((p + f + s)) -ne "$planned" ]; then
		unplanned="planned $planned test(s), counted $((p + f + s)) passed, failed or skipped"
	fi
	if [ -n "$unplanned" ]; then
		echo "not ok - $name: $unplanned"
		f=$((f + 1))
	fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	if [ "$f" -gt 0 ]; then
		failures+=("$name")
		{ echo "$name:"; grep -E '^\[ +(ERROR|LINE|FAILED) +\]' "$out" | head -n 20
		  [ -z "$unplanned" ] || echo "  not ok - $name: $unplanned"; } >>"$log/failed"
	fi
done

# Scripted tests: TAP-style lines. The lab's tests come last, those whose checks rest on no
# timing ("# guest: shared": their guest may run beside the live guest, on the other core)
# before those that want the machine to themselves, which wait for the live guest first.
guest_shared() { head -n 20 "$1" | grep -qE '^# guest: shared( |$)'; }
in_order() {	# every .t as "KEY PATH", KEY: 1 not the lab's, 2 the lab's shared, 3 the rest
	local t
	while IFS= read -r t; do
		case "$t" in
		*/tests/lab/*) if guest_shared "$t"; then echo "2 $t"; else echo "3 $t"; fi ;;
		*) echo "1 $t" ;;
		esac
	done < <(find "$root/tests" -mindepth 2 -maxdepth 2 -name '*.t' -perm -u+x) | sort -k1,1n -k2 | cut -d' ' -f2-
}
while IFS= read -r t; do
	rel=${t#"$root"/}
	case "$rel" in *"$only"*) ;; *) continue ;; esac
	share=
	case "$rel" in
	tests/lab/*) if guest_shared "$t"; then share=1
		elif [ ${#live_rel[@]} -gt 0 ]; then run_live_tests	# counted first, then alone
		fi ;;
	esac
	if needs_guest "$t"; then continue; fi
	printf '%s== %s%s\n' "$bold" "$rel" "$off"
	out="$log/$(echo "$rel" | tr / _).out"
	start=$(date +%s)
	# into a file, shown as it grows: a process the test leaves behind (one stuck
	# in the kernel outlives SIGKILL) may hold the file, and no pipe waits for it
	: >"$out"
	LRS_GUEST_SHARE=$share run_test "$(time_limit "$t")" "$t" </dev/null >"$out" 2>&1 &
	runner=$!
	tail -n +1 -s 0.2 -f --pid="$runner" "$out"
	wait "$runner"
	rc=$?
	# the watchdog's lines after what the test printed itself: a test it ended was cut
	# short, which its time-limit line says, and its plan is not held against it
	cut=0
	[ -s "$out.dog" ] && cut=1
	tee -a "$out" <"$out.dog"
	count_test "$rel" "$out" "$rc" $(( $(date +%s) - start )) "" "$cut"
done < <(in_order)
[ ${#live_rel[@]} -eq 0 ] || run_live_tests

echo
echo "spinlock waits: $verdict"
echo "live kernel memory: $kcore"
if [ ${#where_ran[@]} -gt 0 ]; then
	echo "tests that need traced lruvec-lock waits or a readable kernel ran in the lab guest:"
	printf '  %s\n' "${where_ran[@]}"
else
	echo "tests that need traced lruvec-lock waits or a readable kernel ran on this host"
fi
if [ ${#failures[@]} -gt 0 ]; then
	printf '%sfailed:%s %s\n' "$red" "$off" "${failures[*]}"
	cat "$log/failed"
fi
colour=$green
[ "$failed" -gt 0 ] && colour=$red
[ "$failed" -eq 0 ] && [ "$skipped" -gt 0 ] && colour=$yellow
printf '%s%d passed, %d failed, %d skipped%s\n' "$colour" "$passed" "$failed" "$skipped" "$off"
[ "$failed" -eq 0 ]
