#!/usr/bin/env bash
# Runs every test of `make check` (see tests/PROTOCOL.md) and ends with
# "N passed, N failed, N skipped". Exits 1 if anything failed.
set -u
root=${LRS_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
build=${LRS_BUILD:-$root/build}
export LRS_ROOT=$root LRS_BUILD=$build LRS_BIN=${LRS_BIN:-$build/lruscope}
export LRS_CACHE=${LRS_CACHE:-/var/cache/lruscope}
only=${1:-}	# optional: a substring of the test paths to run

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
if [ "$(id -u)" = 0 ]; then
	cpu_v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ {print $2; exit}' /proc/mounts)
	cpu_v2=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
	if [ -n "$cpu_v1" ] && mkdir "$cpu_v1/lrs-test-run-$$" 2>/dev/null; then
		boost=$cpu_v1/lrs-test-run-$$
		echo 32768 >"$boost/cpu.shares"
	elif [ -n "$cpu_v2" ] && grep -qw cpu "$cpu_v2/cgroup.subtree_control" 2>/dev/null &&
		mkdir "$cpu_v2/lrs-test-run-$$" 2>/dev/null; then
		boost=$cpu_v2/lrs-test-run-$$
		echo 10000 >"$boost/cpu.weight"
	fi
fi
trap 'rm -rf "$log"; [ -z "$boost" ] || rmdir "$boost" 2>/dev/null || echo "run-all: $boost still holds tasks" >&2' EXIT
run_test() {
	if [ -n "$boost" ]; then
		bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$boost" "$@"
	else
		"$@"
	fi
}

# cmocka binaries: count their summary lines.
for bin in "$build"/tests/unit/test_*; do
	[ -x "$bin" ] || continue
	case "$bin" in *"$only"*) ;; *) continue ;; esac
	name=${bin##*/}
	printf '%s== %s%s\n' "$bold" "$name" "$off"
	out="$log/$name.out"
	"$bin" >"$out" 2>&1
	rc=$?
	cat "$out"
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')
	s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	[ "$f" -gt 0 ] && failures+=("$name")
done

# Scripted tests: TAP-style lines.
while IFS= read -r t; do
	case "$t" in *"$only"*) ;; *) continue ;; esac
	rel=${t#"$root"/}
	printf '%s== %s%s\n' "$bold" "$rel" "$off"
	out="$log/$(echo "$rel" | tr / _).out"
	start=$(date +%s)
	run_test "$t" </dev/null 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	secs=$(( $(date +%s) - start ))
	p=$(grep -cE '^ok( |$)' "$out" | head -1)
	s=$(grep -cE '^ok .*# SKIP' "$out" | head -1)
	f=$(grep -cE '^not ok( |$)' "$out" | head -1)
	p=$((p - s))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $rel exited with status $rc"
		f=1
	fi
	printf '   (%s: %d passed, %d failed, %d skipped in %ds)\n' "$rel" "$p" "$f" "$s" "$secs"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	[ "$f" -gt 0 ] && failures+=("$rel")
done < <(find "$root/tests" -mindepth 2 -maxdepth 2 -name '*.t' -perm -u+x | sort)

echo
if [ ${#failures[@]} -gt 0 ]; then
	printf '%sfailed:%s %s\n' "$red" "$off" "${failures[*]}"
fi
colour=$green
[ "$failed" -gt 0 ] && colour=$red
[ "$failed" -eq 0 ] && [ "$skipped" -gt 0 ] && colour=$yellow
printf '%s%d passed, %d failed, %d skipped%s\n' "$colour" "$passed" "$failed" "$skipped" "$off"
[ "$failed" -eq 0 ]
