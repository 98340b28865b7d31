#!/usr/bin/env bash
# make bench: runs every bench binary in build/tests/bench/ (built from
# tests/bench/*.c) and prints their lines; budgets are in DESIGN.md. Exits
# non-zero if a bench did (a bench exits 1 when it is over its budget).
set -u
build=${LRS_BUILD:-$(cd "$(dirname "$0")/../.." && pwd)/build}
rc=0
for bin in "$build"/tests/bench/*; do
	[ -x "$bin" ] && [ -f "$bin" ] || continue
	"$bin" || { echo "bench: ${bin##*/} failed or is over budget"; rc=1; }
done
exit $rc
