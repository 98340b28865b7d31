#!/usr/bin/env bash
# Collector budgets (docs/performance.md), as ratios in one run:
#  - user-space CPU at a 1 s interval with 1,000 empty memcgs (budget: 1% of a core)
#  - BPF map memory at the defaults (budget: 8 MB)
#  - readtwice throughput with lruscope attached over without (budget: >= 0.98)
#  - where that cost goes: our BPF programs' run time and the collector's CPU
# A measurement, not a test: run it alone.
set -u
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" = 0 ] || { echo "collector_bench: needs root"; exit 1; }
read -r version root < <(lrs_memcg_root) || { echo "collector_bench: no memory cgroup hierarchy"; exit 1; }
tmp=$(mktemp -d /tmp/lrs-test-bench.XXXXXX)
pfx=lrs-test-bench$$-
cleanup() {
	lrs_cleanup
	for d in "$root"/"$pfx"*; do [ -d "$d" ] && rmdir "$d" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
PY=/usr/bin/python3
secs=${LRS_BENCH_SECS:-30}

# --- CPU and BPF maps with 1,000 memcgs --------------------------------------
for i in $(seq -w 0 999); do mkdir "$root/$pfx$i"; done
"$PY" - "$LRS_BIN" "$secs" <<'EOF2'
import json, os, resource, subprocess, sys, time
binary, secs = sys.argv[1], float(sys.argv[2])
p = subprocess.Popen([binary, 'report', '-d', str(secs), '-f', 'json'], stdout=subprocess.PIPE)
tick = os.sysconf('SC_CLK_TCK')


def cpu():
    """(user s, system s, on-CPU s) of the collector so far: /proc stat ticks, schedstat ns."""
    f = open(f'/proc/{p.pid}/stat').read().rsplit(')', 1)[1].split()
    run_ns = int(open(f'/proc/{p.pid}/schedstat').read().split()[0])
    return int(f[11]) / tick, int(f[12]) / tick, run_ns / 1e9


# the steady state, apart from the start (BPF load and verification, the first cgroup walk):
# from 4 s in to 4 s before the end
time.sleep(4)
c0, t0 = cpu(), time.monotonic()
time.sleep(secs / 2 - 4)
# our maps only: the ones this process holds
ids = set()
for fd in os.listdir(f'/proc/{p.pid}/fdinfo'):
    try:
        for line in open(f'/proc/{p.pid}/fdinfo/{fd}'):
            if line.startswith('map_id:'):
                ids.add(int(line.split()[1]))
    except OSError:
        pass
maps = json.loads(subprocess.run(['bpftool', '-j', 'map', 'show'], capture_output=True, text=True).stdout)
mem = sum(m.get('bytes_memlock', 0) for m in maps if m['id'] in ids)
time.sleep(max(secs / 2 - 4, 0))
c1, t1 = cpu(), time.monotonic()
out, _ = p.communicate()
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
snap = json.loads(out)
memcgs = len({lv['memcg_id'] for lv in snap['lruvecs']})
w = t1 - t0
user, sys_, on = ((c1[i] - c0[i]) / w * 100 for i in range(3))
print(f'collector CPU at 1 s with {memcgs} memcgs, steady ({w:.0f} s): user {user:.2f}% + sys {sys_:.2f}%'
      f' of a core (on CPU {on:.2f}%; budget 1% user): ratio {user / 1.0:.2f}')
print(f'collector CPU over the whole {secs:.0f} s run, start included: user {ru.ru_utime / secs * 100:.2f}% +'
      f' sys {ru.ru_stime / secs * 100:.2f}%; the start (to 4 s): user {c0[0] * 1000:.0f} ms + sys {c0[1] * 1000:.0f} ms')
print(f'collector max RSS: {ru.ru_maxrss / 1024:.1f} MB (budget 32 MB): ratio {ru.ru_maxrss / 1024 / 32:.2f}')
print(f'BPF maps: {mem / 1048576:.2f} MB in {len(ids)} maps (budget 8 MB, perf lock contention: 2-3 MB): ratio {mem / 1048576 / 8:.2f}')
EOF2
for d in "$root"/"$pfx"*; do rmdir "$d"; done

# --- throughput overhead on readtwice: pairs of runs, medians ---------------
# The pairs alternate their order (off-on, on-off): on two cores a run after
# another one is not like the first, and a fixed order would bias the ratio.
runs=${LRS_BENCH_RUNS:-6}
for i in $(seq 1 "$runs"); do
	order="off on"
	[ $((i % 2)) = 0 ] && order="on off"
	for mode in $order; do
		rpid=
		if [ "$mode" = on ]; then
			"$LRS_BIN" report -d 30 -f json >/dev/null 2>&1 &
			rpid=$!
			lrs_track_pid "$rpid"
			sleep 2	# loaded and attached
		fi
		"$LRS_BIN" workload --layout shared --readers 4 --duration 6 --size 512m --limit 64m \
			--prefix "${pfx}w$i$mode-" >"$tmp/$mode.$i" 2>/dev/null
		[ -n "$rpid" ] && { kill -INT "$rpid"; wait "$rpid" 2>/dev/null; }
		grep '^{' "$tmp/$mode.$i" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["mb_per_s"])' >>"$tmp/$mode"
	done
