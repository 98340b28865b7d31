#!/usr/bin/env bash
# Holders on the running kernel: a heavy memcg (many readers, a small
# limit: constant reclaim) and a light one (two readers, room to spare) run
# at once; `report --holders -f json` must put the heavy memcg first among
# the test's holders and first in the matrix's holder columns; `gui --holders`
# draws the heavy memcg's row in its holders matrix; `top --holders` in tmux
# shows a holder of the heavy memcg and the matrix; so do `record --holders`,
# `report -i` and a replay of that recording.
# live: traced
# time-limit: 400 (the lab guest stretches each wait: a screen that never comes costs minutes)
set -u
. "$(dirname "$0")/../lib.sh"
need_contention_tracepoint "holders"
tap_plan 50
need_root "holders"
command -v tmux >/dev/null || { tap_fail "holders: tmux is missing (make deps)"; exit 1; }

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

start_load heavy --layout shared --readers 6 --duration 0 --size 512m --limit 32m --prefix "$heavy" ||
	{ tap_fail "holders: heavy workload started"; exit 1; }
start_load light --layout shared --readers 2 --duration 0 --size 64m --limit 256m --prefix "$light" ||
	{ tap_fail "holders: light workload started"; exit 1; }
sleep 1
# the report runs until SIGINT, sent after the recording's end and at least the recording's
# length after the report attached its own programs: its window then holds the recording's
# length of the same load whichever of the three loaded last (in the lab guest their loading
# takes seconds each and starves the readers while it runs)
# in check mode (LRS_CHECK_CLASSIFY=1): each use of a lock's hand-over record by its slot is
# checked against the slot its key has in lock_slots, as a lookup by key would find it, and
# each memcg the holder scan takes from its cache against a fresh read; with one per-CPU
# waiter row (LRS_PERCPU_WAITERS=1) the lock slots outnumber the waiter rows, so a record
# array sized by the wrong room leaves slots without a record, which the check counts
LRS_CHECK_CLASSIFY=1 LRS_PERCPU_WAITERS=1 "$LRS_BIN" report --holders -d 600 -f json --ready-file "$tmp/h.ready" \
	>"$tmp/h.json" 2>"$tmp/h.err" &
