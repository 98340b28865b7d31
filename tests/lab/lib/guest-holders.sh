#!/bin/busybox sh
# PID 1 of the holders lab guest (tests/lab/holders.t): lruscope itself runs here, on
# Debian's 6.1 kernel where fentry loads. A workload in two memcgs, readers pinned to both
# NUMA nodes' CPUs; `lruscope report --holders-exact -f json` over it twice: first the memcgs' own
# tasks hold their lruvecs' locks (/holders.json), then a task of a third memcg reclaims the
# heavy one too (/foreign.json); then a text report (/holders.txt). The results go to the
# ext4 data disk (the host reads them with debugfs after the guest stops).
# Kernel command line words: lrs_dur=SECS (length of each report, default 12), lrs_v (the
# text report with -v).
. /guest-lib.sh
lrs_guest_boot
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
# heavy: 6 readers, a tight limit (constant reclaim); light: 2 readers with room
# (both read until stopped: loading the collector's BPF took 8 to 67 s in this guest)
/lruscope workload --layout shared --readers 6 --duration 0 --size 64m --limit 8m \
	--prefix lrs-test-labh- > /mnt/heavy.out 2>&1 &
heavy=$!
/lruscope workload --layout shared --readers 2 --duration 0 --size 24m --limit 64m \
	--prefix lrs-test-labl- > /mnt/light.out 2>&1 &
light=$!
# Readers pinned so that each node's CPUs read (and allocate there): heavy's one on each CPU
# (a lock is traced only with three CPUs at it), light's on the first CPU of each node.
pin() {	# MEMCG "CPU CPU ...": its tasks round those CPUs
	n=0
	set -- $1 $2
	for p in $(cat /sys/fs/cgroup/$1/cgroup.procs 2>/dev/null); do
		eval c=\${$(( n % ($# - 1) + 2 ))}
		taskset -p -c $c $p > /dev/null && n=$((n + 1))
	done
	echo "LRS pinned $1 $n"
}
for i in $(seq 1 60); do
	[ -s /sys/fs/cgroup/lrs-test-labh-shared/cgroup.procs ] &&
		[ -s /sys/fs/cgroup/lrs-test-labl-shared/cgroup.procs ] && break
	sleep 0.5
done
sleep 1
half=$((ncpu / 2))
pin lrs-test-labh-shared "$(seq -s ' ' 0 $((ncpu - 1)))"
pin lrs-test-labl-shared "0 $half"
# report NAME: `report --holders-exact -f json` into /mnt/NAME.json, with a heartbeat that shows
# the report's kernel stack in the host's timeout message if it stalls
report() {
	echo "LRS report_start $1 $(cut -d" " -f1 /proc/uptime)"
	/lruscope report --holders-exact -d "$dur" -f json > /mnt/$1.json 2> /mnt/$1.err &
	rp=$!
	( while kill -0 $rp 2>/dev/null; do sleep 15; kill -0 $rp 2>/dev/null && echo "LRS hb" \
		"load $(cut -d' ' -f1 /proc/loadavg) report in $(head -3 /proc/$rp/stack | tr '\n' ' ')"
	done ) &
	wait $rp
	echo "LRS report_rc $1 $? at $(cut -d" " -f1 /proc/uptime)"
}
sleep 2
# the memcgs' own tasks hold their lruvecs' locks
report holders
# then holders of another memcg too: a task of lrs-test-labr-reclaim on the last CPU of each
# node reclaims the heavy memcg (memory.reclaim), taking its lruvecs' locks
mkdir /sys/fs/cgroup/lrs-test-labr-reclaim
reclaimers=
for c in $((half - 1)) $((ncpu - 1)); do
	sh -c "echo \$\$ > /sys/fs/cgroup/lrs-test-labr-reclaim/cgroup.procs && exec taskset -c $c \
		sh -c 'while :; do echo 1M > /sys/fs/cgroup/lrs-test-labh-shared/memory.reclaim; done' \
		2>/dev/null" &
	reclaimers="$reclaimers $!"
done
report foreign
/lruscope report --holders-exact -d 2 ${LRS_V:+-v} > /mnt/holders.txt 2>&1
kill -TERM $reclaimers $heavy $light
wait
echo "LRS workload_heavy $(tail -n 1 /mnt/heavy.out | head -c 300)"
rmdir /sys/fs/cgroup/lrs-test-labr-reclaim
sync
umount /mnt
echo LRS-HOLDERS-DONE
poweroff -f
