#!/bin/busybox sh
# PID 1 of the holders lab guest (tests/lab/holders.t): lruscope itself runs here, on
# Debian's 6.1 kernel where fentry loads. A workload in two memcgs (readers on both CPUs,
# so both NUMA nodes), `lruscope report --holders -f json` over it, the results on the
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
# heavy: 4 readers, a tight limit (constant reclaim); light: 2 readers with room
/lruscope workload --layout shared --readers 4 --duration $((dur + 8)) --size 96m --limit 12m \
	--prefix lrs-test-labh- > /mnt/heavy.out 2>&1 &
/lruscope workload --layout shared --readers 2 --duration $((dur + 8)) --size 24m --limit 64m \
	--prefix lrs-test-labl- > /mnt/light.out 2>&1 &
sleep 3
/lruscope report --holders -d "$dur" -f json > /mnt/holders.json 2> /mnt/report.err
echo "LRS report_rc $?"
/lruscope report --holders -d 2 ${LRS_V:+-v} > /mnt/holders.txt 2>&1
wait
echo "LRS workload_heavy $(tail -n 1 /mnt/heavy.out | head -c 300)"
sync
umount /mnt
echo LRS-HOLDERS-DONE
poweroff -f
