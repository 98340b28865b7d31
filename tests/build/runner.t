#!/usr/bin/env bash
# The test runner's own contract: a test that hangs costs one failure, not the
# whole run. It is ended after its time limit, with where it waited written
# down; what it started in the background ends with it; its own exit trap
# runs; the runner goes on to the next test and counts everything. No check
# can vanish: a test whose plan ("1..N" before its first check) is missing,
# late, doubled or another number than the checks it printed fails, and so
# does a cmocka binary whose "Running N test(s)" is not what it counted.
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 39
tmp=$(mktemp -d /tmp/lrs-test-runner.XXXXXX)
# d-leaves.t's leftover is ended here, also when a check fails
# and the cgroup section's: its leftover process, its stand-in stale cgroup
trap 'kill "$(cat "$tmp/d.left" 2>/dev/null)" "$(cat "$tmp/cg.left" 2>/dev/null)" 2>/dev/null
	[ -z "${stale:-}" ] || rmdir "$stale" 2>/dev/null; rm -rf "$tmp"' EXIT

# a tree of three tests for run-all.sh: one hangs in a wait on a background
# child, one hangs with a longer limit of its own, one passes
mkdir -p "$tmp/root/tests/x" "$tmp/build"
cat >"$tmp/root/tests/x/a-hangs.t" <<SH
#!/usr/bin/env bash
trap 'echo trap-ran >"$tmp/a.trap"' EXIT
trap 'exit 130' TERM
echo "1..2"
echo "ok - before the hang"
sleep 300 & echo \$! >"$tmp/a.child"
wait
SH
cat >"$tmp/root/tests/x/b-limit.t" <<SH
#!/usr/bin/env bash
# time-limit: 4  (its own)
echo "1..1"
echo "ok - b starts"
sleep 300
SH
cat >"$tmp/root/tests/x/c-passes.t" <<'SH'
#!/usr/bin/env bash
echo "1..1"
echo "ok - c passes"
SH
# one that leaves a process behind, out of its session, holding its output
cat >"$tmp/root/tests/x/d-leaves.t" <<SH
#!/usr/bin/env bash
echo "1..1"
setsid sleep 600 &
echo \$! >"$tmp/d.left"
echo "ok - d leaves a process behind"
SH
# one whose check fails after what it measured, one that exits non-zero without a "not ok"
cat >"$tmp/root/tests/x/e-fails.t" <<'SH'
#!/usr/bin/env bash
echo "1..2"
echo "# measured before a passing check"
echo "ok [3] a helper's own line, not a check: not counted"
echo "ok - e passes first"
echo "# measured: 3 of 4"
echo "# threshold: 4"
echo "not ok - e second: 3 < 4"
SH
cat >"$tmp/root/tests/x/f-exits.t" <<'SH'
#!/usr/bin/env bash
echo "1..1"
echo "ok - f passes, then exits 3"
exit 3
SH
# plans: fewer checks than planned, more, none, one after the checks, two, and one that
# holds (a skip counts as a check)
printf '#!/bin/sh\necho 1..3\necho "ok - g one"\necho "ok - g two"\n' >"$tmp/root/tests/x/g-fewer.t"
printf '#!/bin/sh\necho 1..1\necho "ok - h one"\necho "ok - h two"\n' >"$tmp/root/tests/x/h-more.t"
printf '#!/bin/sh\necho "ok - i one"\n' >"$tmp/root/tests/x/i-noplan.t"
printf '#!/bin/sh\necho "ok - j one"\necho 1..1\n' >"$tmp/root/tests/x/j-late.t"
printf '#!/bin/sh\necho 1..1\necho "ok - m one"\necho 1..1\n' >"$tmp/root/tests/x/m-twoplans.t"
printf '#!/bin/sh\necho 1..2\necho "ok - k one"\necho "ok - k two # SKIP no such feature"\n' \
	>"$tmp/root/tests/x/k-planned.t"
