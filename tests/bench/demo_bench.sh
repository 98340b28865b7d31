#!/usr/bin/env bash
# make bench: the demo's ratios at its defaults (lruscope demo --json). A
# measurement, not a test: it prints and exits 0 unless the demo failed.
# Measure alone: a build or test next to it on a small machine moves the
# numbers (the readers get cpu.shares 8192 to soften that, not to remove it).
# Target: lruvec wait shared/isolated >= 10x on a 2-core machine.
set -u
root=${LRS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=${LRS_BIN:-$root/build/lruscope}
out=$(mktemp /tmp/lrs-bench-demo.XXXXXX)
trap 'rm -f "$out"' EXIT

if [ "$(id -u)" != 0 ]; then
	echo "demo_bench: needs root (sudo make bench); skipped"
	exit 0
fi
load=$(cut -d' ' -f1 /proc/loadavg)
echo "demo_bench: lruscope demo --json at the defaults ($(nproc) CPUs, load average $load); about a minute"
awk -v l="$load" -v n="$(nproc)" 'BEGIN { exit !(l > n / 2) }' &&
	echo "demo_bench: note: the machine is busy (load $load): ratios will be noisier"
if ! "$bin" demo --json "$@" >"$out"; then
	echo "demo_bench: the demo failed"
	exit 1
fi
/usr/bin/python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
lay = {l["layout"]: l for l in d["layouts"]}
sh, iso, r = lay["shared"], lay["isolated"], d["ratio"]
def rng(l, k, scale=1.0, fmt="%.0f"):
    return (fmt + " (" + fmt + "-" + fmt + ")") % (l[k] / scale, l[k + "_min"] / scale, l[k + "_max"] / scale)
print("demo_bench: %d readers, %d runs per layout" % (sh["readers"], sh["runs"]))
print("demo_bench: lruvec wait ms   shared %s   isolated %s" %
      (rng(sh, "lruvec_wait_ns", 1e6, "%.1f"), rng(iso, "lruvec_wait_ns", 1e6, "%.1f")))
print("demo_bench: throughput MB/s  shared %s   isolated %s" % (rng(sh, "mb_per_s"), rng(iso, "mb_per_s")))
w = r["lruvec_wait"]
ws = "inf (isolated never waited)" if w is None else "%.1fx" % w
print("demo_bench: lruvec wait shared/isolated %s: %s the 10x target" %
      (ws, "meets" if w is None or w >= 10 else "BELOW"))
print("demo_bench: throughput isolated/shared %.2fx (range %.2f-%.2f): %s noise" %
      (r["mb_per_s"], r["mb_per_s_min"], r["mb_per_s_max"], d["noise"]["mb_per_s"]))
PY
