#!/usr/bin/env bash
# time-limit: 900  (a whole build with the sanitizers, on two cores)
# The unit tests under AddressSanitizer and UBSan: `make SAN=1 unit` builds every one into
# build/san/ and runs it (mk/san-unit.sh); a sanitizer report, a leak or a failed test fails
# that binary's check. One check for the build, one per unit test binary.
set -u
. "$(dirname "$0")/../lib.sh"
units=$(ls "$LRS_ROOT"/tests/unit/test_*.c | sed 's|.*/||; s|\.c$||')
tap_plan $((1 + $(echo "$units" | wc -l)))
out=$(mktemp /tmp/lrs-test-san.XXXXXX)
trap 'rm -f "$out"' EXIT
make --no-print-directory -C "$LRS_ROOT" SAN=1 unit >"$out" 2>&1
rc=$?
grep -E '^  (ok|FAILED) |^san-unit:' "$out" | sed 's/^/# /'
tap_check "san: make SAN=1 unit built the sanitized tests and ran them (exit $rc: $(grep -m1 -E 'error|FAILED' "$out" | cut -c1-200))" \
	test "$rc" -eq 0
for u in $units; do
	tap_check "san: $u, sanitized: no report, no leak, every test passed" grep -qE "^  ok      $u \\(" "$out"
done
