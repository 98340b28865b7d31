#!/bin/busybox sh
# PID 1 of the lab guest (busybox). Builds memcgs, runs readers pinned to each node, prints
# what the guest itself sees ("LRS ..." lines: the ground truth the host asserts against),
# then prints LRS-DUMP-NOW and idles while the host dumps its memory.
# Kernel command line words: lrs_cg=v1|v2 (default v2), lrs_bench=N (create N empty memcgs),
# lrs_mglru=1 (turn the multi-gen LRU on before the workload, where the kernel has it).
. /guest-lib.sh
lrs_guest_boot
insmod /qemu_fw_cfg.ko || echo "LRS warn insmod qemu_fw_cfg failed"
cg=v2; bench=0; mglru=0
for w in $(cat /proc/cmdline); do
	case "$w" in
	lrs_cg=*) cg=${w#lrs_cg=} ;;
	lrs_bench=*) bench=${w#lrs_bench=} ;;
	lrs_mglru=*) mglru=${w#lrs_mglru=} ;;
	esac
done
echo "LRS kernel $(uname -r)"
echo "LRS mode $cg"
if [ "$mglru" = 1 ]; then
	# CONFIG_LRU_GEN: the switch; "y" turns on every capability ("LRS mglru 0x0007")
	if [ -e /sys/kernel/mm/lru_gen/enabled ]; then
		echo y > /sys/kernel/mm/lru_gen/enabled || echo "LRS warn cannot turn the multi-gen LRU on"
		echo "LRS mglru $(cat /sys/kernel/mm/lru_gen/enabled)"
	else
		echo "LRS mglru absent"
	fi
fi

if [ "$cg" = v1 ]; then
	mount -t tmpfs cgroup /sys/fs/cgroup
	mkdir -p /sys/fs/cgroup/memory
	mount -t cgroup -o memory memory /sys/fs/cgroup/memory
	R=/sys/fs/cgroup/memory
	procs=cgroup.procs
else
	mount -t cgroup2 none /sys/fs/cgroup
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control
	R=/sys/fs/cgroup
	procs=cgroup.procs
fi

mount -t ext4 /dev/nvme0n1 /mnt || echo "LRS warn mount data disk failed"

# memcgs: two flat ones and a nested pair; the parent of the pair holds pages of its own too.
mkdir -p $R/lrs-a $R/lrs-b $R/lrs-n
[ "$cg" = v2 ] && echo +memory > $R/lrs-n/cgroup.subtree_control
mkdir -p $R/lrs-n/c1 $R/lrs-n/c2

# run CMD in memcg $1 pinned to cpu $2 (cpu N is the only cpu of node N)
run_in() {
	m=$1; c=$2; shift 2
	sh -c "echo \$\$ > $R$m/$procs || echo LRS warn cannot enter $m >&2; exec taskset -c $c $*"
}
# file pages: read each file twice (the second read activates part of it);
# anon pages: shmem files on the tmpfs root (swap-backed: the anon LRU).
# (v2 has no internal processes: /lrs-n itself holds pages only in v1)
specs="/lrs-a:0 /lrs-a:1 /lrs-b:0 /lrs-b:1 /lrs-n/c1:0 /lrs-n/c2:1"
[ "$cg" = v1 ] && specs="$specs /lrs-n:1"
for spec in $specs; do
	m=${spec%:*}; c=${spec#*:}; f=/mnt/data$(echo $m | tr / -)-$c
	run_in $m $c cat $f > /dev/null
	# a second read activates: only on cpu 0, so node 1 keeps inactive file pages
	[ $c = 0 ] && run_in $m $c cat $f > /dev/null
	n=$(( $(echo $m | wc -c) * 37 + c * 100 ))
	run_in $m $c dd if=/dev/zero of=/tmp/anon$(echo $m | tr / -)-$c bs=4096 count=$n 2>/dev/null
done

if [ "$bench" -gt 0 ]; then
	mkdir -p $R/lrs-bench
	[ "$cg" = v2 ] && echo +memory > $R/lrs-bench/cgroup.subtree_control
	i=0
	while [ $i -lt "$bench" ]; do mkdir $R/lrs-bench/m$i; i=$((i + 1)); done
	echo "LRS bench_memcgs $bench"
fi

# the child that keeps this script waiting once the marker is out, started now: the host
# dumps at the marker, and an exec then (the child's copies of our pages freed under the
# root memcg's lru_lock) would be a lock held in the dump
sleep 2147483647 &
# memcg statistics are flushed every 2 s (rstat): let them settle before printing
sync
sleep 3
for m in /lrs-a /lrs-b /lrs-n /lrs-n/c1 /lrs-n/c2; do
	echo "LRS cgroup $m $(stat -c %i $R$m)"
	while read -r line; do echo "LRS numa_stat $m $line"; done < $R$m/memory.numa_stat
	while read -r line; do echo "LRS stat $m $line"; done < $R$m/memory.stat
done
echo "LRS node_cpus 0 $(cat /sys/devices/system/node/node0/cpulist)"
echo "LRS node_cpus 1 $(cat /sys/devices/system/node/node1/cpulist)"
echo LRS-DUMP-NOW
# builtins only from here: nothing forks or execs while the host dumps
while :; do wait; done
