#!/bin/busybox sh
# PID 1 of the per-node attribution lab guest (tests/lab/nodes.t): lruscope live on 6.1 with
# two NUMA nodes. One memcg's readers run only on node 1's CPUs, another's only on node 0's
# (taskset on the workload, so every reader and every page it reads stays on that node);
# `lruscope report -f json` over them, and each memcg's memory.numa_stat as the guest sees
# it, on the ext4 data disk (the host reads them with debugfs after the guest stops).
# Kernel command line words: lrs_cg=v1|v2 (default v2: the memory controller on cgroup2,
# booted with cgroup_no_v1=all; v1: on a v1 hierarchy, cgroup2 mounted beside it without
# memory, as many distributions did), lrs_dur=SECS (report length, default 10).
. /guest-lib.sh
lrs_guest_boot
cg=v2; dur=10
for w in $(cat /proc/cmdline); do
	case "$w" in
	lrs_cg=*) cg=${w#lrs_cg=} ;;
	lrs_dur=*) dur=${w#lrs_dur=} ;;
	esac
done
echo "LRS kernel $(uname -r)"
if [ "$cg" = v1 ]; then
	mount -t tmpfs cgroup /sys/fs/cgroup
	mkdir -p /sys/fs/cgroup/memory /sys/fs/cgroup/unified
	mount -t cgroup -o memory memory /sys/fs/cgroup/memory
	mount -t cgroup2 none /sys/fs/cgroup/unified
	R=/sys/fs/cgroup/memory
else
	mount -t cgroup2 none /sys/fs/cgroup
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control
	R=/sys/fs/cgroup
fi
# what the host asserts the mode on: the cgroup file systems mounted, v1 hierarchies by name
echo "LRS mode $cg $(awk '$3 ~ /^cgroup/ {printf "%s:%s ", $3, $2}' /proc/mounts)"
mount -t ext4 /dev/nvme0n1 /mnt || echo "LRS warn mount data disk failed"
export LRS_WORKDIR=/mnt HOME=/tmp
cpus0=$(cat /sys/devices/system/node/node0/cpulist)
cpus1=$(cat /sys/devices/system/node/node1/cpulist)
echo "LRS node_cpus 0 $cpus0"
echo "LRS node_cpus 1 $cpus1"
# one memcg per node; a tight limit keeps reclaim (and the lruvec lock) busy. They read until
# stopped: loading the collector's BPF takes from 2 s to a minute in this guest.
pids=
for n in 1 0; do
	eval cpus=\$cpus$n
	taskset -c "$cpus" /lruscope workload --layout shared --readers 4 --duration 0 \
		--size 48m --limit 8m --prefix lrs-test-node$n- > /mnt/node$n.out 2>&1 &
	pids="$pids $!"
done
for i in $(seq 1 40); do
	[ -s $R/lrs-test-node1-shared/cgroup.procs ] && [ -s $R/lrs-test-node0-shared/cgroup.procs ] &&
		break
	sleep 0.5
done
sleep 2
# contended N: the report in /mnt/nodes.json counts waits on memcg lrs-test-nodeN-shared's
# lruvec on node N (one line per lruvec object of the one-line JSON)
contended() {
	awk '{ n = split($0, a, "[{]\"memcg\":"); for (i = 2; i <= n; i++) print a[i] }' /mnt/nodes.json |
		grep "^\"/lrs-test-node$1-shared\"," | grep "\"node\":$1," | grep -q '"contended":[1-9]'
}
# A window with no wait on a node's lock is a load not yet running (its file still being
# written, the guest's one host thread busy elsewhere): another window, up to 6 in all,
# rather than a failure of the attribution the host checks.
for try in 1 2 3 4 5 6; do
	/lruscope report -d "$dur" -f json > /mnt/nodes.json 2> /mnt/report.err
	rc=$?
	[ "$rc" = 0 ] || break
	contended 0 && contended 1 && break
	echo "LRS window $try: no wait yet on one node's lock; another window"
done
echo "LRS report_rc $rc"
# the guest's own account of where each memcg's pages are, while its readers still run
for n in 0 1; do
	m=/lrs-test-node$n-shared
	echo "LRS cgroup $m $(stat -c %i $R$m)"
	while read -r line; do echo "LRS numa_stat $m $line"; done < $R$m/memory.numa_stat
	echo "LRS affinity $m $(for p in $(cat $R$m/cgroup.procs); do
		taskset -p $p | sed 's/.*: //'; done | sort -u | tr '\n' ' ')"
done
kill -TERM $pids
wait
echo "LRS workload_node1 $(tail -n 1 /mnt/node1.out | head -c 300)"
sync
umount /mnt
echo LRS-NODES-DONE
poweroff -f
