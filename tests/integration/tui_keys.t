#!/usr/bin/env bash
# Every key of the TUI (ui/keymap.c), pressed in a real screen: 'lruscope
# replay' of a made-up recording (30 memcgs and the root, two nodes, more rows
# than the pane: selection and scrolling matter) in tmux, and after each key
# what the screen shows: the selection marker and the detail pane's title (the
# selected lruvec), the rows shown, the legend, the time view's values, the
# help box, the replay's position, speed and interval, the sort, the filter,
# the holders matrix, q's exit status. The pane's TERM is tmux's own, so
# Home and End arrive as the keys they are. No root, no BPF. With
# LRS_KEYS_DRIVEN=FILE, writes into FILE each keymap action (as 'lruscope
# keys' names it) whose check passed (keys.t asks). See tests/PROTOCOL.md.
set -u
. "$(dirname "$0")/../lib.sh"
lrs_tmux_test tui_keys
tap_plan 45

# Twenty snapshots a second apart. /lrs-tk-K waits (K + 1) x 0.1 ms/s on N0 and
# twice that on N1: rows sorted by wait are tk-29 .. tk-00, then the root (no
# wait); the hottest cell is tk-29@N1. Holders: tk-29's waits on its own
# lruvec, behind holders in tk-28, 0.9 ms a frame.
REC=$WORK/keys.jsonl
PYTHONPATH=$LRS_ROOT/tests/lib /usr/bin/python3 - "$REC" <<'PY'
import sys
import lrs_recording
M = ["/lrs-tk-%02d" % k for k in range(30)]
ids = {p: v[0] for p, v in lrs_recording._memcg_tree(M).items()}
def holders(i):
    return {"mode": "estimated", "rows": [],
            "matrix": [{"waiter": M[29], "waiter_id": ids[M[29]], "owner": M[29], "owner_id": ids[M[29]],
                        "holder": M[28], "holder_id": ids[M[28]], "holds": 5 * i, "hold_ns": 100000 * i,
                        "imposed_ns": 900000 * i}],
            "counters": {"unknown": 0, "probable": 0, "running": i, "drop_full": 0}}
lrs_recording.write(sys.argv[1], M, 20, lambda i, m, n: (int(m[-2:]) + 1) * 1e5 * (2 if n else 1),
                    nodes=(0, 1), holders=holders)
PY

# drove ACTION: the checks since the last drove drove ACTION; kept for keys.t if all
# passed (a key pressed twice, on and off: the second check alone passes with a dead key)
LAST_OK=0 ALL_OK=1
drove() {
	[ "$ALL_OK" = 1 ] && [ -n "${LRS_KEYS_DRIVEN:-}" ] && echo "$1" >>"$LRS_KEYS_DRIVEN"
	ALL_OK=1
}
# verdict NAME COMMAND...: tap_check that also keeps its verdict for drove
verdict() {
	local name=$1; shift
	if "$@"; then LAST_OK=1; else LAST_OK=0 ALL_OK=0; fi
	tap_check "$name" [ "$LAST_OK" = 1 ]
}

S=keys
tm new-session -d -s $S -x 160 -y 40 \
	"env -i PATH=$PATH HOME=/ TERM=tmux-256color $LRS_BIN replay $REC; echo lrs-exit=\$?; sleep 60"
