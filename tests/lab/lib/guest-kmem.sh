#!/bin/busybox sh
# PID 1 of the kernel-memory bench guests (tests/lab/lib/kmem_bench.py): what lruscope costs
# the kernel in memory, read from /proc/meminfo, on a load and with its maps full.
#   1. "base": nothing running; "load": a readtwice load, lrs_readers readers in one memcg per
#      two (lrs-test-kmem-*), no tool;
#   2. `lruscope report` attached ("attached") and after lrs_dur seconds of the load ("end");
#   3. its counter maps filled on purpose by /lrs-fillmaps ("full"; lock_stats_shared by its
#      name cut to 15 characters, as the kernel keeps it); then the report ended
#      ("after": what it gave back).
# lrs_holders=1: the report runs with --holders (a guest of its own: the memory a report gives
# back is reused by the next, so two reports in one guest would not measure the same).
# lrs_tool=none: the control, no report at all: the same readings at the same times, so the
# load's own growth over them (page cache nodes, dentries) is told from the tool's.
# Each reading is a line "LRS mem LABEL PERCPU_KB SLAB_KB VMALLOC_KB MEMFREE_KB" (and
# LABEL-shrunk: see mem below); the kernel's own estimate of the maps' size (fdinfo memlock)
# is "LRS memlock LABEL BYTES"; the slab caches that grew most on the load, "LRS slab end
# CACHE KB".
. /guest-lib.sh
lrs_guest_boot
dur=$(lrs_guest_arg lrs_dur 30)
readers=$(lrs_guest_arg lrs_readers 16)
holders=
[ "$(lrs_guest_arg lrs_holders 0)" = 1 ] && holders=--holders
tool=$(lrs_guest_arg lrs_tool report)
echo "LRS kernel $(uname -r) cpus running $(nproc), possible $(cat /sys/devices/system/cpu/possible)"
lrs_guest_cgroups v2
lrs_guest_data_disk

meminfo() {
	awk -v l="$1" '/^Percpu:/ {p=$2} /^Slab:/ {s=$2} /^VmallocUsed:/ {v=$2} /^MemFree:/ {f=$2}
		END {print "LRS mem " l " " p " " s " " v " " f}' /proc/meminfo
}
# mem LABEL: the reading as it is, then LABEL-shrunk once every slab cache has given back its
# empty slabs and per-CPU partial lists: what a program's load (the verifier's large
# allocations on each CPU the loader ran on) leaves as free objects is not what it holds
mem() {
	meminfo "$1"
	for f in /sys/kernel/slab/*/shrink; do echo 1 > "$f"; done 2> /dev/null
	meminfo "$1-shrunk"
}
# memlock LABEL PID: the sum of fdinfo memlock over PID's BPF maps
memlock() {
	n=0
	for fd in /proc/$2/fdinfo/*; do
		grep -q '^map_type:' "$fd" 2>/dev/null || continue
		n=$((n + $(awk '/^memlock:/ {print $2}' "$fd")))
	done
	echo "LRS memlock $1 $n"
}
# slab_kb: "CACHE KB" per slab cache, the pages its slabs hold
slab_kb() {
	awk 'NR > 2 {print $1, $15 * $6 * 4}' /proc/slabinfo
}
# slab_grew SINCE LABEL: the six slab caches that grew most since the file SINCE
slab_grew() {
	slab_kb |
		awk 'NR == FNR {was[$1] = $2; next} {d = $2 - was[$1]; if (d > 0) print d, $1}' "$1" - |
		sort -rn | head -6 | while read -r kb name; do echo "LRS slab $2 $name $kb"; done
}
( while :; do sleep 30; echo "LRS hb $(cut -d' ' -f1 /proc/uptime)"; done ) &
hb=$!
sleep 2
mem base
/lruscope workload --layout isolated --readers "$readers" --duration 0 --size 64m --limit 8m \
	--prefix lrs-test-kmem- > /mnt/workload.out 2>&1 &
load=$!
sleep 10
mem load
slab_kb > /tmp/slab.load
rep=
if [ "$tool" = none ]; then
	sleep 3 # about as long as the report takes to attach
else
	/lruscope report -d 3600 -f json $holders --ready-file /tmp/report.ready \
		> /mnt/report.json 2> /mnt/report.err &
	rep=$!
	lrs_ready /tmp/report.ready $rep || echo "LRS warn report never attached"
fi
mem attached
[ -z "$rep" ] || memlock attached $rep
sleep "$dur"
mem end
slab_grew /tmp/slab.load end
if [ -n "$rep" ]; then
	/lrs-fillmaps lock_slots lock_stats_shar waiter_slots waiter_stats stack_stats holder_stats matrix_stats
	mem full
	memlock full $rep
	kill -INT $rep
	wait $rep
	echo "LRS rc report $?"
fi
sleep 5 # the maps are freed after an RCU grace period
mem after
kill $hb
kill -TERM $load
wait $load
dmesg | grep -i -E "lockup|rcu.*stall|BUG|allocation failure" | head -10 | sed 's/^/LRS kmsg /'
sync
umount /mnt
echo LRS-KMEM-DONE
poweroff -f
