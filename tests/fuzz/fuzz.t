#!/usr/bin/env bash
# The recording reader under libFuzzer (ASan + UBSan) for a bounded time:
# builds tests/fuzz/fuzz_recording.c, seeds a corpus from real and synthetic
# recordings into build/fuzz/, fails on any crash, leak or sanitizer report.
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 3
secs=${LRS_FUZZ_SECS:-30}
dir=$LRS_BUILD/fuzz
log=$(mktemp /tmp/lrs-test-fuzz.XXXXXX)
trap 'rm -f "$log"' EXIT

if ! command -v clang >/dev/null; then
	tap_fail "fuzz: clang is missing (make deps)"
	exit 1
fi
if make -C "$LRS_ROOT" -s BUILD="$LRS_BUILD" fuzz-build fuzz-corpus >"$log" 2>&1; then
	tap_ok "fuzz: target builds with -fsanitize=fuzzer,address,undefined; corpus seeded ($(ls "$dir/corpus" | wc -l) files)"
else
	tap_fail "fuzz: build or seed failed: $(tail -n 5 "$log" | tr '\n' ' ')"
	exit 1
fi
cd "$dir" || exit 1
# inputs that once crashed the reader: each must now be read without a report
regressions=("$LRS_ROOT"/tests/fuzz/regressions/*)
if ./fuzz_recording "${regressions[@]}" >"$log" 2>&1; then
	tap_ok "fuzz: ${#regressions[@]} past crash inputs read cleanly"
else
	tap_fail "fuzz: a past crash input fails again: $(grep -m1 -E 'ERROR|runtime error' "$log")"
fi
# a copy of the corpus: the run adds to it, the seeds stay as they are
rm -rf run-corpus && cp -r corpus run-corpus
if ./fuzz_recording -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 run-corpus >"$log" 2>&1; then
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	tap_ok "fuzz: ${secs}s, ${runs:-?} inputs, no crash"
else
	tap_fail "fuzz: crash found (input saved in $dir as crash-*): $(grep -m1 -E 'ERROR|SUMMARY|runtime error' "$log")"
	grep -A30 -m1 -E 'ERROR|runtime error' "$log" | head -40 >&2
	exit 1
fi
rm -rf run-corpus