# a Python block that raises (tests/lib.sh's tap_python) after its first of three checks
cat >"$tmp/root/tests/x/n-raises.t" <<SH
#!/usr/bin/env bash
. "$LRS_ROOT/tests/lib.sh"
tap_plan 3
tap_python "n block" /usr/bin/python3 - <<'PY'
print("ok - n first")
raise ValueError("boom")
PY
SH
chmod +x "$tmp"/root/tests/x/*.t
# cmocka binaries: one stops short of its plan (as a crash between groups would), one holds
mkdir -p "$tmp/build/tests/unit"
printf '#!/bin/sh\necho "[==========] Running 3 test(s)."\necho "[  PASSED  ] 2 test(s)."\n' \
	>"$tmp/build/tests/unit/test_short"
printf '#!/bin/sh\necho "[==========] Running 2 test(s)."\necho "[  PASSED  ] 1 test(s)."\necho "[  SKIPPED ] 1 test(s), listed below:"\n' \
	>"$tmp/build/tests/unit/test_whole"
chmod +x "$tmp"/build/tests/unit/test_*

start=$(date +%s)
LRS_ROOT=$tmp/root LRS_BUILD=$tmp/build LRS_TEST_LIMIT=2 LRS_NO_BOOST=1 LRS_REQUIRE_PLAN=1 \
	"$LRS_ROOT/tests/run-all.sh" </dev/null >"$tmp/out" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))
sed 's/^/#   /' "$tmp/out"

tap_check "runner: a run with a hung test exits 1 ($rc)" [ "$rc" -eq 1 ]
tap_check "runner: the hung test is one failure, named with its limit" \
	grep -q '^not ok - tests/x/a-hangs.t: ran past its time limit of 2s' "$tmp/out"
tap_check "runner: it says where the hung processes wait" \
	grep -qE '^#   +[0-9]+ .* sleep 300$' "$tmp/out"
tap_check "runner: the hung test's exit trap ran (TERM before KILL)" [ -s "$tmp/a.trap" ]
child=$(cat "$tmp/a.child" 2>/dev/null)
tap_check "runner: the hung test's background child ($child) was ended" \
	bash -c '[ -n "$1" ] && ! kill -0 "$1" 2>/dev/null' _ "$child"
tap_check "runner: a '# time-limit: N' line sets a test's own limit" \
	grep -q '^not ok - tests/x/b-limit.t: ran past its time limit of 4s' "$tmp/out"
tap_check "runner: the run went on to the next test" grep -q '^ok - c passes' "$tmp/out"
# 18 passes: 15 check lines of the tests (2 of g, 2 of h), 3 of cmocka's; 12 failures: the
# 2 hangs, e's check, f's exit, the 5 plans and n's raise, test_short's plan; 2 skips
tap_check "runner: the closing line counts it all (only 'ok - ' lines pass)" \
	grep -q '^18 passed, 12 failed, 2 skipped$' "$tmp/out"
# the end of the run repeats each failed check under its test, after what it measured
sed -n '/^failed: /,$p' "$tmp/out" >"$tmp/summary"
tap_check "runner: the run's end names each failed test" \
	grep -qx 'failed: test_short tests/x/a-hangs.t tests/x/b-limit.t tests/x/e-fails.t tests/x/f-exits.t tests/x/g-fewer.t tests/x/h-more.t tests/x/i-noplan.t tests/x/j-late.t tests/x/m-twoplans.t tests/x/n-raises.t' "$tmp/summary"
tap_check "runner: the run's end repeats a failed check after the comments just before it" \
	bash -c 'grep -A3 -x "tests/x/e-fails.t:" "$1" | tr -d "\n" | grep -qx \
		"tests/x/e-fails.t:  # measured: 3 of 4  # threshold: 4  not ok - e second: 3 < 4"' _ "$tmp/summary"
tap_check "runner: ... and not the comments before a check that passed" \
	bash -c '! grep -q "measured before a passing check" "$1"' _ "$tmp/summary"
tap_check "runner: the run's end says a test exited non-zero, and the hung test's limit" \
	bash -c 'grep -qx "  not ok - tests/x/f-exits.t exited with status 3" "$1" &&
		grep -q "^  not ok - tests/x/a-hangs.t: ran past its time limit" "$1"' _ "$tmp/summary"
# two limits (2 s + 4 s) and their TERM grace (20 s each) at most, and some slack for a busy
# machine; not the 600 s of the process d-leaves.t left holding its output
tap_check "runner: it took the limits, not the hangs nor what was left ($secs s)" [ "$secs" -lt 200 ]

# ---- plans ------------------------------------------------------------------------
tap_check "runner: fewer checks than planned is a failure naming both numbers" \
	grep -qx 'not ok - tests/x/g-fewer.t: its plan says 3 checks, it printed 2' "$tmp/out"
tap_check "runner: more checks than planned is a failure naming both numbers" \
	grep -qx 'not ok - tests/x/h-more.t: its plan says 1 checks, it printed 2' "$tmp/out"
tap_check "runner: no plan is a failure (LRS_REQUIRE_PLAN=1)" \
	grep -qx 'not ok - tests/x/i-noplan.t: no plan (a line 1..N before its first check)' "$tmp/out"
tap_check "runner: a plan after the first check is a failure, though its number holds" \
	bash -c 'grep -qx "not ok - tests/x/j-late.t: its plan (line 2) came after its first check (line 1)" "$1" &&
		! grep -q "j-late.t: its plan says" "$1"' _ "$tmp/out"
tap_check "runner: a second plan line is a failure" \
	grep -qx 'not ok - tests/x/m-twoplans.t: 2 plan lines, not one' "$tmp/out"
tap_check "runner: a plan that holds (a skip counted) is no failure, and counts nothing itself" \
	bash -c 'grep -qx "   (tests/x/k-planned.t: 1 passed, 0 failed, 1 skipped in [0-9]*s)" "$1" &&
		! grep -q "k-planned.t: its plan" "$1"' _ "$tmp/out"
tap_check "runner: a hung test is one failure, its plan not held against it" \
	bash -c '[ "$(grep -c "^not ok - tests/x/a-hangs.t" "$1")" = 1 ]' _ "$tmp/out"
tap_check "runner: a Python block that raises is a failure with the exception (tap_python)" \
	grep -qx 'not ok - n block: python raised (exit 1): ValueError: boom' "$tmp/out"
tap_check "runner: ... and the checks it did not print fail the plan" \
	grep -qx 'not ok - tests/x/n-raises.t: its plan says 3 checks, it printed 2' "$tmp/out"
tap_check "runner: a cmocka binary that counts fewer than its 'Running N test(s)' fails" \
	grep -qx 'not ok - test_short: planned 3 test(s), counted 2 passed, failed or skipped' "$tmp/out"
tap_check "runner: a cmocka binary whose count holds (a skip counted) is no failure" \
	bash -c '! grep -q "test_whole: planned" "$1"' _ "$tmp/out"
tap_check "runner: the run's end repeats a plan's failure under its test" \
	bash -c 'grep -A1 -x "tests/x/g-fewer.t:" "$1" | grep -qx "  not ok - tests/x/g-fewer.t: its plan says 3 checks, it printed 2"' \
	_ "$tmp/summary"
# LRS_REQUIRE_PLAN=0: a test with no plan yet passes, said in a comment; a wrong plan still fails
LRS_ROOT=$tmp/root LRS_BUILD=$tmp/build LRS_NO_BOOST=1 LRS_REQUIRE_PLAN=0 \
	"$LRS_ROOT/tests/run-all.sh" i-noplan </dev/null >"$tmp/lax1" 2>&1
LRS_ROOT=$tmp/root LRS_BUILD=$tmp/build LRS_NO_BOOST=1 LRS_REQUIRE_PLAN=0 \
	"$LRS_ROOT/tests/run-all.sh" g-fewer </dev/null >"$tmp/lax2" 2>&1
sed 's/^/#   /' "$tmp/lax1"
tap_check "runner: LRS_REQUIRE_PLAN=0: no plan passes, a comment says it was not counted" \
	bash -c 'grep -qx "1 passed, 0 failed, 0 skipped" "$1" &&
		grep -qx "# tests/x/i-noplan.t: no plan (a line 1..N before its first check): not counted, LRS_REQUIRE_PLAN=0" "$1"' \
	_ "$tmp/lax1"
tap_check "runner: LRS_REQUIRE_PLAN=0: a plan that does not hold still fails" \
	grep -qx '2 passed, 1 failed, 0 skipped' "$tmp/lax2"

# a pattern picks tests by their path in the repository, not by where it is checked out
LRS_ROOT=$tmp/root LRS_BUILD=$tmp/build LRS_NO_BOOST=1 \
	"$LRS_ROOT/tests/run-all.sh" "${tmp##*/}" </dev/null >"$tmp/pat1" 2>&1