done
"$PY" - "$tmp/off" "$tmp/on" <<'EOF2'
import statistics, sys
off = [float(x) for x in open(sys.argv[1])]
on = [float(x) for x in open(sys.argv[2])]
mo, mn = statistics.median(off), statistics.median(on)
ratios = sorted(b / a for a, b in zip(off, on))
print(f'readtwice (4 readers, shared, 4 KiB reads) without lruscope: median {mo:.0f} MB/s, range {min(off):.0f}-{max(off):.0f}')
print(f'readtwice with lruscope attached: median {mn:.0f} MB/s, range {min(on):.0f}-{max(on):.0f}')
print(f'throughput ratio with/without: median of {len(ratios)} pairs {statistics.median(ratios):.3f}, '
      f'ratio of medians {mn / mo:.3f} (budget >= 0.98); pairwise ratios {ratios[0]:.3f}-{ratios[-1]:.3f}')
EOF2

# --- where the cost goes: our programs' run time in one more run --------------
# BPF_ENABLE_STATS (held by a helper process, undone when it exits) makes the
# kernel time every program run; each prog fd's fdinfo then has run_time_ns and
# run_cnt. Counted over the workload only, against the CPU time two cores have.
"$PY" - <<'EOF2' >"$tmp/stats.out" &
import ctypes, signal, sys
libc = ctypes.CDLL(None, use_errno=True)
attr = (ctypes.c_uint32 * 1)(0)	# union bpf_attr.enable_stats.type = BPF_STATS_RUN_TIME
fd = libc.syscall(321, 32, attr, ctypes.sizeof(attr))	# SYS_bpf, BPF_ENABLE_STATS
print('ok' if fd >= 0 else 'no: errno %d' % ctypes.get_errno(), flush=True)
signal.pause()
EOF2
spid=$!
lrs_track_pid "$spid"
prog_stats() {	# PID: "run_time_ns run_cnt" summed over its prog fds
	awk '/^run_time_ns:/ {t += $2} /^run_cnt:/ {c += $2} END {print t + 0, c + 0}' /proc/"$1"/fdinfo/* 2>/dev/null
}
task_cpu_ns() {	# PID: user + system time in ns
	awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) * 1e9 / hz}' /proc/"$1"/stat
}
sleep 0.5
if grep -q '^ok' "$tmp/stats.out"; then
	"$LRS_BIN" report -d 30 -f json >/dev/null 2>&1 &
	rpid=$!
	lrs_track_pid "$rpid"
	sleep 2
	read -r t0 c0 < <(prog_stats "$rpid")
	u0=$(task_cpu_ns "$rpid")
	w0=$(date +%s%N)
	"$LRS_BIN" workload --layout shared --readers 4 --duration 6 --size 512m --limit 64m \
		--prefix "${pfx}s-" >/dev/null 2>&1
	w1=$(date +%s%N)
	read -r t1 c1 < <(prog_stats "$rpid")
	u1=$(task_cpu_ns "$rpid")
	kill -INT "$rpid"; wait "$rpid" 2>/dev/null
	awk -v t=$((t1 - t0)) -v c=$((c1 - c0)) -v u="$(awk -v a="$u1" -v b="$u0" 'BEGIN {print a - b}')" \
		-v w=$((w1 - w0)) -v n="$(nproc)" 'BEGIN {
		printf "cost during readtwice: BPF programs %.0f runs/s, %.0f ns a run, %.2f%% of %d CPUs;", c / (w / 1e9), c ? t / c : 0, 100 * t / (w * n), n
		printf " collector process %.2f%% of %d CPUs: together %.2f%% (the timing adds about 25 ns a run)\n", 100 * u / (w * n), n, 100 * (t + u) / (w * n) }'
else
	echo "cost during readtwice: BPF run-time stats unavailable ($(cat "$tmp/stats.out"))"
fi
kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
