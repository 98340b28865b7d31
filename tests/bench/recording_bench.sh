#!/usr/bin/env bash
# Recording size per hour at 1 s intervals, 100 memcgs x 2 nodes, from
# synthetic snapshots (constant rates, and jittered ones closer to life), in
# plain, gzip and zstd; the reader's speed; and, as root, a real recording of
# whatever this machine runs now, scaled to an hour. A measurement, not a test.
set -u
root=${LRS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${LRS_BUILD:-$root/build}
bin=${LRS_BIN:-$build/lruscope}
bench=$build/tests/bench/bench_recording
secs=${LRS_BENCH_RECORD_SECS:-3600}
dir=$(mktemp -d /tmp/lrs-bench-recording.XXXXXX)
trap 'rm -rf "$dir"' EXIT
[ -x "$bench" ] || make -C "$root" -s "$bench" >/dev/null

mb_per_hour() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.1f", b / 1e6 * 3600 / s }'; }

for kind in constant noisy; do
	for ext in jsonl jsonl.gz jsonl.zst; do
		f=$dir/$kind.$ext
		"$bench" write "$f" 100 2 "$secs" $([ $kind = noisy ] && echo noisy) || exit 1
		b=$(stat -c %s "$f")
		printf 'recording 100 memcgs x 2 nodes, 1 s, %s rates, %-5s: %s MB/hour (%s bytes for %s s)\n' \
			"$kind" "${ext#jsonl}" "$(mb_per_hour "$b" "$secs")" "$b" "$secs"
	done
done
for ext in jsonl jsonl.gz jsonl.zst; do
	printf 'reader, %-5s: ' "${ext#jsonl}"
	"$bench" read "$dir/noisy.$ext"
done
if [ "$(id -u)" = 0 ]; then
	# a real run: what this machine does now, 30 s, scaled to an hour
	if "$bin" record -q -o "$dir/real.jsonl.zst" -d 30 2>"$dir/real.err"; then
		b=$(stat -c %s "$dir/real.jsonl.zst")
		first=$(zstdcat "$dir/real.jsonl.zst" | sed -n 2p | zstd -9 -q -c | wc -c)
		n=$(zstdcat "$dir/real.jsonl.zst" | sed -n 2p | grep -o '"memcg_id":' | wc -l)
		printf 'real recording, %s lruvecs on this machine, zst: %s MB/hour (%s bytes in 30 s, first line %s)\n' \
			"$n" "$(mb_per_hour $((b - first)) 30)" "$b" "$first"
	else
		echo "real recording: skipped: $(head -c 200 "$dir/real.err")"
	fi
fi
