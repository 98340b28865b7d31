#!/usr/bin/env bash
# Holders (issue 6) on the running kernel: a heavy memcg (many readers, a small
# limit: constant reclaim) and a light one (two readers, room to spare) run
# at once; `report --holders -f json` must put the heavy memcg first among
# the test's holders and first in the matrix's holder columns.
set -u
. "$(dirname "$0")/../lib.sh"
need_root "holders"
if [ ! -r /sys/kernel/btf/vmlinux ] || ! grep -q 'contention_begin' /proc/kallsyms 2>/dev/null; then
	tap_skip "holders" "kernel has no BTF or no lock:contention_begin (Linux 5.19+)"; exit 0
fi

tmp=$(mktemp -d /tmp/lrs-test-holders.XXXXXX)
heavy=lrs-test-hh$$- light=lrs-test-hl$$-
cleanup() {
	lrs_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

start_load() {
	local name=$1; shift
	"$LRS_BIN" workload "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	lrs_track_pid "$!"
	for _ in $(seq 1 100); do
		grep -q '^/' "$tmp/$name.out" && return 0
		sleep 0.1
	done
	echo "# workload $name did not start: $(cat "$tmp/$name.err")" >&2
	return 1
}

start_load heavy --layout shared --readers 6 --duration 12 --size 512m --limit 32m --prefix "$heavy" ||
	{ tap_fail "holders: heavy workload started"; exit 1; }
start_load light --layout shared --readers 2 --duration 12 --size 64m --limit 256m --prefix "$light" ||
	{ tap_fail "holders: light workload started"; exit 1; }
sleep 1
"$LRS_BIN" report --holders -d 7 -f json >"$tmp/h.json" 2>"$tmp/h.err" &
rpid=$!
wait "$rpid"; rc=$?
tap_check "holders: report --holders -f json exits 0 (rc $rc: $(head -c 300 "$tmp/h.err"))" [ "$rc" -eq 0 ]
"$LRS_BIN" report --holders -d 1 >"$tmp/h.txt" 2>&1; rc=$?
tap_check "holders: the text report has the holder table and both matrices (rc $rc)" \
	[ "$rc" -eq 0 ] && grep -q '^holders: ' "$tmp/h.txt" && [ "$(grep -c 'memcg x memcg' "$tmp/h.txt")" -eq 2 ]

/usr/bin/python3 - "$tmp/h.json" "$heavy" "$light" <<'PY'
import json, sys
snap, heavy, light = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
def check(name, ok, why=''):
    print(('ok - ' if ok else 'not ok - ') + 'holders: ' + name + ('' if ok else ': ' + why))
h = snap.get('holders')
check('a "holders" object with a mode', h and h['mode'] in ('estimated', 'exact (fentry)'), str(h)[:200])
if not h:
    sys.exit(0)
ours = lambda m: m and (m.startswith('/' + heavy) or m.startswith('/' + light))
rows = [r for r in h['rows'] if ours(r['memcg'])]
rows.sort(key=lambda r: -r['imposed_ns'])
check('holders of the test memcgs are seen', len(rows) >= 2, str(len(rows)))
if rows:
    check('the heavy memcg holds first', rows[0]['memcg'].startswith('/' + heavy),
          ', '.join(f"{r['memcg']}:{r['imposed_ns']}" for r in rows[:4]))
    check('holder rows name a task', all(r['pid'] > 0 and r['comm'] for r in rows), str(rows[:2]))
cols = {}
for c in h['matrix']:
    if ours(c['holder']):
        cols[c['holder']] = cols.get(c['holder'], 0) + c['imposed_ns']
top = sorted(cols.items(), key=lambda kv: -kv[1])
check('the heavy memcg is the first holder column of the matrix', top and top[0][0].startswith('/' + heavy), str(top))
lv = {(l['memcg'], l['node']) for l in snap['lruvecs']}
check('every holder row belongs to a reported lruvec', all(r['lruvec'].rsplit('@N', 1)[0] in {m for m, _ in lv} for r in h['rows']))
check('counters present', set(h['counters']) == {'unknown', 'probable', 'drop_full'}, str(h['counters']))
check('no holder map was full', h['counters']['drop_full'] == 0, str(h['counters']))
PY
for pid in "${LRS_PIDS[@]}"; do wait "$pid" 2>/dev/null; done
sleep 0.5
# others may run lruscope at the same time, and this bpftool shows no owner pids: our
# programs live as long as the report's fds (nothing is pinned), so it is enough that
# the report is gone and nothing of ours is pinned
left=$(ls /sys/fs/bpf 2>/dev/null | grep -c '^lrs' || true)
tap_check "holders: the report left no BPF program behind (pinned $left)" \
	[ "$left" -eq 0 ] && ! kill -0 "$rpid" 2>/dev/null
left=$(find /sys/fs/cgroup -maxdepth 3 \( -name "$heavy*" -o -name "$light*" \) 2>/dev/null | wc -l)
tap_check "holders: no test cgroups left ($left)" [ "$left" -eq 0 ]
