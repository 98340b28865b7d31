#!/usr/bin/env bash
# 'lruscope replay' of a recording made up by tests/lib/lrs_recording.py, in
# tmux: what the keys do, on data whose every number is known. The selection
# follows the hottest cell (another memcg and node halfway through) until the
# user moves it, also across a seek; Esc cancels the filter being typed; -
# shortens the interval down to its last step; x and c show the holders matrix
# by lruvec owner, then by holder's memcg. Then the same file as user nobody:
# no root needed. See tests/PROTOCOL.md.
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 15
lrs_tmux_test replay
chmod 755 "$WORK"		# user nobody reads the recording too

# Ten snapshots a second apart, two nodes. Frames 1-4: gamma@N0 is the hottest
# cell and alpha the second row (by wait); from frame 5: beta@N1. Holders: waits
# of alpha and gamma on alpha's lruvec, behind holders in beta.
REC=$WORK/shift.jsonl
PYTHONPATH=$LRS_ROOT/tests/lib tap_python "$T: the recording" /usr/bin/python3 - "$REC" <<'PY'
import sys
import lrs_recording
M = ["/lrs-r-alpha", "/lrs-r-beta", "/lrs-r-gamma", "/lrs-r-delta"]
FIRST = {("/lrs-r-gamma", 0): 4e6, ("/lrs-r-alpha", 0): 1e6, ("/lrs-r-delta", 0): 5e5, ("/lrs-r-beta", 0): 2e5}
THEN = {("/lrs-r-beta", 1): 4e6, ("/lrs-r-gamma", 0): 1e6, ("/lrs-r-alpha", 0): 5e5, ("/lrs-r-delta", 0): 3e5,
        ("/lrs-r-beta", 0): 2e5}
def wait(i, m, n):
    return (FIRST if i <= 4 else THEN).get((m, n), 1e5)
def holders(i):
    cell = lambda w, wid, ns: {"waiter": w, "waiter_id": wid, "owner": "/lrs-r-alpha", "owner_id": ids["/lrs-r-alpha"],
                               "holder": "/lrs-r-beta", "holder_id": ids["/lrs-r-beta"], "holds": 5 * i,
                               "hold_ns": 100000 * i, "imposed_ns": ns * i}
    return {"mode": "estimated", "rows": [],
            "matrix": [cell("/lrs-r-alpha", ids["/lrs-r-alpha"], 900000), cell("/lrs-r-gamma", ids["/lrs-r-gamma"], 300000)],
            "counters": {"unknown": 0, "probable": 0, "running": i, "drop_full": 0}}
ids = {p: v[0] for p, v in lrs_recording._memcg_tree(M).items()}
lrs_recording.write(sys.argv[1], M, 10, wait, nodes=(0, 1), holders=holders)
PY
chmod 644 "$REC"

# start SESSION [PREFIX...]: lruscope replay REC in a 160x50 pane, run through PREFIX
# (setpriv ...); the pane's last line says how it ended.
start() {
	local s=$1; shift
	tm new-session -d -s "$s" -x 160 -y 50 \
		"$* env -i PATH=$PATH HOME=/ TERM=xterm-256color $LRS_BIN replay $REC; echo lrs-exit=\$?; sleep 60"
}
wait_for() { lrs_screen_wait "$SOCK" "$@"; }
# the detail pane's title names the selected cell
title() { echo " $1  lock 0x"; }
# shown_after OK CELL: the waits before went well (OK is 1) and CELL is the selected one now
shown_after() { [ "$1" = 1 ] && grep -q -- "$(title "$2")" <<<"$LRS_SCREEN"; }

# ---- the selection follows the hottest cell --------------------------------------
# three replays at once: one left alone, one where the user moves, one seeking
start follow
start moved
start seek
lrs_screen_check "$T: the first frames select the hottest cell, gamma@N0" follow "$(title /lrs-r-gamma@N0)" 10
# while gamma is the hottest (frames 1-4): Down in one, > (to the last frame) in the other
moved=1 seek=1
wait_for moved "$(title /lrs-r-gamma@N0)" 5 || moved=0
tm send-keys -t moved Down
wait_for seek "$(title /lrs-r-gamma@N0)" 5 || seek=0
tm send-keys -t seek '>'
lrs_screen_check "$T: the selection follows when another memcg's other node turns hottest, beta@N1" \
	follow "$(title /lrs-r-beta@N1)" 20
# Down from gamma: alpha, the second row, stays selected to the end (frame 10 of 10, paused)
wait_for moved "$(title /lrs-r-alpha@N0)" 5 || moved=0
lrs_screen_check "$T: once the user moved (Down to alpha@N0), the selection stays there to the end" \
	moved "replay 1x 10/10 every .*PAUSED" 20 shown_after "$moved" /lrs-r-alpha@N0
# > seeks to the last frame: held there, paused; the user moved nothing, so beta@N1 is selected
wait_for seek "replay 1x 10/10 every .*PAUSED" 10 || seek=0
lrs_screen_check "$T: > holds the last frame, paused, with its hottest cell beta@N1 selected (the user moved nothing)" \
	seek "$(title /lrs-r-beta@N1)" 5 test "$seek" = 1

# ---- x and c: the holders matrix ---------------------------------------------------
tm send-keys -t seek x
lrs_screen_check "$T: x shows the memcg x memcg matrix, columns by lruvec owner (alpha)" \
	seek '^ +waiter \\ owner +/lrs-r-alpha *$' 5
