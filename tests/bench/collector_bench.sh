#!/usr/bin/env bash
# Collector budgets (DESIGN.md), as ratios in one run:
#  - user-space CPU at a 1 s interval with 1,000 empty memcgs (budget: 1% of a core)
#  - BPF map memory at the defaults (budget: 8 MB)
#  - readtwice throughput with lruscope attached over without (budget: >= 0.98)
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
secs=${LRS_BENCH_SECS:-20}

# --- CPU and BPF maps with 1,000 memcgs --------------------------------------
for i in $(seq -w 0 999); do mkdir "$root/$pfx$i"; done
"$PY" - "$LRS_BIN" "$secs" <<'EOF2'
import json, os, resource, subprocess, sys, time
binary, secs = sys.argv[1], float(sys.argv[2])
p = subprocess.Popen([binary, 'report', '-d', str(secs), '-f', 'json'], stdout=subprocess.PIPE)
time.sleep(secs / 2)
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
out, _ = p.communicate()
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
snap = json.loads(out)
memcgs = len({lv['memcg_id'] for lv in snap['lruvecs']})
user = ru.ru_utime / secs * 100
print(f'collector CPU at 1 s with {memcgs} memcgs: user {user:.2f}% + sys {ru.ru_stime / secs * 100:.2f}% of a core'
      f' (budget 1% user): ratio {user / 1.0:.2f}')
print(f'collector max RSS: {ru.ru_maxrss / 1024:.1f} MB (budget 32 MB): ratio {ru.ru_maxrss / 1024 / 32:.2f}')
print(f'BPF maps: {mem / 1048576:.2f} MB in {len(ids)} maps (budget 8 MB, perf lock contention: 2-3 MB): ratio {mem / 1048576 / 8:.2f}')
EOF2
for d in "$root"/"$pfx"*; do rmdir "$d"; done

# --- throughput overhead on readtwice: alternate A/B runs, medians ----------
runs=${LRS_BENCH_RUNS:-5}
for i in $(seq 1 "$runs"); do
	for mode in off on; do
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
print(f'throughput ratio with/without: {mn / mo:.3f} (budget >= 0.98); pairwise ratios {ratios[0]:.3f}-{ratios[-1]:.3f}')
EOF2
