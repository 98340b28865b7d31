#!/bin/busybox sh
# PID 1 of the holders lab guest (tests/lab/holders.t): lruscope itself runs here, on
# Debian's 6.1 kernel where fentry loads. A workload in two memcgs (readers pinned round
# the CPUs, so both NUMA nodes' CPUs read), `lruscope report --holders -f json` over it, the results on the
# ext4 data disk (the host reads them with debugfs after the guest stops).
# Kernel command line words: lrs_dur=SECS (report length, default 12).
/bin/busybox mkdir -p /proc /sys /dev /tmp /mnt /usr/bin /sbin /usr/sbin
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
dur=12
for w in $(cat /proc/cmdline); do
	case "$w" in lrs_dur=*) dur=${w#lrs_dur=} ;; esac
done
echo "LRS kernel $(uname -r)"
mount -t cgroup2 none /sys/fs/cgroup
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mount -t ext4 /dev/nvme0n1 /mnt || echo "LRS warn mount data disk failed"
export LRS_WORKDIR=/mnt HOME=/tmp
grep -q lrs_v /proc/cmdline && LRS_V=1
ncpu=$(nproc)
echo "LRS node_cpus 0 $(cat /sys/devices/system/node/node0/cpulist)"
echo "LRS node_cpus 1 $(cat /sys/devices/system/node/node1/cpulist)"
# heavy: 4 readers, a tight limit (constant reclaim); light: 2 readers with room
# (both read until stopped: loading the collector's BPF takes from 2 to 20 s in this guest)
/lruscope workload --layout shared --readers 4 --duration 0 --size 96m --limit 12m \
	--prefix lrs-test-labh- > /mnt/heavy.out 2>&1 &
heavy=$!
/lruscope workload --layout shared --readers 2 --duration 0 --size 24m --limit 64m \
	--prefix lrs-test-labl- > /mnt/light.out 2>&1 &
light=$!
# pin the readers round the CPUs, so both nodes' CPUs read (and allocate on their node)
pin() {
	n=0
	for p in $(cat /sys/fs/cgroup/$1/cgroup.procs 2>/dev/null); do
		taskset -p -c $(( (n * $2) % ncpu )) $p > /dev/null && n=$((n + 1))
	done
	echo "LRS pinned $1 $n"
}
for i in 1 2 3 4 5 6 7 8 9 10; do
	[ -s /sys/fs/cgroup/lrs-test-labh-shared/cgroup.procs ] &&
		[ -s /sys/fs/cgroup/lrs-test-labl-shared/cgroup.procs ] && break
	sleep 0.5
done
sleep 1
pin lrs-test-labh-shared 1
pin lrs-test-labl-shared $((ncpu / 2))
sleep 2
echo "LRS report_start $(cut -d" " -f1 /proc/uptime)"
/lruscope report --holders -d "$dur" -f json > /mnt/holders.json 2> /mnt/report.err &
rp=$!
# a heartbeat with the report's kernel stack: seen in the host's timeout message if it stalls
( while kill -0 $rp 2>/dev/null; do sleep 15; kill -0 $rp 2>/dev/null &&
	echo "LRS hb load $(cut -d' ' -f1 /proc/loadavg) report in $(head -3 /proc/$rp/stack | tr '\n' ' ')"; done ) &
wait $rp
echo "LRS report_rc $? at $(cut -d" " -f1 /proc/uptime)"
/lruscope report --holders -d 2 ${LRS_V:+-v} > /mnt/holders.txt 2>&1
kill -TERM $heavy $light
wait
echo "LRS workload_heavy $(tail -n 1 /mnt/heavy.out | head -c 300)"
sync
umount /mnt
echo LRS-HOLDERS-DONE
poweroff -f
