#!/usr/bin/env bash
# make bench: holder tracking's overhead on the readtwice workload: its MB/s with `report`
# attached without and with --holders, rounds in alternating order, the median of the
# rounds' ratios and their range (budget: >= 0.98), and what each BPF program costs (the
# kernel's run-time accounting), the sched_switch program --holders adds among them. The
# estimate's accuracy: holders_accuracy.sh. Run alone: two cores, no builds next to it.
set -u
bin=${LRS_BIN:-$(cd "$(dirname "$0")/../.." && pwd)/build/lruscope}
[ "$(id -u)" = 0 ] || { echo "holders_bench: needs root"; exit 0; }
exec /usr/bin/python3 "$(dirname "$0")/holders_bench.py" "$bin" "${LRS_HOLDERS_RUNS:-4}" "${LRS_HOLDERS_SECS:-8}"
