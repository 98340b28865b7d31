#!/usr/bin/env bash
# make bench: holder tracking's overhead on the readtwice workload: workload MB/s with
# `report` attached without and with --holders, alternating A/B runs, medians and ranges
# (budget: ratio >= 0.98). The estimate's accuracy: holders_accuracy.sh.
# Run alone: two cores, no builds next to it.
set -u
bin=${LRS_BIN:-$(cd "$(dirname "$0")/../.." && pwd)/build/lruscope}
runs=${LRS_HOLDERS_RUNS:-3} secs=${LRS_HOLDERS_SECS:-8}
[ "$(id -u)" = 0 ] || { echo "holders_bench: needs root"; exit 0; }
tmp=$(mktemp -d /tmp/lrs-test-hbench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
one() {	# $1: extra report flag; prints MB/s
	local pfx=lrs-test-hb$$-$RANDOM- rpid mbs
	"$bin" report $1 -d $((secs + 2)) -f json >/dev/null 2>&1 &
	rpid=$!
	sleep 1
	mbs=$("$bin" workload --layout shared --readers 4 --duration "$secs" --size 512m \
		--limit 48m --cpu-shares 8192 --prefix "$pfx" 2>/dev/null | tail -n 1 |
		/usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["mb_per_s"])')
	wait "$rpid"
	echo "${mbs:-0}"
}
for i in $(seq 1 "$runs"); do
	echo "off $(one '')" >>"$tmp/r"
	echo "on $(one --holders)" >>"$tmp/r"
done
/usr/bin/python3 - "$tmp/r" <<'PY'
import statistics, sys
r = {'off': [], 'on': []}
for line in open(sys.argv[1]):
    k, v = line.split()
    r[k].append(float(v))
m = {k: statistics.median(v) for k, v in r.items()}
for k in ('off', 'on'):
    print(f"holders {k:3}: median {m[k]:.1f} MB/s, range {min(r[k]):.1f}-{max(r[k]):.1f} ({len(r[k])} runs)")
ratio = m['on'] / m['off'] if m['off'] else 0
print(f"holders overhead: throughput ratio on/off {ratio:.3f} (budget >= 0.98)")
PY
