#!/bin/bash
# One round of the lab demo in a live lab guest (tests/lab/lib/lab_demo.py runs it through the
# guest's run script, chrooted in this host's programs): the demo's readtwice in CONTAINERS
# containers, one memcg each with the same limit, and `lruscope record` over SECS seconds of
# it (1 s intervals, spinlock waits from the slow path on both kernels: 5.10 has no contention
# tracepoint, and one source on both sides keeps the comparison fair). The window starts once
# the readers run and the recorder's hooks are in, so that every interval is one of load; the
# readers' throughput is their bytes read (/proc/PID/io) over that same window. With PICTURE=1,
# then `lruscope gui --screenshot` of the same load. Results go to /tmp/labdemo (the scratch
# disk, read by the host after the guest stops); progress as "LRS ..." lines on the console.
#
# usage: guest-labdemo.sh CONTAINERS SECS SIZE LIMIT PICTURE
set -u
containers=$1 secs=$2 size=$3 limit=$4 picture=$5
out=/tmp/labdemo
bin=${LRS_BIN:-lruscope}
mkdir -p "$out"
export LRS_WORKDIR=/var/tmp	# the scratch disk's ext4: page cache on the file LRU
echo "LRS kernel $(uname -r) cpus $(nproc)"
uptime_s() { cut -d' ' -f1 /proc/uptime; }

. "$LRS_ROOT/tests/lib/ready.sh"	# lrs_ready
readers() { cat /sys/fs/cgroup/lrs-demo-c*/cgroup.procs 2>/dev/null; }
# "SECONDS BYTES": the guest's uptime and the bytes the readers have read so far, read at
# once by one process (a reader that ended counts no more: none ends here)
read_bytes() {
	local files=() p
	for p in $(readers); do files+=("/proc/$p/io"); done
	awk 'NR == 1 && FILENAME == "/proc/uptime" { t = $1; next }
	     /^rchar:/ { sum += $2 } END { printf "%s %.0f\n", t, sum }' /proc/uptime "${files[@]}"
}
# start_load FILE: the readtwice load until SIGTERM, in the background ($load its pid), once
# its readers run
start_load() {
	"$bin" workload --layout isolated --readers $((2 * containers)) --duration 0 \
		--size "$size" --limit "$limit" --prefix lrs-demo- --cpu-shares 8192 >"$1" 2>&1 &
	load=$!
	local i
	for i in $(seq 1 240); do
		[ "$(readers | wc -l)" -ge $((2 * containers)) ] && return 0
		kill -0 "$load" 2>/dev/null || break
		sleep 0.5
	done
	echo "LRS warn the readers did not start: $(tail -c 300 "$1")"
	return 1
}
stop_load() {
	kill -TERM "$load"
	wait "$load"
	echo "LRS rc workload $?"
}

# this script and lruscope above the readers' cpu weight (8192 shares): under their load a
# recorder in the root cgroup took minutes to load its programs, and its waits drifted
ctl=/sys/fs/cgroup/lrs-lab-ctl
mkdir -p "$ctl" && echo 10000 >"$ctl/cpu.weight" && echo $$ >"$ctl/cgroup.procs" ||
	echo "LRS warn no cpu weight for the control cgroup"
sync
echo 3 >/proc/sys/vm/drop_caches
start_load "$out/workload.out"
"$bin" record -o "$out/rec.jsonl" -i 1 -q --spin-source slowpath --ready-file "$out/record.ready" \
	2>"$out/record.err" &
rec=$!
lrs_ready "$out/record.ready" "$rec" || echo "LRS warn record never attached: $(tail -c 300 "$out/record.err")"
read -r t0 b0 < <(read_bytes)
sleep "$secs"
read -r t1 b1 < <(read_bytes)
kill -INT "$rec"
wait "$rec"
echo "LRS rc record $?"
stop_load
echo "LRS window $t0 $t1 $b0 $b1"
echo "{\"t0\": $t0, \"t1\": $t1, \"bytes\": $((b1 - b0)), \"readers\": $((2 * containers))}" \
	>"$out/window.json"

if [ "$picture" = 1 ]; then
	start_load "$out/picture-load.out"
	"$bin" gui --screenshot "$out/gui.png" -d 6 --spin-source slowpath 2>"$out/gui.err"
	echo "LRS rc gui $? at $(uptime_s)"
	stop_load
fi
echo $$ >/sys/fs/cgroup/cgroup.procs
rmdir "$ctl"
dmesg | grep -i -E "lockup|rcu.*stall|BUG:" | head -5 | sed 's/^/LRS kmsg /'
sync
