#!/bin/busybox sh
# PID 1 of the throughput bench guest (tests/lab/lib/throughput_bench.py): readtwice MB/s with
# nothing attached, with `lruscope report`, `--holders`, `--holders-exact`, `perf lock record -a`
# and a bpftrace one-liner, rounds in rotating order, in a guest whose spinlock waits the
# kernel traces (lab.CONTENDED). Each run prints "LRS tp MODE ROUND MB_PER_S", and before and
# after its load the guest's CPU and the tool's BPF programs' run time ("LRS stat", "LRS prog").
. /guest-lib.sh
lrs_guest_boot
rounds=$(lrs_guest_arg lrs_rounds 3)
secs=$(lrs_guest_arg lrs_secs 10)
modes=$(lrs_guest_arg lrs_modes none,lruscope,holders,exact,perf,bpftrace | tr , ' ')
echo "LRS kernel $(uname -r) cpus $(nproc)"
lrs_guest_cgroups v2
lrs_guest_data_disk
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
# the kernel times every BPF program run: what each of a tool's programs cost in a run
echo 1 > /proc/sys/kernel/bpf_stats_enabled

# progs WHEN MODE ROUND: the guest's CPU and context switches so far and, with a tool
# attached, its process's CPU and the run time of each of its BPF programs so far
# (bpftool's line); the bench takes a run's figures from the difference of two readings
progs() {
	echo "LRS stat $2 $3 $1 $(head -n 1 /proc/stat) $(grep '^ctxt ' /proc/stat)"
	[ -n "$tool" ] || return 0
	# the tool's own process: user and system ticks (its comm has no space)
	echo "LRS tool $2 $3 $1 $(cut -d ' ' -f 14,15 /proc/$tool/stat)"
	for id in $(grep -h '^prog_id:' /proc/$tool/fdinfo/* 2>/dev/null | awk '{print $2}' | sort -u); do
		echo "LRS prog $2 $3 $1 $(/usr/sbin/bpftool prog show id "$id" | head -n 1)"
	done
}

# start MODE: the tool of MODE in the background, attached when it returns; sets tool
start() {
	tool=
	case $1 in
	none) return 0 ;;
	lruscope) /lruscope report -d 3600 -f json --ready-file /tmp/tool.ready > /dev/null 2> /mnt/tool.err & ;;
	holders) /lruscope report --holders -d 3600 -f json --ready-file /tmp/tool.ready > /dev/null 2> /mnt/tool.err & ;;
	exact) /lruscope report --holders-exact -d 3600 -f json --ready-file /tmp/tool.ready > /dev/null 2> /mnt/tool.err & ;;
	perf) perf lock record -a -o /mnt/perf.data -- sleep 3600 > /dev/null 2> /mnt/tool.err & ;;
	bpftrace) bpftrace /peer-wait.bt > /mnt/tool.out 2> /mnt/tool.err & ;;
	esac
	tool=$!
	case $1 in
	lruscope | holders | exact) lrs_ready /tmp/tool.ready $tool || echo "LRS warn $1 never attached: $(tail -c 300 /mnt/tool.err)" ;;
	bpftrace)
		for i in $(seq 1 600); do grep -q Attaching /mnt/tool.out && break; sleep 1; done
		grep -q Attaching /mnt/tool.out || echo "LRS warn bpftrace never attached: $(tail -c 300 /mnt/tool.err)" ;;
	perf)
		for i in $(seq 1 600); do [ -s /mnt/perf.data ] && break; sleep 1; done
		sleep 2 ;;
	esac
	kill -0 $tool 2>/dev/null || echo "LRS warn $1 ended: $(tail -c 300 /mnt/tool.err)"
}

stop() {
	[ -n "$tool" ] || return 0
	kill -INT $tool
	wait $tool
	rm -f /mnt/perf.data /mnt/tool.out
}

r=0
while [ $r -lt "$rounds" ]; do
	# rotate: round r begins with mode r (mod the number of modes)
	set -- $modes
	i=0
	while [ $i -lt $((r % $#)) ]; do
		m=$1
		shift
		set -- "$@" "$m"
		i=$((i + 1))
	done
	for m in "$@"; do
		start "$m"
		progs before "$m" "$r"
		out=$(/lruscope workload --layout shared --readers 4 --duration "$secs" --size 64m \
			--limit 8m --prefix lrs-test-tp- 2> /mnt/workload.err | tail -n 1)
		progs after "$m" "$r"
		stop
		mbs=$(echo "$out" | grep -o '"mb_per_s": *[0-9.]*' | head -n 1 | sed 's/.*: *//')
		echo "LRS tp $m $r ${mbs:-none}"
		[ -n "$mbs" ] || echo "LRS warn workload: $(tail -c 300 /mnt/workload.err) $out"
	done
	r=$((r + 1))
done
sync
umount /mnt
echo LRS-TP-DONE
poweroff -f
