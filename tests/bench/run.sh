#!/usr/bin/env bash
# make bench: the budgets of docs/performance.md, measured as ratios within one run.
# Runs every bench program built from tests/bench/*.c, then every
# tests/bench/*.sh but this one, then the lab's drgn walk bench. Benchmarks
# are measurements, not tests: run them alone (two cores; no build next to them).
set -u
root=${LRS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${LRS_BUILD:-$root/build}
export LRS_ROOT=$root LRS_BUILD=$build LRS_BIN=${LRS_BIN:-$build/lruscope}
rc=0
echo "== lruscope bench on $(uname -r), $(nproc) cores ($(date -u +%FT%TZ))"
for bin in "$build"/tests/bench/*; do
	[ -x "$bin" ] && [ -f "$bin" ] || continue
	echo "-- ${bin##*/}"
	"$bin" || { echo "bench: ${bin##*/} failed or is over budget"; rc=1; }
done
for sh in "$root"/tests/bench/*.sh; do
	[ "${sh##*/}" = run.sh ] && continue
	[ -x "$sh" ] || continue
	echo "-- ${sh##*/}"
	"$sh" || { echo "bench: ${sh##*/} failed or is over budget"; rc=1; }
done
echo "-- lab-bench (drgn walk on the lab vmcore)"
make -C "$root" --no-print-directory lab-bench || { echo "bench: lab-bench failed"; rc=1; }
exit $rc
