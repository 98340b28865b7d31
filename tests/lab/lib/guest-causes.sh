#!/bin/busybox sh
# PID 1 of the causes lab guest (tests/lab/causes.t): each kernel path that takes lruvec
# locks driven on purpose, one after the other, each in a memcg of its own
# (lrs-test-c-PATH), by tasks or threads pinned one per vCPU (/lrs-paths,
# tests/lab/lib/lrs-paths.c), under one `lruscope record --stack-every 1 --stack-rate 200 --stack-cpu 0 --stack-cost 0`
# (a path's few seconds want many samples; /mnt/causes.rec, then
# `report -i` of it as /mnt/causes.json). Then the demo's two layouts recorded apart
# (/mnt/shared.rec, /mnt/isolated.rec; /mnt/shared2.rec and /mnt/shared3.rec, two more windows
# of the shared load) and diffed in the guest (/mnt/diff.json; /mnt/same.json: shared against
# shared2, /mnt/same2.json: shared2 against shared3). Everything goes to the ext4 data disk;
# the host reads it after the guest stops. Kernel command line words: lrs_phase=SECS (each
# path, default 8), lrs_ivals=N (intervals of the shared and isolated recordings, default 60),
# lrs_same_ivals=N (of shared2 and shared3, default 30), lrs_same=0 (neither of those, no
# same-layout diff).
. /guest-lib.sh
lrs_guest_boot
phase=$(lrs_guest_arg lrs_phase 8)
ivals=$(lrs_guest_arg lrs_ivals 60)
same_ivals=$(lrs_guest_arg lrs_same_ivals 30)
same=$(lrs_guest_arg lrs_same 1)
echo "LRS kernel $(uname -r)"
lrs_guest_cgroups v2
lrs_guest_data_disk
echo "LRS lru_gen $(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo none)"
# whether removing a memcg moves its LRU folios to the parent (under lruvec locks)
echo "LRS lru_reparent $(grep -c ' lru_reparent_memcg$' /proc/kallsyms)"
ncpu=$(nproc)
MiB=1048576

# recorder NAME ARGS...: `lruscope record -o /mnt/NAME.rec ARGS` in the background ($rec),
# returns once its BPF is in and its first snapshot written (bounded: 240 s)
recorder() {
	name=$1
	shift
	/lruscope record -q --force -o /mnt/$name.rec "$@" 2> /mnt/$name.err &
	rec=$!
	i=0
	while [ $i -lt 960 ] && kill -0 $rec 2>/dev/null &&
		[ "$(wc -l < /mnt/$name.rec 2>/dev/null || echo 0)" -lt 2 ]; do
		sleep 0.25; i=$((i + 1))
	done
	echo "LRS recorder $name started after $((i / 4)) s at $(cut -d' ' -f1 /proc/uptime)"
}

# path NAME MODE ARGS...: $tasks `lrs-paths MODE $phase ARGS` in lrs-test-c-NAME, one on each
# CPU from 0; in ARGS, @CPU becomes the task's CPU and @OFF its offset into a file (CPU * $chunk)
path() {
	name=$1 mode=$2
	shift 2
	cg=/sys/fs/cgroup/lrs-test-c-$name
	[ -d $cg ] || mkdir $cg
	echo "LRS phase_start $name $(cut -d' ' -f1 /proc/uptime)"
	pids=
	c=0
	while [ $c -lt $tasks ]; do
		args=$(echo "$*" | sed "s/@OFF/$((c * ${chunk:-0}))/; s/@CPU/$c/")
		sh -c "echo \$\$ > $cg/cgroup.procs && exec taskset -c $c /lrs-paths $mode $phase \
			$args" >> /mnt/paths.out 2>&1 &
		pids="$pids $!"
		c=$((c + 1))
	done
	wait $pids
	echo "LRS phase_end $name $(cut -d' ' -f1 /proc/uptime) $(tail -n $tasks /mnt/paths.out |
		tr '\n' ' ')"
}
tasks=$ncpu

# reparent_task CPU: create a child memcg of lrs-test-c-reparent, read a fresh MiB of the
# file into it from inside, remove it with its pages; over and over for $phase seconds
reparent_task() {
	end=$(($(cut -d. -f1 /proc/uptime) + phase))
	n=0
	while [ "$(cut -d. -f1 /proc/uptime)" -lt $end ]; do
		k=$cg/k$1-$n
		mkdir $k
		sh -c "echo \$\$ > $k/cgroup.procs && exec taskset -c $1 /lrs-paths read 0.3 \
			/mnt/c-reparent $(($1 * 16 * MiB + n % 16 * MiB)) $MiB" > /dev/null
		rmdir $k || echo "rmdir $k failed"
		n=$((n + 1))
	done
	echo "reparent $1: $n memcgs"
}

# reparent: six tasks of reparent_task, one on each CPU
reparent() {
	cg=/sys/fs/cgroup/lrs-test-c-reparent
	mkdir $cg
	echo +memory > $cg/cgroup.subtree_control
	echo "LRS phase_start reparent $(cut -d' ' -f1 /proc/uptime)"
	pids=
	c=0
	while [ $c -lt $ncpu ]; do
		reparent_task $c >> /mnt/paths.out 2>&1 &
		pids="$pids $!"
		c=$((c + 1))
	done
	wait $pids
	echo "LRS phase_end reparent $(cut -d' ' -f1 /proc/uptime) $(tail -n $ncpu /mnt/paths.out |
		tr '\n' ' ')"
}

