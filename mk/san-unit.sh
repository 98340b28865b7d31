#!/bin/sh
# san-unit.sh BIN...: runs the cmocka unit tests built with SAN=1 (make SAN=1 unit).
# A sanitizer report stops its binary (halt_on_error, and -fno-sanitize-recover
# at build time) and fails the run, as does a failed or missing test. Prints each
# binary's result, the output of those that failed, and a last line
# "san-unit: N passed, N failed" (binaries). Exits 1 if any failed.
set -u
ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export ASAN_OPTIONS UBSAN_OPTIONS
out=$(mktemp /tmp/lrs-san-unit.XXXXXX)
trap 'rm -f "$out"' EXIT
passed=0 failed=0
for bin in "$@"; do
	name=${bin##*/}
	"$bin" >"$out" 2>&1
	rc=$?
	tests=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | awk '{s += $1} END {print s + 0}')
	planned=$(sed -n 's/^\[==========\] Running \([0-9]*\) test.*/\1/p' "$out" | awk '{s += $1} END {print s + 0}')
	why=""
	if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$out"; then
		why="sanitizer report"
	elif [ "$rc" -ne 0 ]; then
		why="exit $rc"
	elif [ "$planned" -eq 0 ] || [ "$tests" -ne "$planned" ]; then
		why="$tests of $planned tests passed"
	fi
	if [ -z "$why" ]; then
		printf '  ok      %s (%s tests)\n' "$name" "$tests"
		passed=$((passed + 1))
	else
		printf '  FAILED  %s: %s\n' "$name" "$why"
		sed 's/^/    /' "$out" | tail -n 80
		failed=$((failed + 1))
	fi
done
echo "san-unit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
