#!/usr/bin/env bash
# Seed corpus for the recording fuzzer: small synthetic recordings (plain, gzip,
# zstd), a cut-short one, a bare snapshot, and a real recording when root.
set -eu
out=$1
root=${LRS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${LRS_BUILD:-$root/build}
mkdir -p "$out"
bench=$build/tests/bench/bench_recording
for ext in jsonl jsonl.gz jsonl.zst; do
	"$bench" write "$out/synth-3x1.$ext" 3 1 4
	"$bench" write "$out/synth-6x2.$ext" 6 2 3 noisy
done
head -c 3000 "$out/synth-6x2.jsonl" > "$out/cut-short.jsonl"
head -c 700 "$out/synth-6x2.jsonl.zst" > "$out/cut-short.zst"
sed -n 2p "$out/synth-3x1.jsonl" > "$out/bare.json"
if [ "$(id -u)" = 0 ] && [ -x "$build/lruscope" ] && [ ! -s "$out/real.jsonl" ]; then
	# a real recording is the best seed; not fatal when BPF cannot load here
	"$build/lruscope" record -q --force -o "$out/real.jsonl" -d 2 2>/dev/null || rm -f "$out/real.jsonl"
	# libFuzzer's -max_len keeps only a prefix of big seeds: a small one too
	[ -s "$out/real.jsonl" ] && head -n 3 "$out/real.jsonl" | head -c 60000 > "$out/real-head.jsonl" || true
fi
exit 0
