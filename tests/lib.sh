# Helpers for scripted tests (source it). See tests/PROTOCOL.md.
# shellcheck shell=bash
LRS_ROOT=${LRS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
LRS_BUILD=${LRS_BUILD:-$LRS_ROOT/build}
LRS_BIN=${LRS_BIN:-$LRS_BUILD/lruscope}

tap_ok()   { echo "ok - $*"; }
tap_fail() { echo "not ok - $*"; }
tap_skip() { local name=$1; shift; echo "ok - $name # SKIP $*"; }
# tap_check NAME COMMAND...: ok if the command succeeds.
tap_check() {
	local name=$1; shift
	if "$@"; then tap_ok "$name"; else tap_fail "$name"; fi
}

# The memory cgroup hierarchy: v2 if the unified mount has the memory
# controller, else the v1 memory mount. Prints "v1 PATH" or "v2 PATH".
lrs_memcg_root() {
	local m
	m=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
	if [ -n "$m" ] && grep -qw memory "$m/cgroup.controllers" 2>/dev/null; then
		echo "v2 $m"; return 0
	fi
	m=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ {print $2; exit}' /proc/mounts)
	[ -n "$m" ] && { echo "v1 $m"; return 0; }
	return 1
}

# Processes and cgroups a test created, removed by lrs_cleanup (trap it).
LRS_PIDS=()
LRS_CGROUPS=()
lrs_track_pid() { LRS_PIDS+=("$1"); }
lrs_track_cgroup() { LRS_CGROUPS+=("$1"); }
lrs_cleanup() {
	local pid cg i
	for pid in "${LRS_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null; done
	for pid in "${LRS_PIDS[@]}"; do
		for i in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	# children first: reverse order of creation
	for ((i = ${#LRS_CGROUPS[@]} - 1; i >= 0; i--)); do
		cg=${LRS_CGROUPS[i]}
		case "${cg##*/}" in lrs-test-*|lrs-demo-*) ;; *) continue ;; esac
		[ -d "$cg" ] || continue
		for i2 in 1 2 3 4 5 6 7 8 9 10; do rmdir "$cg" 2>/dev/null && break; sleep 0.3; done
	done
}

# Root is not a kernel feature: a test that needs it fails without it.
need_root() {
	[ "$(id -u)" = 0 ] || { tap_fail "$1: needs root (run: sudo make check)"; exit 1; }
}