LRS_ROOT=$tmp/root LRS_BUILD=$tmp/build LRS_NO_BOOST=1 \
	"$LRS_ROOT/tests/run-all.sh" c-pass </dev/null >"$tmp/pat2" 2>&1
tap_check "runner: a pattern is matched in the repository, not in its directory's name" \
	grep -qx '0 passed, 0 failed, 0 skipped' "$tmp/pat1"
tap_check "runner: a pattern runs the tests whose path has it (c-pass)" \
	bash -c 'grep -qx "1 passed, 0 failed, 0 skipped" "$1" && grep -q "^ok - c passes" "$1"' _ "$tmp/pat2"

# Where this host traces no spinlock wait, a test that needs traced lruvec-lock waits
# ("# live: traced") runs in the lab guest, counted as if it ran here, named so at its count
# and at the run's end; the other tests run here. A stand-in for the guest's runner
# (LRS_LIVE_RUNNER) runs it locally and writes what the real one writes.
mkdir -p "$tmp/live/tests/x" "$tmp/build-live"	# a build of its own: no unit binaries
cat >"$tmp/live/tests/x/g-live.t" <<'SH'
#!/usr/bin/env bash
# live: traced
echo "1..2"
echo "ok - g ran where waits are traced ($LRS_WHERE)"
echo "ok - g second, nice $(nice)"
SH
cat >"$tmp/live/tests/x/h-here.t" <<'SH'
#!/usr/bin/env bash
echo "1..1"
echo "ok - h ran here ($LRS_WHERE), nice $(nice)"
SH
cat >"$tmp/live/tests/x/k-kcore.t" <<'SH'
#!/usr/bin/env bash
# live: kcore
echo "1..1"
echo "ok - k read the kernel ($LRS_WHERE)"
SH
cat >"$tmp/fake-guest" <<'SH'
#!/usr/bin/env bash
dir=$1; shift
mkdir -p "$dir"
for t in "$@"; do
	n=$(echo "$t" | tr / _)
	(cd "$LRS_ROOT" && LRS_WHERE=guest "./$t") >"$dir/$n.out" 2>&1
	echo $? >"$dir/$n.rc"