rpid=$!
lrs_track_pid "$rpid"
# over the same time: a GUI frame, and a recording with the holders, for report -i
# and a replay (the load's waits come in bursts: all three see the same)
timeout 120 "$LRS_BIN" gui --holders --screenshot "$tmp/gui.png" -d 8 -i 4 >"$tmp/gui.out" 2>&1 &
guipid=$!
lrs_track_pid "$guipid"
"$LRS_BIN" record --holders -o "$tmp/rec.jsonl.zst" -d 7 2>"$tmp/rec.err" &
recpid=$!
lrs_track_pid "$recpid"
# its programs, by id: others may run lruscope too, and nothing is pinned
report_ids=$(lrs_wait_bpf_loaded "$rpid")
tap_check "holders: the report loaded its BPF programs ($report_ids)" [ -n "$report_ids" ]
# the holder scan walks the CPUs up to the last online one, not every possible one (a
# box may have many more possible than present); the bound is set before load, in .rodata
# (the first program above may be another object's: wait for the lock collector's)
scan_cpus=$(bpftool -j map dump id "$(lrs_wait_map_of "$rpid" lockstat.rodata)" 2>/dev/null |
	/usr/bin/python3 -c 'import json, sys
print(*[v["scan_cpus"] for e in json.load(sys.stdin) for v in e["formatted"]["value"][".rodata"] if "scan_cpus" in v])' 2>/dev/null)
online_span=$(( $(tr ',' '\n' </sys/devices/system/cpu/online | tail -1 | sed 's/.*-//') + 1 ))
tap_check "holders: the holder scan covers the online CPUs, 0 to $((online_span - 1)) (scan_cpus ${scan_cpus:-not found} in .rodata)" \
	[ "${scan_cpus:-0}" = "$online_span" ]
# a lock's hand-over record sits at its counters' slot: the record array has a record for
# each slot of the per-CPU lock table (here more slots than per-CPU waiter rows)
max_of() { bpftool -j map show id "$(lrs_wait_map_of "$rpid" "$1")" 2>/dev/null |
	/usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["max_entries"])' 2>/dev/null; }
records=$(max_of lock_last_slots) slots=$(max_of lock_stats)
tap_check "holders: a hand-over record for each lock slot (${records:-?} records, ${slots:-?} slots)" \
	[ -n "$records" -a "${records:-0}" = "${slots:-1}" ]
lrs_ready "$tmp/h.ready" "$rpid" "$(lrs_secs 60)"; rc=$?
tap_check "holders: the report attached its lock programs (rc $rc: $(head -c 300 "$tmp/h.err"))" [ "$rc" -eq 0 ]
sleep 7	# its window: at least the recording's length from the report's own start
lrs_wait_for "$recpid" 60; rc=$?
lrs_untrack_pid "$recpid"
tap_check "holders: record --holders -d 7 exits 0 (rc $rc: $(head -c 300 "$tmp/rec.err"))" [ "$rc" -eq 0 ]
kill -INT "$rpid"
lrs_wait_for "$rpid" 60; rc=$?
lrs_untrack_pid "$rpid"
tap_check "holders: report --holders -f json exits 0 on SIGINT (rc $rc: $(head -c 300 "$tmp/h.err"))" [ "$rc" -eq 0 ]
# the hand-over record of a lock with a slot is the slot's (an array), of one without (the
# lock's first wait, before it has one) the one by key: both in use, the first always right
read -r lagreed ldisagreed lbykey < <(sed -n \
	's/^lruscope: hand-over record check: \([0-9]*\) uses by slot agreed, \([0-9]*\) disagreed, \([0-9]*\) by key$/\1 \2 \3/p' \
	"$tmp/h.err")
tap_check "holders: each hand-over record found by the lock's slot is its key's (${lagreed:-?} agreed, ${ldisagreed:-?} disagreed, ${lbykey:-?} by key)" \
	[ "${lagreed:-0}" -gt 0 -a "${ldisagreed:-1}" -eq 0 -a "${lbykey:-0}" -gt 0 ]
# rule 2's scan takes a running task's memcg from its css_set through a cache (the waiter's
# own, the last one read): each hit is read again through the css_set, and a run
# without a hit compared nothing, so it fails
read -r sagreed sdisagreed smisses < <(sed -n \
	's/^lruscope: running memcg cache check: \([0-9]*\) hits agreed, \([0-9]*\) disagreed, \([0-9]*\) misses$/\1 \2 \3/p' \
	"$tmp/h.err")
tap_check "holders: the scan's memcg of each running task is the one its css_set gives (${sagreed:-?} hits agreed, ${sdisagreed:-?} disagreed, ${smisses:-?} misses)" \
	[ "${sagreed:-0}" -gt 0 -a "${sdisagreed:-1}" -eq 0 ]
# every snapshot line carries the holders object whole (docs/recording-format.md)
lines=$(zstdcat "$tmp/rec.jsonl.zst" 2>/dev/null | tail -n +2 | wc -l)
with=$(zstdcat "$tmp/rec.jsonl.zst" 2>/dev/null | tail -n +2 |
	/usr/bin/python3 -c 'import json, sys; print(sum("mode" in (json.loads(l).get("holders") or {}) for l in sys.stdin))')
tap_check "holders: every snapshot line of the recording has its holders ($with of $lines)" \
	[ "$lines" -ge 5 -a "$with" = "$lines" ]
"$LRS_BIN" report -i "$tmp/rec.jsonl.zst" --holders -f json >"$tmp/rec.json" 2>"$tmp/rec-report.err"
rc=$?
echo "# report -i --holders -f json: exit $rc $(head -c 200 "$tmp/rec-report.err")"
# what the live report and the recording saw (report -i: its last snapshot, whole), for a
# run where either holds no holder: its spin source, the waits it counted on lruvecs and in
# all, its holder counters and its drops (waits that ended without a begin it saw count in task);
# a spin source other than the slowpath says why (its hooks refused or not attached)
# saw FILE WHAT: prints the waits FILE counted, then a line that says what it saw
saw() {
	/usr/bin/python3 - "$1" "$2" <<'PY' 2>&1
import json, sys
try:
    s = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    print(0)
    print("# %s: unreadable (%s)" % (sys.argv[2], e))
    sys.exit(0)
lruvec = sum(l.get("contended", 0) for l in s.get("lruvecs", []))
waits = lruvec + sum(l.get("contended", 0) for l in s.get("other_locks", []))
print(waits)
src = s.get("spin_source") or {}
print("# %s: spin source %s (%s), %d waits, %d of them on %d lruvecs, holder counters %s, drops %s"
      % (sys.argv[2], src.get("name"), (src.get("why") or "")[:300], waits, lruvec,
         len(s.get("lruvecs", [])), (s.get("holders") or {}).get("counters"), s.get("drops")))
PY
}
live_saw=$(saw "$tmp/h.json" "the live report")
echo "${live_saw#*$'\n'}" | tail -n 3
rec_waits=$(saw "$tmp/rec.json" "the recording's last snapshot")
echo "${rec_waits#*$'\n'}" | tail -n 3
rec_waits=$(head -n 1 <<<"$rec_waits")
timeout "$(lrs_secs 60)" "$LRS_BIN" report --holders -d 1 >"$tmp/h.txt" 2>&1; rc=$?
# the mode in its heading, the table's column heading, one matrix by owner and one by holder
tap_check "holders: the text report has the holder table and both matrices (rc $rc)" \
	bash -c '[ "$1" -eq 0 ] && grep -Eq "^holders: (estimated|exact)" "$2" &&
		grep -Eq "^ +imposed +held +holds +behind +holder \(pid comm\) +holder memcg, on lruvec$" "$2" &&
		grep -q "^memcg x memcg: .*columns: lruvec owner$" "$2" &&
		grep -q "^memcg x memcg: .*columns: holder.s memcg$" "$2"' _ "$rc" "$tmp/h.txt"
tap_check "holders: the text report counts the waits per rule ($(grep -o 'waits charged to a task seen running [0-9]*' "$tmp/h.txt"))" \
	grep -Eq '^waits charged to a task seen running [0-9]+, to an earlier acquirer [0-9]+, to nobody [0-9]+, map full [0-9]+$' "$tmp/h.txt"

# the live report's holders, then those report -i reads from the recording (its last line's)
for what in "h.json:" "rec.json:report -i of the recording: "; do
PYTHONPATH=$LRS_ROOT/tests/lib /usr/bin/python3 - "$tmp/${what%%:*}" "$heavy" "$light" "${what#*:}" <<'PY'
import json, sys
import lrs_tap
try:
    snap = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    snap = {'lruvecs': [], 'unreadable': str(e)}
heavy, light, what = sys.argv[2], sys.argv[3], sys.argv[4]
def check(name, ok, why=''):
    lrs_tap.check('holders: ' + what + name, ok, why)
h = snap.get('holders')
# exact mode's programs run on every acquisition: only --holders-exact loads them
check('a "holders" object with its mode, estimated (no exact mode without --holders-exact)',
      h and h['mode'] == 'estimated', str(h)[:200])
# without one, every check below still runs, and fails
h = h or {'rows': [], 'matrix': [], 'counters': {}}
ours = lambda m: m and (m.startswith('/' + heavy) or m.startswith('/' + light))
rows = [r for r in h['rows'] if ours(r['memcg'])]
rows.sort(key=lambda r: -r['imposed_ns'])
check('holders of the test memcgs are seen', len(rows) >= 2,
      '%d rows: %s; counters %s' % (len(rows), '; '.join(
          'pid %s %s on %s, %d ns' % (r.get('pid'), r['memcg'], r.get('lruvec'), r['imposed_ns'])
          for r in rows[:3]), json.dumps(h['counters'])[:300]))
check('the heavy memcg holds first', rows and rows[0]['memcg'].startswith('/' + heavy),
      ', '.join(f"{r['memcg']}:{r['imposed_ns']}" for r in rows[:4]) or 'no rows')
check('holder rows name a task', rows and all(r['pid'] > 0 and r['comm'] for r in rows), str(rows[:2]))
cols = {}
for c in h['matrix']:
    if ours(c['holder']):
        cols[c['holder']] = cols.get(c['holder'], 0) + c['imposed_ns']
top = sorted(cols.items(), key=lambda kv: -kv[1])
check('the heavy memcg is the first holder column of the matrix', top and top[0][0].startswith('/' + heavy), str(top))
lv = {(l['memcg'], l['node']) for l in snap['lruvecs']}
check('every holder row belongs to a reported lruvec', h['rows'] and
      all(r['lruvec'].rsplit('@N', 1)[0] in {m for m, _ in lv} for r in h['rows']), str(h['rows'][:2]))
# each lruvec wait's end charges a holder (or nobody, in a row of its own): a wait that finds
# no hand-over record charges nothing, so the charges fall short of the waits
holds = sum(r.get('holds', 0) for r in h['rows'])
lruvec_waits = sum(l.get('contended', 0) for l in snap['lruvecs'])
check('the holder rows charge nearly every lruvec wait (%d holds, %d waits)' % (holds, lruvec_waits),
      lruvec_waits > 0 and holds >= 0.9 * lruvec_waits)
check('counters present', set(h['counters']) == {'unknown', 'running', 'probable', 'drop_full'}, str(h['counters']))
# two CPUs queue one waiter at most: no FIFO chain, holders come from who runs (sched_switch)
check('waits charged to a task seen running on the other CPU', h['counters'].get('running', 0) > 0, str(h['counters']))
check('no holder map was full', h['counters'].get('drop_full') == 0, str(h['counters']))
PY
done
# ---- the GUI: gui --holders, a frame headless (taken over the report's time): the
# holders matrix in the side panel has the heavy memcg's row (found by its name),
# its cell coloured
heavy_memcg=$(grep -m1 '^/' "$tmp/heavy.out")
wait "$guipid"; rc=$?
lrs_untrack_pid "$guipid"
tap_check "holders: gui --holders --screenshot exits 0 (rc $rc: $(tail -c 300 "$tmp/gui.out"))" [ "$rc" -eq 0 ]
mkdir -p "$LRS_BUILD/tests/gui" && cp "$tmp/gui.png" "$LRS_BUILD/tests/gui/live-holders.png" 2>/dev/null
/usr/bin/python3 "$(dirname "$0")/gui_png.py" "holders: gui --holders" "$tmp/gui.png" 1280 800 \
	--matrix-row "$heavy_memcg"

# ---- the TUI: lruscope top --holders in tmux, the same load; then a replay -----
# wait_for SESSION REGEX SECS: until the pane shows REGEX (bounded by the clock)
wait_for() { lrs_screen_wait "$SOCK" "$@"; }
# on the screen lrs_screen_check captured (LRS_SCREEN): the matrix has memcg $1; the
# holder-column heading starts with memcg $1's "shared" tail
matrix_has() { sed -n "/waiter \\\\ /,\$p" <<<"$LRS_SCREEN" | grep -q "/$1"; }
holder_first() { sed -n '/waiter \\ holder/p' <<<"$LRS_SCREEN" | grep -Eq "^ *waiter \\\\ holder +(/ +)?[^ ]*$1shared( |\$)"; }
# the holder lines, right of the "holder's memcg ... imposed" heading: a long
# path keeps its tail ("...est-hh123-shared"), the pid tells heavy from light
# (awk, not Python: it runs a few times a second, and the lab guest starts Python slowly)
holder_lines() {
	awk 'x { if (length($0) >= x) { l = substr($0, x); gsub(/^ +| +$/, "", l); print l }; next }
	     /holder.s memcg/ && (x = index($0, " imposed")) { }' "$1"
}
# holders_screens SESSION WHAT: 4 checks of WHAT (top or replay) in SESSION: the
# mode in the header, a holder of the heavy memcg in the detail pane, the
# matrix (x) with the heavy memcg, its columns by holder (c) with heavy first
holders_screens() {
	local s=$1 what=$2 rc lines end moves next
	wait_for "$s" 'holders: (estimated|exact)' 20; rc=$?
	tap_check "holders: $what names the holders' mode in its header" [ "$rc" -eq 0 ]
	# the heavy memcg's lruvecs only, the hottest selected, the detail pane on
	tm send-keys -t "$s" / "$heavy" Enter
	wait_for "$s" "$heavy.*@N" 10 || tm send-keys -t "$s" Enter
	wait_for "$s" "holder's memcg" 10
	# until a holder of the heavy memcg was seen (bounded by the clock); the lab guest has
	# two nodes, and the lruvec first selected (the hottest now) may be the one with no
	# holder yet: every two seconds the selection moves to the heavy memcg's other row and back
	end=$((SECONDS + $(lrs_secs 15))) moves=0 next=$((SECONDS + 2))
	while :; do
		tm capture-pane -p -t "$s" >"$tmp/$s.txt"
		holder_lines "$tmp/$s.txt" | grep -qF -- "${heavy#lrs-test-}shared" && break
		[ "$SECONDS" -lt "$end" ] || break
		if [ "$SECONDS" -ge "$next" ]; then
			if ((moves++ % 2 == 0)); then tm send-keys -t "$s" Down; else tm send-keys -t "$s" Up; fi
			next=$((SECONDS + 2))
		fi
		sleep 0.25
	done
	lines=$(holder_lines "$tmp/$s.txt")
	seen=0
	grep -qF -- "${heavy#lrs-test-}shared" <<<"$lines" && seen=1
	tap_check "holders: $what shows a holder of the heavy memcg in the detail pane (holder lines: $(echo "${lines:-none}" | head -6 | tr '\n' '|'); the selection moved $moves times)" \
		[ "$seen" -eq 1 ]
	[ "$seen" -eq 1 ] || sed "s/^/#   /" "$tmp/$s.txt"
	tm send-keys -t "$s" x
	lrs_screen_check "holders: $what: x shows the memcg x memcg matrix with the heavy memcg in it" \
		"$s" 'waiter \\ (owner|holder)' 10 matrix_has "$heavy"
	echo "$LRS_SCREEN" >"$tmp/$s-matrix.txt"
	# a column heading keeps a long path's tail ("...est-hh123-shared")
	tm send-keys -t "$s" c
	lrs_screen_check "holders: $what: c switches the matrix's columns to the holder's memcg, heavy first" \
		"$s" 'waiter \\ holder' 10 holder_first "${heavy#lrs-test-}"
	echo "$LRS_SCREEN" >"$tmp/$s-matrix2.txt"
	sed -n '/waiter \\ holder/p' "$tmp/$s-matrix2.txt" | sed 's/^/#   /'
	if [ -n "${LRS_KEEP_SCREENS:-}" ]; then
		cp "$tmp/$s.txt" "$tmp/$s-matrix.txt" "$tmp/$s-matrix2.txt" "$LRS_KEEP_SCREENS/"
	fi
}
tm new-session -d -s top -x 160 -y 50 \
	"env -i PATH=$PATH HOME=/root TERM=xterm-256color LC_ALL=C $LRS_BIN top --holders -i 1; sleep 30"
wait_for top 'holders: (estimated|exact)' 20
top_pid=$(pgrep -P "$(tm display -p -t top '#{pane_pid}')" -x lruscope)
top_ids=$(lrs_wait_bpf_loaded "${top_pid:-0}")
holders_screens top "top --holders"
tm send-keys -t top q
for ((i = 0; i < 40; i++)); do kill -0 "${top_pid:-0}" 2>/dev/null || break; sleep 0.25; done
tap_check "holders: q ends top --holders (pid ${top_pid:-none}), which held BPF programs ($top_ids)" \
	bash -c '[ -n "$1" ] && [ -n "$2" ] && ! kill -0 "$1" 2>/dev/null' _ "$top_pid" "$top_ids"

# the recording made with --holders, replayed: the same screens, without BPF
if [ "${rec_waits:-0}" -gt 0 ] 2>/dev/null; then
	tm new-session -d -s replay -x 160 -y 50 \
		"env -i PATH=$PATH HOME=/root TERM=xterm-256color LC_ALL=C $LRS_BIN replay --speed 2 $tmp/rec.jsonl.zst; echo replay-exit-\$?; sleep 30"
	holders_screens replay "replay of a recording made with --holders"
	tm send-keys -t replay q
	wait_for replay 'replay-exit-0' 10; rc=$?
	tap_check "holders: q ends the replay with status 0" [ "$rc" -eq 0 ]
else
	# no screen of it can show a holder: fail its checks now, not after every wait's bound
	for what in "names the holders' mode in its header" "shows a holder of the heavy memcg" \
		"x shows the matrix with the heavy memcg" "c shows the holder columns, heavy first" \
		"q ends it with status 0"; do
		tap_fail "holders: replay of a recording made with --holders: $what (the recording counted no wait: ${rec_waits:-unreadable})"
	done
fi
lrs_tmux_end "$SOCK"
for pid in "${LRS_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
# each ends within a minute, or is named with where it waits in the kernel and killed
for pid in "${LRS_PIDS[@]}"; do lrs_wait_for "$pid" 60; done
LRS_PIDS=()
left=$(lrs_progs_left $report_ids ${top_ids:-})
tap_check "holders: none of the report's and top's BPF programs is left ($left of $(echo $report_ids ${top_ids:-}))" \
	[ -n "$report_ids" -a "$left" -eq 0 ]
left=$(find /sys/fs/cgroup -maxdepth 3 \( -name "$heavy*" -o -name "$light*" \) 2>/dev/null | wc -l)
tap_check "holders: no test cgroups left ($left)" [ "$left" -eq 0 ]