tm send-keys -t seek c
alpha_row() { grep -Eq "^/lrs-r-alpha +8\.1ms *$" <<<"$LRS_SCREEN"; }	# 9 x 0.9 ms imposed
lrs_screen_check "$T: c switches its columns to the holder's memcg (beta), alpha's row keeps its 8.1ms" \
	seek '^ +waiter \\ holder +/lrs-r-beta *$' 5 alpha_row
tm send-keys -t seek x
lrs_screen_check "$T: x again: back to the heatmap" seek '^ memcg +N0 +N1' 5
tm kill-session -t seek

# ---- Esc cancels the filter being typed --------------------------------------------
start filter
wait_for filter '/lrs-r-delta' 10
tm send-keys -t filter / ; tm send-keys -t filter -l gam; tm send-keys -t filter Enter
lrs_screen_check "$T: / gam Enter keeps the filter (1 row shown)" filter 'filter "gam" \(1 shown\)' 5
# typing applies at once; Esc goes back to the filter before the prompt opened
tm send-keys -t filter / ; tm send-keys -t filter -l zz
ok=1
wait_for filter 'filter "gamzz" \(0 shown\)' 5 || ok=0
wait_for filter '^filter: gamzz +\(Enter keeps, Esc cancels\)' 5 || ok=0
tm send-keys -t filter Escape
prompt_closed() { [ "$1" = 1 ] && ! grep -q "Esc cancels" <<<"$LRS_SCREEN" && tail -1 <<<"$LRS_SCREEN" | grep -q "q quit"; }
lrs_screen_check "$T: Esc while typing (gam+zz) restores the filter before it (gam) and closes the prompt" \
	filter 'filter "gam" \(1 shown\)' 5 prompt_closed "$ok"
# no filter before: Esc leaves none, every row is back
unfiltered='memcgs 5, nodes 2 +\|  sort [a-z]+ +\|'
tm send-keys -t filter / C-u Enter
wait_for filter "$unfiltered" 5
tm send-keys -t filter / ; tm send-keys -t filter -l delta
ok=1
wait_for filter 'filter "delta" \(1 shown\)' 5 || ok=0
tm send-keys -t filter Escape
all_rows() {
	local m
	[ "$1" = 1 ] || return 1
	for m in / /lrs-r-alpha /lrs-r-beta /lrs-r-gamma /lrs-r-delta; do
		grep -Eq "^[ >]$m " <<<"$LRS_SCREEN" || return 1
	done
}
lrs_screen_check "$T: Esc with no filter before: no filter, all five rows back" filter "$unfiltered" 5 all_rows "$ok"
tm kill-session -t filter

# ---- the header's totals: two memcgs' lruvec waits summed, the other locks apart ---------
FLAT=$WORK/flat.jsonl
PYTHONPATH=$LRS_ROOT/tests/lib /usr/bin/python3 - "$FLAT" <<'PY'
import sys
import lrs_recording
lrs_recording.write(sys.argv[1], ["/lrs-r-four", "/lrs-r-one"], 4,
                    lambda i, m, n: 4e6 if m.endswith("four") else 1e6, nodes=(0,))
PY
chmod 644 "$FLAT"
tm new-session -d -s totals -x 160 -y 50 "env -i PATH=$PATH HOME=/ TERM=xterm-256color $LRS_BIN replay $FLAT; sleep 60"
lrs_screen_check "$T: the header sums the lruvec locks' wait (4 + 1 ms/s) and shows the other locks apart" \
	totals '\|  lruvec locks 5\.0ms/s [0-9.]+k?/s  other locks 0 0/s' 10
tm kill-session -t totals

# ---- - : a shorter interval, down to 0.2 s -----------------------------------------
start interval
wait_for interval 'replay 1x [0-9]+/10 every 1s ' 10
tm send-keys -t interval -
lrs_screen_check "$T: - halves the interval (every 1s, then every 0.5s)" \
	interval 'replay 1x [0-9]+/10 every 0\.5s ' 5
tm send-keys -t interval -
ok=1
wait_for interval 'every 0\.2s ' 5 || ok=0
# 0.2 s is the last step: one more - stays there, so + gives 0.5 s again
tm send-keys -t interval - +
lrs_screen_check "$T: - stops at 0.2 s (- - - + gives 0.5 s)" interval 'every 0\.5s ' 5 test "$ok" = 1
tm kill-session -t interval

# ---- as user nobody: replay needs no root -------------------------------------------
if [ "$(id -u)" != 0 ]; then
	tap_skip_each "needs root to become nobody" "$T: as nobody, replay plays the recording to its end" \
		"$T: as nobody, q quits with status 0"
	exit 0
fi
start nobody setpriv --reuid=nobody --regid=nogroup --clear-groups
runs_as_nobody() {
	local pid uid
	pid=$(pgrep -P "$(tm display -p -t nobody '#{pane_pid}')" -x lruscope)
	uid=$(awk '/^Uid:/ {print $3}' "/proc/${pid:-0}/status" 2>/dev/null)
	echo "# replay's pid ${pid:-none}, uid ${uid:-none}"
	[ "$uid" = 65534 ]
}
lrs_screen_check "$T: as nobody, replay plays the recording to its end" \
	nobody "replay 1x 10/10 every .*PAUSED" 20 runs_as_nobody
tm send-keys -t nobody q
lrs_screen_check "$T: as nobody, q quits with status 0" nobody 'lrs-exit=0' 5
exit 0