done
SH
chmod +x "$tmp"/live/tests/x/*.t "$tmp/fake-guest"
LRS_ROOT=$tmp/live LRS_BUILD=$tmp/build-live LRS_NO_BOOST=1 LRS_WHERE=host LRS_LIVE_RUNNER=$tmp/fake-guest \
	LRS_SPIN_VERDICT="untraced: a stand-in verdict" LRS_KCORE_VERDICT="readable: a stand-in" \
	"$LRS_ROOT/tests/run-all.sh" </dev/null >"$tmp/untraced" 2>&1
LRS_ROOT=$tmp/live LRS_BUILD=$tmp/build-live LRS_NO_BOOST=1 LRS_WHERE=host LRS_LIVE_RUNNER=$tmp/fake-guest \
	LRS_SPIN_VERDICT="traced: a stand-in verdict" LRS_KCORE_VERDICT="unreadable: a stand-in" \
	"$LRS_ROOT/tests/run-all.sh" </dev/null >"$tmp/traced" 2>&1
sed 's/^/#   /' "$tmp/untraced"
tap_check "runner: the verdict and its evidence are printed at the top of the run" \
	bash -c 'head -n 1 "$1" | grep -q "spinlock waits: untraced: a stand-in verdict"' _ "$tmp/untraced"
tap_check "runner: untraced: the live test ran in the guest, the others here" \
	bash -c 'grep -q "^ok - g ran where waits are traced (guest)" "$1" && grep -q "^ok - h ran here (host)" "$1" &&
		grep -q "^ok - k read the kernel (host)" "$1" && ! grep -q "g ran where waits are traced (host)" "$1"' _ "$tmp/untraced"
tap_check "runner: untraced: it is counted as any test, and named as run in the lab guest" \
	bash -c 'grep -qF "(tests/x/g-live.t, in the lab guest: 2 passed, 0 failed, 0 skipped" "$1" &&
		grep -qx "4 passed, 0 failed, 0 skipped" "$1" && grep -qx "  tests/x/g-live.t: 2 passed, 0 failed, 0 skipped" "$1"' _ "$tmp/untraced"
# the live guest's thread gets a core before the tests here (it times what its guest does)
if [ "$(id -u)" = 0 ]; then
	tap_check "runner: untraced, as root: the live guest's runner at nice -10, the tests here at 0" \
		bash -c 'grep -qx "ok - g second, nice -10" "$1" && grep -qx "ok - h ran here (host), nice 0" "$1"' _ "$tmp/untraced"
else
	tap_skip "runner: the live guest's niceness" "not root: nice cannot be raised"
fi
tap_check "runner: traced: the traced-waits test ran here, the unreadable kernel's in the guest" \
	bash -c 'grep -q "^ok - g ran where waits are traced (host)" "$1" && grep -qx "4 passed, 0 failed, 0 skipped" "$1" &&
		grep -q "^ok - k read the kernel (guest)" "$1" && grep -qx "  tests/x/k-kcore.t: 1 passed, 0 failed, 0 skipped" "$1" &&
		grep -q "^== live kernel memory: unreadable: a stand-in" "$1"' _ "$tmp/traced"

# The lab's tests come last: those marked "# guest: shared" first, told so (LRS_GUEST_SHARE=1,
# their guest may run beside the live guest), then the live guest's tests are counted, then
# the lab tests that want the machine alone.
mkdir -p "$tmp/order/tests/x" "$tmp/order/tests/lab"
cp "$tmp/live/tests/x/g-live.t" "$tmp/order/tests/x/"
cat >"$tmp/order/tests/lab/a-alone.t" <<'SH'
#!/usr/bin/env bash
echo "1..1"
echo "ok - alone ran, share [$LRS_GUEST_SHARE]"
SH
cat >"$tmp/order/tests/lab/b-shared.t" <<'SH'
#!/usr/bin/env bash
# guest: shared  (a note after it)
echo "1..1"
echo "ok - shared ran, share [$LRS_GUEST_SHARE]"
SH
chmod +x "$tmp"/order/tests/lab/*.t
LRS_ROOT=$tmp/order LRS_BUILD=$tmp/build-live LRS_NO_BOOST=1 LRS_WHERE=host LRS_LIVE_RUNNER=$tmp/fake-guest \
	LRS_SPIN_VERDICT="untraced: a stand-in verdict" LRS_KCORE_VERDICT="readable: a stand-in" \
	"$LRS_ROOT/tests/run-all.sh" </dev/null >"$tmp/order.out" 2>&1
sed 's/^/#   /' "$tmp/order.out"
tap_check "runner: a lab test marked '# guest: shared' is told so, the others not" \
	bash -c 'grep -qx "ok - shared ran, share \[1\]" "$1" && grep -qx "ok - alone ran, share \[\]" "$1" &&
		grep -qx "4 passed, 0 failed, 0 skipped" "$1"' _ "$tmp/order.out"
tap_check "runner: the shared lab test, then the live guest's tests, then the lab test alone" \
	bash -c 'a=$(grep -n "^== tests/lab/b-shared.t" "$1" | cut -d: -f1); b=$(grep -n "^== tests/x/g-live.t (in the lab guest)" "$1" | cut -d: -f1);
		c=$(grep -n "^== tests/lab/a-alone.t" "$1" | cut -d: -f1); [ -n "$a" ] && [ -n "$b" ] && [ -n "$c" ] && [ "$a" -lt "$b" ] && [ "$b" -lt "$c" ]' _ "$tmp/order.out"

# The runner's cpu cgroup (lrs-test-run-PID, root only): gone at its end, also when a test
# left a process running in it (ended there: gone, or a zombie its new parent has yet to reap); and the empty one of a run killed before its
# trap (its PID no runner now) removed when the next run starts.
cpu_root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ {print $2; exit}' /proc/mounts)
[ -n "$cpu_root" ] || { cpu_root=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
	grep -qw cpu "$cpu_root/cgroup.subtree_control" 2>/dev/null || cpu_root=; }
if [ "$(id -u)" = 0 ] && [ -n "$cpu_root" ]; then
	sleep 0 & dead=$!; wait "$dead"	# a PID that ran no runner and is gone
	stale=$cpu_root/lrs-test-run-$dead
	mkdir "$stale"
	before=$(ls -d "$cpu_root"/lrs-test-run-* | grep -vxF "$stale")
	mkdir -p "$tmp/cg/tests/x"
	cat >"$tmp/cg/tests/x/leaves.t" <<SH
#!/usr/bin/env bash
echo "1..1"
setsid sleep 600 </dev/null >/dev/null 2>&1 &
echo \$! >"$tmp/cg.left"
echo "ok - leaves a process in \$(grep -E ':cpu(,|:|$)|^0::' /proc/self/cgroup | head -1)"
SH
	chmod +x "$tmp/cg/tests/x/leaves.t"
	LRS_ROOT=$tmp/cg LRS_BUILD=$tmp/build-live LRS_WHERE=host \
		LRS_SPIN_VERDICT="traced: a stand-in verdict" LRS_KCORE_VERDICT="readable: a stand-in" \
		"$LRS_ROOT/tests/run-all.sh" </dev/null >"$tmp/cg.out" 2>&1
	sed 's/^/#   /' "$tmp/cg.out"
	after=$(ls -d "$cpu_root"/lrs-test-run-* 2>/dev/null)
	left=$(cat "$tmp/cg.left" 2>/dev/null)
	tap_check "runner: its test ran in a cgroup of its own ($(grep -o 'lrs-test-run-[0-9]*' "$tmp/cg.out" | head -1))" \
		grep -q "^ok - leaves a process in .*/lrs-test-run-[0-9]" "$tmp/cg.out"
	tap_check "runner: at its end its cgroup is gone, the process a test left there ended (before: $(echo $before); after: $(echo $after); left: ${left:-none} $(ps -o stat=,args= -p "${left:-0}"))" \
		bash -c '[ "$1" = "$2" ] && [ -n "$3" ] && ! ps -o stat= -p "$3" | grep -qv "^Z"' _ "$before" "$(grep -vxF "$stale" <<<"$after")" "$left"
	tap_check "runner: the empty cgroup of a killed run ($stale) removed at the start" [ ! -d "$stale" ]
else
	tap_skip_each "not root, or no cpu controller: no cgroup of its own" \
		"runner: its test ran in a cgroup of its own" "runner: at its end its cgroup is gone" \
		"runner: the empty cgroup of a killed run removed at the start"
fi