key() { tm send-keys -t $S "$@"; }
# check NAME REGEX [COMMAND...]: the screen shows REGEX within 5 s (and COMMAND holds)
# (the screen may be caught half drawn: both are asked again until they hold)
check() {
	local name=$1 re=$2 i; shift 2
	LAST_OK=0
	for ((i = 0; i < 20; i++)); do
		if lrs_screen_wait "$SOCK" $S "$re" 1 && { [ $# = 0 ] || "$@"; }; then
			LAST_OK=1
			break
		fi
	done
	tap_check "$T: $name" [ "$LAST_OK" = 1 ]
	[ "$LAST_OK" = 1 ] || { ALL_OK=0; lrs_screen_show; }
}
# on_screen REGEX: the last capture shows REGEX
on_screen() { grep -Eq -- "$1" <<<"$LRS_SCREEN"; }
not_on_screen() { ! on_screen "$1"; }
# the selected lruvec: the row marker, and the detail pane's title
selected() { grep -q -- "^>$1 " <<<"$LRS_SCREEN" && grep -q -- " $1@$2  lock 0x" <<<"$LRS_SCREEN"; }
title() { echo " $1@$2  lock 0x"; }
# the replay's position (frame N of 20) on the screen now
position() { sed -n 's/.* replay [0-9.]*x \([0-9]*\)\/20 .*/\1/p' <<<"$LRS_SCREEN" | head -1; }
# the time view's 'now' value of row tk-29
now_29() { grep -Eq -- "^>/lrs-tk-29 +$1 *$" <<<"$LRS_SCREEN"; }

check "the replay starts with the hottest cell selected, tk-29@N1" "$(title /lrs-tk-29 N1)" \
	selected /lrs-tk-29 N1

# ---- Space: pause; the position stays ------------------------------------------
key Space
check "Space pauses (PAUSED in the header)" 'replay 1x [0-9]+/20 .*PAUSED'
P=$(position)
sleep 1.5
lrs_screen_wait "$SOCK" $S PAUSED 1
echo "# paused at frame ${P:-none}, 1.5 s later at $(position)"
verdict "$T: paused, the position stays (frame $P)" test -n "$P" -a "$(position)" = "$P"
drove pause

# ---- arrows: the selected cell -------------------------------------------------
# selects KEY ACTION MEMCG NODE WHAT: KEY (ACTION) selects MEMCG@NODE
selects() {
	key "$1"
	check "$1 selects $5, ${3#/lrs-}@$4" "$(title "$3" "$4")" selected "$3" "$4"
	drove "$2"
}
selects Down down /lrs-tk-28 N1 "the next row"
selects Up up /lrs-tk-29 N1 "the row above again"
selects Left left /lrs-tk-29 N0 "the other node"
selects Right right /lrs-tk-29 N1 "N1 again"

# ---- PgDn PgUp Home End: a page is the rows shown less one (19 - 1) -------------
key PgDn
unscrolled() { grep -q '(rows 1-19 of 31)' <<<"$LRS_SCREEN"; }
first_page() { selected /lrs-tk-11 N1 && unscrolled; }
check "PgDn moves the selection a page down (18 rows: tk-11), the view still rows 1-19" \
	"$(title /lrs-tk-11 N1)" first_page
key PgDn
last_row() { grep -q '^>/  ' <<<"$LRS_SCREEN" && grep -q '(rows 13-31 of 31)' <<<"$LRS_SCREEN"; }
check "PgDn again reaches the last row (the root) and scrolls the view to rows 13-31" \
	"$(title / N1)" last_row
drove page-down
selects PgUp page-up /lrs-tk-17 N1 "a page up"
key Home
check "Home selects the first row (tk-29), the view back at rows 1-19" "$(title /lrs-tk-29 N1)" \
	unscrolled
drove home
key End
check "End selects the last row (the root), rows 13-31" "$(title / N1)" last_row
drove end
key Home
lrs_screen_wait "$SOCK" $S "$(title /lrs-tk-29 N1)" 5

# ---- d: the detail pane --------------------------------------------------------
key d
no_detail() { ! grep -q ' lock 0x.*Enter hides' <<<"$LRS_SCREEN" && grep -q '^ /lrs-tk-00 ' <<<"$LRS_SCREEN"; }
check "d hides the detail pane: every row fits (tk-00 shown, no '(rows' count)" \
	'memcgs 31, nodes 2  \|' no_detail
key d
check "d again shows it (tk-29@N1's title, rows 1-19)" "$(title /lrs-tk-29 N1)" unscrolled
drove detail

# ---- m: the cells' metric ------------------------------------------------------
key m
# tk-29's memcg id is 31 (the root is 1): 31000 inactive file pages on each node
check "m shows LRU pages (legend and tk-29's cells: 31000 a node, 62000 in all)" \
	'^>/lrs-tk-29 +31000 +31000 +62000 *$' on_screen '^LRU pages '
key m
check "m again: wait/s (tk-29: 3.0ms/s on N0, 6.0ms/s on N1)" \
	'^>/lrs-tk-29 +3\.0ms/s [0-9.k]+ +6\.0ms/s' on_screen '^lock wait/s '
drove metric

# ---- help: ? F1 h, closed by Esc and h -----------------------------------------
help_open='help \(h closes\)'
help_closed() { ! grep -Eq "$help_open" <<<"$LRS_SCREEN" && grep -q '^>/lrs-tk-29 ' <<<"$LRS_SCREEN"; }
key '?'
check "? opens the help" "$help_open" on_screen 'select a cell'
key Escape
check "Esc closes the help" '^>/lrs-tk-29 ' help_closed
drove escape
key F1
check "F1 opens the help" "$help_open"
key Escape
check "Esc closes it again" '^>/lrs-tk-29 ' help_closed
key h
check "h opens the help" "$help_open"
key h
check "h closes it" '^>/lrs-tk-29 ' help_closed
drove help
key Escape
sleep 1
lrs_screen_wait "$SOCK" $S '^>/lrs-tk-29 ' 1
still_there() { ! grep -q lrs-exit <<<"$LRS_SCREEN" && grep -q '^>/lrs-tk-29 ' <<<"$LRS_SCREEN"; }
verdict "$T: Esc with no help open does not quit the TUI" still_there
drove escape

# ---- t: the time view, its arrows -----------------------------------------------
history_hdr='^ memcg +wait/s history of N0 N1 all nodes'
key t
check "t shows the time view, tk-29's now on N1: 6.0ms/s" "$history_hdr" now_29 '6\.0ms/s'
key Left
check "Left in the time view: N0's history (3.0ms/s), N0 selected" "$(title /lrs-tk-29 N0)" \
	now_29 '3\.0ms/s'
key Right
check "Right: N1's again (6.0ms/s)" "$(title /lrs-tk-29 N1)" now_29 '6\.0ms/s'
key Right
check "Right past the last node: all nodes summed (9.0ms/s)" '^>/lrs-tk-29 +9\.0ms/s *$' \
	on_screen "$history_hdr"
key Left
check "Left from all nodes: N1 again (6.0ms/s)" '^>/lrs-tk-29 +6\.0ms/s *$' \
	on_screen "$history_hdr"
key t
check "t again: the heatmap (columns N0 N1 all nodes)" '^ memcg +N0 +N1 +all nodes'
drove time-view

# ---- the replay's keys: . , ] [ > < ----------------------------------------------
P=$(position)
key .
check "'.' steps one frame forward ($P to $((P + 1)))" "replay 1x $((P + 1))/20 .*PAUSED"
drove step-forward
key ,
check "',' steps back ($((P + 1)) to $P)" "replay 1x $P/20 .*PAUSED"
drove step-back
key ]
check "']' plays faster: 2x, every 0.5s" "replay 2x $P/20 every 0\.5s"
drove speed-up
key [
check "'[' slower: 1x again" "replay 1x $P/20 every 1s"
drove speed-down
key '>'
check "'>' seeks to the last frame (20/20)" 'replay 1x 20/20 .*PAUSED'
drove seek-end
key '<'
check "'<' seeks to the start (2/20: the first frame with rates)" 'replay 1x 2/20 .*PAUSED'
drove seek-start
key p
check "p resumes: no PAUSED, the position moves on past 2/20" 'replay 1x ([3-9]|1[0-9])/20 every 1s +\|' \
	not_on_screen PAUSED
key p
check "p pauses again" 'PAUSED'

# ---- + -: the interval, s: the sort, /: the filter --------------------------------
key -
check "- shortens the interval (every 0.5s)" 'replay 1x [0-9]+/20 every 0\.5s'
drove interval-down
key +
check "+ lengthens it again (every 1s)" 'replay 1x [0-9]+/20 every 1s'
drove interval-up
key s
check "s sorts by the next key: count" '\|  sort count'
drove sort
key /
tm send-keys -t $S -l tk-0
key Enter
check "/ tk-0 Enter filters the rows (10 shown)" 'filter "tk-0" \(10 shown\)' \
	not_on_screen '^ /lrs-tk-[12]'
drove filter

# ---- x c: the holders matrix ------------------------------------------------------
key x
check "x shows the memcg x memcg matrix, columns by lruvec owner (tk-29)" \
	'^ +waiter \\ owner +/lrs-tk-29 *$'
drove matrix
key c
check "c: its columns by holder's memcg (tk-28)" '^ +waiter \\ holder +/lrs-tk-28 *$'
drove matrix-columns
key x
check "x again: the heatmap" '^ memcg +N0 +N1 +all nodes'

# ---- q ----------------------------------------------------------------------------
key q
check "q quits with status 0" 'lrs-exit=0'
drove quit
exit 0
