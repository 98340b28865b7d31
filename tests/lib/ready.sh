# lrs_ready, for the host's tests (tests/lib.sh) and the lab guests' busybox sh alike.
# shellcheck shell=sh

# lrs_ready FILE PID [SECS]: wait up to SECS seconds (default 600: loading and verifying
# takes minutes under TCG) until FILE, lruscope's --ready-file, names PID: lruscope
# (process PID) has then attached every hook and counts from here. Not merely "not empty":
# an earlier run's file that PID has not emptied yet names that run. 1 if PID ended first
# or time ran out.
lrs_ready() {
	local file=$1 pid=$2 polls=$((${3:-600} * 10)) i
	for i in $(seq 1 "$polls"); do
		[ "$(cat "$file" 2>/dev/null)" = "$pid" ] && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	[ "$(cat "$file" 2>/dev/null)" = "$pid" ]
}
