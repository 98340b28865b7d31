#!/usr/bin/env bash
# The test runner's own contract: a test that hangs costs one failure, not the
# whole run. It is ended after its time limit, with where it waited written
# down; what it started in the background ends with it; its own exit trap
# runs; the runner goes on to the next test and counts everything.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/lrs-test-runner.XXXXXX)
# d-leaves.t's leftover is ended here, also when a check fails
trap 'kill "$(cat "$tmp/d.left" 2>/dev/null)" 2>/dev/null; rm -rf "$tmp"' EXIT

# a tree of three tests for run-all.sh: one hangs in a wait on a background
# child, one hangs with a longer limit of its own, one passes
mkdir -p "$tmp/root/tests/x" "$tmp/build"
cat >"$tmp/root/tests/x/a-hangs.t" <<SH
#!/usr/bin/env bash
trap 'echo trap-ran >"$tmp/a.trap"' EXIT
trap 'exit 130' TERM
echo "ok - before the hang"
sleep 300 & echo \$! >"$tmp/a.child"
wait
SH
cat >"$tmp/root/tests/x/b-limit.t" <<SH
#!/usr/bin/env bash
# time-limit: 4  (its own)
echo "ok - b starts"
sleep 300
SH
cat >"$tmp/root/tests/x/c-passes.t" <<'SH'
#!/usr/bin/env bash
echo "ok - c passes"
SH
# one that leaves a process behind, out of its session, holding its output
cat >"$tmp/root/tests/x/d-leaves.t" <<SH
#!/usr/bin/env bash
setsid sleep 600 &
echo \$! >"$tmp/d.left"
echo "ok - d leaves a process behind"
SH
# one whose check fails after what it measured, one that exits non-zero without a "not ok"
cat >"$tmp/root/tests/x/e-fails.t" <<'SH'
#!/usr/bin/env bash
echo "# measured before a passing check"
echo "ok [3] a helper's own line, not a check: not counted"
echo "ok - e passes first"
echo "# measured: 3 of 4"
echo "# threshold: 4"
echo "not ok - e second: 3 < 4"
SH
cat >"$tmp/root/tests/x/f-exits.t" <<'SH'
#!/usr/bin/env bash
echo "ok - f passes, then exits 3"
exit 3
SH
chmod +x "$tmp"/root/tests/x/*.t

start=$(date +%s)
LRS_ROOT=$tmp/root LRS_BUILD=$tmp/build LRS_TEST_LIMIT=2 LRS_NO_BOOST=1 \
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
tap_check "runner: the closing line counts it all (only 'ok - ' lines pass)" \
	grep -q '^6 passed, 4 failed, 0 skipped$' "$tmp/out"
# the end of the run repeats each failed check under its test, after what it measured
sed -n '/^failed: /,$p' "$tmp/out" >"$tmp/summary"
tap_check "runner: the run's end names each failed test" \
	grep -qx 'failed: tests/x/a-hangs.t tests/x/b-limit.t tests/x/e-fails.t tests/x/f-exits.t' "$tmp/summary"
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
mkdir -p "$tmp/live/tests/x"
cat >"$tmp/live/tests/x/g-live.t" <<'SH'
#!/usr/bin/env bash
# live: traced
echo "ok - g ran where waits are traced ($LRS_WHERE)"
echo "ok - g second"
SH
cat >"$tmp/live/tests/x/h-here.t" <<'SH'
#!/usr/bin/env bash
echo "ok - h ran here ($LRS_WHERE)"
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
LRS_ROOT=$tmp/live LRS_BUILD=$tmp/build LRS_NO_BOOST=1 LRS_WHERE=host LRS_LIVE_RUNNER=$tmp/fake-guest \
	LRS_SPIN_VERDICT="untraced: a stand-in verdict" "$LRS_ROOT/tests/run-all.sh" </dev/null >"$tmp/untraced" 2>&1
LRS_ROOT=$tmp/live LRS_BUILD=$tmp/build LRS_NO_BOOST=1 LRS_WHERE=host LRS_LIVE_RUNNER=$tmp/fake-guest \
	LRS_SPIN_VERDICT="traced: a stand-in verdict" "$LRS_ROOT/tests/run-all.sh" </dev/null >"$tmp/traced" 2>&1
sed 's/^/#   /' "$tmp/untraced"
tap_check "runner: the verdict and its evidence are printed at the top of the run" \
	bash -c 'head -n 1 "$1" | grep -q "spinlock waits: untraced: a stand-in verdict"' _ "$tmp/untraced"
tap_check "runner: untraced: the live test ran in the guest, the other one here" \
	bash -c 'grep -q "^ok - g ran where waits are traced (guest)" "$1" && grep -q "^ok - h ran here (host)" "$1" &&
		! grep -q "g ran where waits are traced (host)" "$1"' _ "$tmp/untraced"
tap_check "runner: untraced: it is counted as any test, and named as run in the lab guest" \
	bash -c 'grep -qF "(tests/x/g-live.t, in the lab guest: 2 passed, 0 failed, 0 skipped" "$1" &&
		grep -qx "3 passed, 0 failed, 0 skipped" "$1" && grep -qx "  tests/x/g-live.t: 2 passed, 0 failed, 0 skipped" "$1"' _ "$tmp/untraced"
tap_check "runner: traced: every test ran here, and the run's end says so" \
	bash -c 'grep -q "^ok - g ran where waits are traced (host)" "$1" && grep -qx "3 passed, 0 failed, 0 skipped" "$1" &&
		grep -qx "tests that need traced lruvec-lock waits ran on this host" "$1"' _ "$tmp/traced"
