#!/usr/bin/env bash
# Holders on the running kernel: a heavy memcg (many readers, a small
# limit: constant reclaim) and a light one (two readers, room to spare) run
# at once; `report --holders -f json` must put the heavy memcg first among
# the test's holders and first in the matrix's holder columns.
# live: traced
set -u
. "$(dirname "$0")/../lib.sh"
need_root "holders"
lrs_spin_probe
if [ ! -r /sys/kernel/btf/vmlinux ] || ! grep -q 'contention_begin' /proc/kallsyms 2>/dev/null; then
	tap_skip "holders" "kernel has no BTF or no lock:contention_begin (Linux 5.19+)"; exit 0
fi

tmp=$(mktemp -d /tmp/lrs-test-holders.XXXXXX)
heavy=lrs-test-hh$$- light=lrs-test-hl$$-
SOCK=lrs-test-holders$$		# a tmux server of our own: kill-server touches nothing else
tm() { tmux -L "$SOCK" "$@"; }
cleanup() {
	lrs_tmux_end "$SOCK"
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

start_load heavy --layout shared --readers 6 --duration 30 --size 512m --limit 32m --prefix "$heavy" ||
	{ tap_fail "holders: heavy workload started"; exit 1; }
start_load light --layout shared --readers 2 --duration 30 --size 64m --limit 256m --prefix "$light" ||
	{ tap_fail "holders: light workload started"; exit 1; }
sleep 1
"$LRS_BIN" report --holders -d 7 -f json >"$tmp/h.json" 2>"$tmp/h.err" &
rpid=$!
lrs_track_pid "$rpid"
# its programs, by id: others may run lruscope too, and nothing is pinned
report_ids=$(lrs_wait_bpf_loaded "$rpid")
tap_check "holders: the report loaded its BPF programs ($report_ids)" [ -n "$report_ids" ]
wait "$rpid"; rc=$?
lrs_untrack_pid "$rpid"
tap_check "holders: report --holders -f json exits 0 (rc $rc: $(head -c 300 "$tmp/h.err"))" [ "$rc" -eq 0 ]
"$LRS_BIN" report --holders -d 1 >"$tmp/h.txt" 2>&1; rc=$?
# the mode in its heading, the table's column heading, one matrix by owner and one by holder
tap_check "holders: the text report has the holder table and both matrices (rc $rc)" \
	bash -c '[ "$1" -eq 0 ] && grep -Eq "^holders: (estimated|exact)" "$2" &&
		grep -Eq "^ +imposed +held +holds +behind +holder \(pid comm\) +holder memcg, on lruvec$" "$2" &&
		grep -q "^memcg x memcg: .*columns: lruvec owner$" "$2" &&
		grep -q "^memcg x memcg: .*columns: holder.s memcg$" "$2"' _ "$rc" "$tmp/h.txt"
tap_check "holders: the text report counts the waits per rule ($(grep -o 'waits charged to a task seen running [0-9]*' "$tmp/h.txt"))" \
	grep -Eq '^waits charged to a task seen running [0-9]+, to an earlier acquirer [0-9]+, to nobody [0-9]+, map full [0-9]+$' "$tmp/h.txt"

PYTHONPATH=$LRS_ROOT/tests/lib /usr/bin/python3 - "$tmp/h.json" "$heavy" "$light" <<'PY'
import json, sys
import lrs_tap
snap, heavy, light = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
def check(name, ok, why='', traced=False):
    lrs_tap.check('holders: ' + name, ok, why, traced)
h = snap.get('holders')
check('a "holders" object with a mode', h and h['mode'] in ('estimated', 'exact (fentry)'), str(h)[:200])
if not h:
    sys.exit(0)
ours = lambda m: m and (m.startswith('/' + heavy) or m.startswith('/' + light))
rows = [r for r in h['rows'] if ours(r['memcg'])]
rows.sort(key=lambda r: -r['imposed_ns'])
check('holders of the test memcgs are seen', len(rows) >= 2, str(len(rows)), traced=True)
if rows:
    check('the heavy memcg holds first', rows[0]['memcg'].startswith('/' + heavy),
          ', '.join(f"{r['memcg']}:{r['imposed_ns']}" for r in rows[:4]))
    check('holder rows name a task', all(r['pid'] > 0 and r['comm'] for r in rows), str(rows[:2]))
cols = {}
for c in h['matrix']:
    if ours(c['holder']):
        cols[c['holder']] = cols.get(c['holder'], 0) + c['imposed_ns']
top = sorted(cols.items(), key=lambda kv: -kv[1])
check('the heavy memcg is the first holder column of the matrix', top and top[0][0].startswith('/' + heavy), str(top), traced=True)
lv = {(l['memcg'], l['node']) for l in snap['lruvecs']}
check('every holder row belongs to a reported lruvec', h['rows'] and
      all(r['lruvec'].rsplit('@N', 1)[0] in {m for m, _ in lv} for r in h['rows']), str(h['rows'][:2]), traced=True)
check('counters present', set(h['counters']) == {'unknown', 'running', 'probable', 'drop_full'}, str(h['counters']))
# two CPUs queue one waiter at most: no FIFO chain, holders come from who runs (sched_switch)
check('waits charged to a task seen running on the other CPU', h['counters']['running'] > 0, str(h['counters']), traced=True)
check('no holder map was full', h['counters']['drop_full'] == 0, str(h['counters']))
PY
# ---- the TUI: lruscope top --holders in tmux, the same load ---------------------
wait_for() {	# wait_for REGEX SECS: until the pane shows REGEX
	local i
	for ((i = 0; i < $2 * 4; i++)); do
		tm capture-pane -p -t top | grep -Eq -- "$1" && return 0
		sleep 0.25
	done
	return 1
}
if ! command -v tmux >/dev/null; then
	tap_fail "holders: tmux is missing (make deps)"
else
	tm new-session -d -s top -x 160 -y 50 \
		"env -i PATH=$PATH HOME=/root TERM=xterm-256color LC_ALL=C $LRS_BIN top --holders -i 1; sleep 30"
	wait_for 'holders: (estimated|exact)' 20; rc=$?
	tap_check "holders: top --holders names the mode in its header" [ "$rc" -eq 0 ]
	# the heavy memcg's lruvecs only, the hottest selected, the detail pane on
	tm send-keys -t top / "$heavy" Enter
	wait_for "$heavy.*@N" 10 || tm send-keys -t top Enter
	wait_for "holder's memcg" 10
	# the holder lines, right of the "holder's memcg ... imposed" heading: a long
	# path keeps its tail ("...est-hh123-shared"), the pid tells heavy from light
	holder_lines() {
		/usr/bin/python3 - "$1" <<'PY'
import sys
lines = open(sys.argv[1]).read().split('\n')
head = [i for i, l in enumerate(lines) if "holder's memcg" in l and ' imposed' in l]
if head:
    x = lines[head[0]].index(' imposed')
    print('\n'.join(l[x:].strip() for l in lines[head[0] + 1:] if len(l) > x))
PY
	}
	name="holders: top shows a holder of the heavy memcg in the detail pane"
	if lrs_traced "$name"; then
		for ((i = 0; i < 60; i++)); do	# until a holder of the heavy memcg was seen
			tm capture-pane -p -t top >"$tmp/top.txt"
			holder_lines "$tmp/top.txt" | grep -qF -- "${heavy#lrs-test-}shared" && break
			sleep 0.25
		done
		lines=$(holder_lines "$tmp/top.txt")
		tap_check "$name (holder lines: $(echo "${lines:-none}" | head -6 | tr '\n' '|'))" \
			grep -qF -- "${heavy#lrs-test-}shared" <<<"$lines"
	fi
	[ -n "${LRS_KEEP_SCREENS:-}" ] && cp "$tmp/top.txt" "$LRS_KEEP_SCREENS/holders-top.txt"
	top_pid=$(pgrep -P "$(tm display -p -t top '#{pane_pid}')" -x lruscope)
	top_ids=$(lrs_wait_bpf_loaded "${top_pid:-0}")
	tm send-keys -t top x
	wait_for 'waiter \\ (owner|holder)' 10; rc=$?
	tm capture-pane -p -t top >"$tmp/matrix.txt"
	[ -n "${LRS_KEEP_SCREENS:-}" ] && cp "$tmp/matrix.txt" "$LRS_KEEP_SCREENS/holders-matrix.txt"
	tap_check_traced "holders: x shows the memcg x memcg matrix with the heavy memcg in it" \
		bash -c '[ "$1" -eq 0 ] && sed -n "/waiter \\\\ /,\$p" "$2" | grep -q "/$3"' _ "$rc" "$tmp/matrix.txt" "$heavy"
	[ "$rc" -eq 0 ] || [ -n "$LRS_UNTRACED" ] || sed "s/^/#   /" "$tmp/matrix.txt"
	tm send-keys -t top c
	wait_for 'waiter \\ holder' 10; rc=$?
	tm capture-pane -p -t top >"$tmp/matrix2.txt"
	tap_check_traced "holders: c switches the matrix's columns to the holder's memcg, heavy first" \
		bash -c '[ "$1" -eq 0 ] && sed -n "/waiter \\\\ holder/p" "$2" | grep -q "^ *waiter \\\\ holder *\(/ *\)\?/$3"' _ "$rc" "$tmp/matrix2.txt" "$heavy"
	[ -n "${LRS_KEEP_SCREENS:-}" ] && cp "$tmp/matrix2.txt" "$LRS_KEEP_SCREENS/holders-matrix2.txt"
	tm send-keys -t top q
	for ((i = 0; i < 40; i++)); do kill -0 "${top_pid:-0}" 2>/dev/null || break; sleep 0.25; done
	tap_check "holders: q ends top --holders (pid ${top_pid:-none}), which held BPF programs ($top_ids)" \
		bash -c '[ -n "$1" ] && [ -n "$2" ] && ! kill -0 "$1" 2>/dev/null' _ "$top_pid" "$top_ids"
	lrs_tmux_end "$SOCK"
fi
for pid in "${LRS_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
for pid in "${LRS_PIDS[@]}"; do wait "$pid" 2>/dev/null; done
left=$(lrs_progs_left $report_ids ${top_ids:-})
tap_check "holders: none of the report's and top's BPF programs is left ($left of $(echo $report_ids ${top_ids:-}))" \
	[ -n "$report_ids" -a "$left" -eq 0 ]
left=$(find /sys/fs/cgroup -maxdepth 3 \( -name "$heavy*" -o -name "$light*" \) 2>/dev/null | wc -l)
tap_check "holders: no test cgroups left ($left)" [ "$left" -eq 0 ]
