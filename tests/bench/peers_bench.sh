#!/usr/bin/env bash
# lruscope against its peers on one load, in one run (docs/performance.md):
#  - BPF run time per traced contention (begin + end) and share of the machine's busy CPU,
#    lruscope and a bpftrace script that sums wait per lock and keeps one histogram, both
#    attached to the same contentions at the same time
#  - readtwice throughput with lruscope, with 'perf lock record -a', with bpftrace, over
#    none: rounds in rotating order, median and spread
# Mounts tracefs if the kernel has not (bpftrace and perf read tracepoint formats there)
# and unmounts what it mounted. A measurement, not a test: run it alone.
set -u
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" = 0 ] || { echo "peers_bench: needs root"; exit 1; }
for t in bpftrace perf; do
	command -v "$t" >/dev/null || { echo "peers_bench: $t is missing: sudo make deps"; exit 1; }
done
tmp=$(mktemp -d /var/tmp/lrs-test-peers.XXXXXX)
mounted=""
if ! [ -e /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing && mounted=/sys/kernel/tracing
fi
cleanup() {
	lrs_cleanup
	[ -n "$mounted" ] && umount "$mounted"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
PYTHONPATH=$LRS_ROOT/tests/lib /usr/bin/python3 "$LRS_ROOT/tests/bench/peers_bench.py" "$LRS_BIN" "$tmp" \
	"${LRS_BENCH_ROUNDS:-4}"
