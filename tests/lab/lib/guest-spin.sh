#!/bin/busybox sh
# PID 1 of the spin-source lab guests (tests/lab/spin.t). A readtwice load, every reader in one
# memcg (lrs-test-spin-shared) pinned round the CPUs, and lruscope's two spinlock sources on it:
#   lrs_phase=compare: `report --spin-source slowpath` and, inside its window, `report
#     --spin-source tracepoint` (both ended by SIGINT, so the tracepoint's window lies within
#     the slowpath's): /slowpath.json, /tracepoint.json; then `report` with the default
#     source: /auto.json. Where lab-bench packs /lrs-floor, its floor programs run on the same
#     hooks through both windows (LRS floor lines). With lrs_floor_last=1 the tracepoint's
#     report starts first, then the slowpath's, then the floor: the windows then overlap
#     without one lying within the other.
#   lrs_phase=node: the load in one memcg per container (lrs-test-spin-c*) instead, and
#     `report -f json` (/node.json) and a text report (/node.txt) over it: on 5.10 every
#     container waits on its node's one pgdat->lru_lock.
#   lrs_phase=stress: `record --spin-source slowpath -i 10` for lrs_dur seconds under every
#     reader the guest can run: /stress.rec.
# Kernel command line words: lrs_phase=, lrs_dur=SECS (default 10), lrs_readers=N (default 2 per
# CPU), lrs_floor_last=1. Results go to the ext4 data disk, read by the host with debugfs after
# the guest stops.
. /guest-lib.sh	# lrs_ready
lrs_guest_boot
phase=compare dur=10 readers= floor_last=
for w in $(cat /proc/cmdline); do
	case "$w" in
	lrs_phase=*) phase=${w#lrs_phase=} ;;
	lrs_floor_last=1) floor_last=1 ;;
	lrs_dur=*) dur=${w#lrs_dur=} ;;
	lrs_readers=*) readers=${w#lrs_readers=} ;;
	esac
done
echo "LRS kernel $(uname -r)"
echo "LRS cpu_flags $(grep -m1 -o ' hypervisor' /proc/cpuinfo | tr -d ' ')"
mount -t cgroup2 none /sys/fs/cgroup
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
lrs_guest_data_disk
ncpu=$(nproc)
[ -n "$readers" ] || readers=$((2 * ncpu))
layout=shared
[ "$phase" = node ] && layout=isolated
/lruscope workload --layout $layout --readers "$readers" --duration 0 --size 64m --limit 8m \
	--prefix lrs-test-spin- > /mnt/workload.out 2>&1 &
load=$!
for i in $(seq 1 60); do
	[ -n "$(cat /sys/fs/cgroup/lrs-test-spin-*/cgroup.procs 2>/dev/null)" ] && break
	sleep 0.5
done
sleep 1
n=0
for p in $(cat /sys/fs/cgroup/lrs-test-spin-*/cgroup.procs); do
	taskset -p -c $((n % ncpu)) $p > /dev/null && n=$((n + 1))
done
echo "LRS pinned $n on $ncpu"
# cost PID NAME: the run time and runs of lruscope PID's BPF programs (run-time stats are on)
cost() {
	ns=0 runs=0 misses=0
	for fd in /proc/$1/fdinfo/*; do
		grep -q '^prog_type:' "$fd" 2>/dev/null || continue
		ns=$((ns + $(awk '/^run_time_ns:/ {print $2}' "$fd")))
		runs=$((runs + $(awk '/^run_cnt:/ {print $2}' "$fd")))
		misses=$((misses + $(awk '/^recursion_misses:/ {print $2; f=1} END {if (!f) print 0}' "$fd")))
	done
	echo "LRS cost $2 $ns $runs $misses"
}
# stop PID NAME: SIGINT ends a report with what it measured
stop() {
	cost $1 $2
	kill -INT $1
	wait $1
	echo "LRS rc $2 $?"
}
# start_report SOURCE: report --spin-source SOURCE to /mnt/SOURCE.json (report: its PID), once
# its hooks are in
start_report() {
	/lruscope report -d 3600 -f json --spin-source $1 --ready-file /tmp/$1.ready \
		> /mnt/$1.json 2> /mnt/$1.err &
	report=$!
	lrs_ready /tmp/$1.ready $report || echo "LRS warn $1 report never attached"
	echo "LRS ready $1 $(cut -d' ' -f1 /proc/uptime)"
}
# start_floor: lab-bench's floor, where it packed one (floor: its PID)
start_floor() {
	[ -x /lrs-floor ] || return 0
	/lrs-floor /lrs-floor.bpf.o native_queued_spin_lock_slowpath > /mnt/floor.out 2>&1 &
	floor=$!
	for i in $(seq 1 100); do grep -q attached /mnt/floor.out && break; sleep 0.1; done
}
# heartbeat while the guest works: a stalled guest shows where in the host's timeout message
( while :; do sleep 20; echo "LRS hb $(cut -d' ' -f1 /proc/uptime) load $(cut -d' ' -f1 /proc/loadavg)"; done ) &
hb=$!
case "$phase" in
compare)
	# BPF run time per program, for the cost of each source on the same waits
	sysctl -w kernel.bpf_stats_enabled=1 > /dev/null || echo "LRS warn no BPF run-time stats"
	# lab-bench's floor (timestamp, delta, nothing else) on both sources' hooks, the same waits.
	# Of the programs on one hook, the one that runs first on each wait pays for what the
	# others then find warm: lab-bench attaches the floor first in some rounds and last in
	# the others (lrs_floor_last=1, the reports then in the reverse order too).
	floor=
	if [ -n "$floor_last" ]; then
		start_report tracepoint
		tp=$report
		start_report slowpath
		sp=$report
		start_floor
	else
		start_floor
		start_report slowpath
		sp=$report
		start_report tracepoint
		tp=$report
	fi
	echo "LRS window_start $(cut -d' ' -f1 /proc/uptime)"
	sleep "$dur"
	stop $tp tracepoint
	stop $sp slowpath
	if [ -n "$floor" ]; then
		kill -INT $floor
		wait $floor
		cat /mnt/floor.out
	fi
	/lruscope report -d 2 -f json > /mnt/auto.json 2> /mnt/auto.err
	echo "LRS rc auto $?"
	# what every view shows where the source is blind (the host replays it in its views)
	/lruscope record -o /mnt/tracepoint.jsonl -d 3 -q --spin-source tracepoint 2> /mnt/record.err
	echo "LRS rc record $?"
	;;
node)
	/lruscope report -d "$dur" -f json > /mnt/node.json 2> /mnt/node.err
	echo "LRS rc node $?"
	/lruscope report -d 3 > /mnt/node.txt 2>&1
	echo "LRS rc node_text $?"
	;;
stress)
	/lruscope record -o /mnt/stress.rec -i 10 -d "$dur" -q --spin-source slowpath 2> /mnt/stress.err
	echo "LRS rc stress $?"
	;;
esac
kill $hb
kill -TERM $load
wait $load
echo "LRS workload $(tail -n 1 /mnt/workload.out | head -c 300)"
dmesg | grep -i -E "lockup|rcu.*stall|bpf|BUG" | head -20 | sed 's/^/LRS kmsg /'
sync
umount /mnt
echo LRS-SPIN-DONE
poweroff -f
