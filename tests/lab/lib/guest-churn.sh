#!/bin/busybox sh
# PID 1 of the churn lab guest (tests/lab/churn.t): memcgs that live a fraction of
# lruscope's interval. While `lruscope report -f json` runs, memcgs are created one after
# the other, each with readers that contend on its own lruvec lock (4 readers on 4 vCPUs
# under a tight limit: constant reclaim), and removed about 0.4 s later. The report goes to
# the ext4 data disk (the host reads it with debugfs after the guest stops); each memcg's
# path and id are printed as "LRS churn {workload's JSON}".
# Kernel command line words: lrs_cg=v1|v2 (default v2), lrs_churn=N (memcgs, default 24).
. /guest-lib.sh
lrs_guest_boot
cg=$(lrs_guest_arg lrs_cg v2)
n=$(lrs_guest_arg lrs_churn 24)
echo "LRS kernel $(uname -r)"
lrs_guest_cgroups "$cg"
lrs_guest_data_disk

/lruscope report -d 600 -f json --ready-file /tmp/report.ready > /mnt/churn.json 2> /mnt/report.err &
rp=$!
# BPF loads in several seconds under TCG: churn once the collector counts (a memcg churned
# before its hooks are in is only not shown, never shown unnamed)
lrs_ready /tmp/report.ready $rp 60 || echo "LRS warn report never attached"
echo "LRS collector_loaded at $(cut -d' ' -f1 /proc/uptime)"

i=1
while [ $i -le "$n" ]; do
	/lruscope workload --layout shared --readers 4 --duration 0.4 --size 24m --limit 4m \
		--prefix "lrs-test-churn$i-" > /mnt/churn$i.out 2>&1
	echo "LRS churn $(tail -n 1 /mnt/churn$i.out)"
	i=$((i + 1))
done
# two more intervals: the last memcgs' counters are read after they are gone
sleep 2.5
kill -INT $rp
wait $rp
echo "LRS report_rc $?"
sync
umount /mnt
echo LRS-CHURN-DONE
poweroff -f
