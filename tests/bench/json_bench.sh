#!/usr/bin/env bash
# Our JSON parser (model/json/json_reader.c) against jansson and json-c on the
# lines of synthetic recordings, 100 and 1,000 memcgs x 2 nodes, jittered
# rates, and, as root, a real one of this machine: snapshots/s, MB/s and peak
# RSS of each, parse alone, with a visit of every value, and the whole decode.
# The budget: ours stays at least twice the faster library on the synthetic
# recordings (below that, the library should replace it). A measurement.
set -u
root=${LRS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${LRS_BUILD:-$root/build}
bin=${LRS_BIN:-$build/lruscope}
bench=$build/tests/bench/bench_json
gen=$build/tests/bench/bench_recording
secs=${LRS_BENCH_JSON_SECS:-600}
dir=$(mktemp -d /tmp/lrs-bench-json.XXXXXX)
trap 'rm -rf "$dir"' EXIT
[ -x "$bench" ] && [ -x "$gen" ] || make -C "$root" -s "$bench" "$gen" >/dev/null

"$gen" write "$dir/100x2.jsonl" 100 2 "$secs" noisy || exit 1
"$gen" write "$dir/1000x2.jsonl" 1000 2 $((secs / 10)) noisy || exit 1
"$bench" "$dir/100x2.jsonl" "$dir/1000x2.jsonl" | tee "$dir/out" || exit 1
if [ "$(id -u)" = 0 ]; then
	# what this machine does now, 20 s at 0.1 s intervals
	if "$bin" record -q -i 0.1 -d 20 -o "$dir/real.jsonl" 2>"$dir/real.err"; then
		"$bench" "$dir/real.jsonl" || exit 1
	else
		echo "real recording: skipped: $(head -c 200 "$dir/real.err")"
	fi
fi
slow=$(awk '/^  ours \/ / && $NF + 0 < 2' "$dir/out")
if [ -n "$slow" ]; then
	echo "json: our parser is no longer twice the faster library:$slow"
	exit 1
fi