for f in read activate reparent pageout-0 pageout-1 pageout-2 pageout-3 pageout-4 pageout-5; do
	truncate -s $((ncpu * 16 * MiB)) /mnt/c-$f
done
recorder causes -i 1 --stack-every 1 --stack-rate 200 --stack-cpu 0 --stack-cost 0
# memcg limit reclaim: each task reads 16 MiB of its own through an 8 MiB memory.max
mkdir /sys/fs/cgroup/lrs-test-c-reclaim && echo 8M > /sys/fs/cgroup/lrs-test-c-reclaim/memory.max
chunk=$((16 * MiB)) path reclaim read /mnt/c-read @OFF $((16 * MiB))
# activation: one task reads 4 MiB alone, a thread on each CPU reads it again at once (each
# folio queued for activation on every CPU that reads it inactive and referenced), the task
# drops it alone; over and over
tasks=1
path activation activate /mnt/c-activate 0 $((4 * MiB))
tasks=$ncpu
# MADV_PAGEOUT: a file each (one file's mapping lock would be the contended one)
path pageout pageout /mnt/c-pageout-@CPU 0 $((4 * MiB))
path mlock mlock $((4 * MiB))
path migrate migrate $((2 * MiB))
# compaction: one task keeps 128 MiB with every other page freed (made anew every second),
# six write compact_memory; the memcg's folios are the ones compaction isolates. It
# isolates movable folios of every memcg: the page cache the paths above left in theirs
# is dropped first (by one task: no lruvec lock is contended)
sync
echo 1 > /proc/sys/vm/drop_caches
mkdir /sys/fs/cgroup/lrs-test-c-compact
sh -c "echo \$\$ > /sys/fs/cgroup/lrs-test-c-compact/cgroup.procs && exec taskset -c 0 \
	/lrs-paths fragment $((phase + 2)) $((128 * MiB))" >> /mnt/paths.out 2>&1 &
frag=$!
sleep 2
path compact compact
wait $frag
reparent
sleep 2
kill -INT $rec
wait $rec
echo "LRS record_rc causes $?"
/lruscope report -i /mnt/causes.rec -f json > /mnt/causes.json 2> /mnt/causes-report.err
echo "LRS report_rc causes $?"
for f in reclaim activation pageout mlock migrate compact reparent; do
	rmdir /sys/fs/cgroup/lrs-test-c-$f
done
rm -f /mnt/c-*

# layout NAME LAYOUT REC:N...: the demo's load in LAYOUT, twelve readers (six files, each read
# by two), recorded into /mnt/REC.rec for N intervals of 1 s, each REC in turn (the same
# load). Reader k (in fork order) runs on CPU (k / 6) * 3 + k % 3: both readers of a
# file on one node (its folios stay there), three CPUs at each node's lruvecs in the shared
# layout, two in the isolated one
layout() {
	/lruscope workload --layout $2 --readers 12 --duration 0 --size 64m --limit 8m \
		--prefix lrs-test-l$2- > /mnt/$1.out 2>&1 &
	wl=$!
	i=0
	while [ $i -lt 120 ] && ! grep -q '^/' /mnt/$1.out; do sleep 0.25; i=$((i + 1)); done
	half=$((ncpu / 2))
	k=0
	for m in $(grep '^/' /mnt/$1.out); do cat /sys/fs/cgroup$m/cgroup.procs; done |
		sort -n > /tmp/readers
	for p in $(cat /tmp/readers); do
		taskset -p -c $((k / 6 * half + k % half)) $p > /dev/null && k=$((k + 1))
	done
	echo "LRS layout $1 $2 $(grep '^/' /mnt/$1.out | tr '\n' ' ')pinned $k"
	# the recordings are of the steady load: every memcg at its limit and reclaiming, then
	# 10 s more (in some boots the first seconds still ramp up, as the guest settles after
	# the paths above)
	i=0
	for m in $(grep '^/' /mnt/$1.out); do
		while [ $i -lt 240 ] &&
			[ "$(awk '$1 == "pgscan" { print $2 }' /sys/fs/cgroup$m/memory.stat)" = 0 ]; do
			sleep 0.25; i=$((i + 1))
		done
	done
	echo "LRS layout $1 reclaiming after $((i / 4)) s"
	sleep 10
	shift 2
	for rn in "$@"; do
		r=${rn%:*}
		recorder $r -d $((${rn#*:} + 1)) -i 1
		wait $rec
		echo "LRS record_rc $r $? at $(cut -d' ' -f1 /proc/uptime)"
	done
	kill -TERM $wl
	wait $wl
}
if [ "$same" = 1 ]; then
	layout shared shared shared:$ivals shared2:$same_ivals shared3:$same_ivals
else
	layout shared shared shared:$ivals
fi
layout isolated isolated isolated:$ivals
/lruscope diff /mnt/shared.rec /mnt/isolated.rec -f json > /mnt/diff.json 2> /mnt/diff.err
echo "LRS diff_rc diff $?"
/lruscope report -i /mnt/shared.rec -f json > /mnt/shared.json 2> /mnt/shared-report.err
echo "LRS report_rc shared $?"
if [ "$same" = 1 ]; then
	/lruscope diff /mnt/shared.rec /mnt/shared2.rec -f json > /mnt/same.json 2> /mnt/same.err
	echo "LRS diff_rc same $?"
	/lruscope diff /mnt/shared2.rec /mnt/shared3.rec -f json > /mnt/same2.json 2> /mnt/same2.err
	echo "LRS diff_rc same2 $?"
fi
sync
umount /mnt
echo LRS-CAUSES-DONE
poweroff -f
