# lrs_attached, for the host's tests (tests/lib.sh) and the lab guests' busybox sh alike.
# shellcheck shell=sh

# lrs_attached PID [SECS [STEADY]]: wait up to SECS seconds (default 600: loading and
# verifying takes minutes under TCG) until process PID holds a BPF link other than an
# iterator's and none came or went for STEADY seconds (default 5). lruscope loads every
# object before it attaches any, so its lock programs are then in and its collection (a
# report's window) has begun. 1 if PID ended first or time ran out.
lrs_attached() {
	local pid=$1 polls=$((${2:-600} * 4)) steady=$((${3:-5} * 4)) last=-1 same=0 now hooks i
	for i in $(seq 1 "$polls"); do
		kill -0 "$pid" 2>/dev/null || return 1
		# one link_type line per link the process holds: raw_tracepoint, tracing, iter ...
		now=$(cat /proc/"$pid"/fdinfo/* 2>/dev/null | grep -c '^link_type:')
		hooks=$(cat /proc/"$pid"/fdinfo/* 2>/dev/null | grep '^link_type:' | grep -vc 'iter$')
		if [ "$hooks" -gt 0 ] && [ "$now" = "$last" ]; then
			same=$((same + 1))
		else
			same=0
		fi
		[ "$hooks" -gt 0 ] && [ "$same" -ge "$steady" ] && return 0
		last=$now
		sleep 0.25
	done
	return 1
}
