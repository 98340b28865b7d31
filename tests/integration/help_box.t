#!/usr/bin/env bash
# The TUI's help box and detail title fit the terminal: at 200x50, 80x24 and
# 50x20, in tmux over a replay of memcgs with long paths, no line passes the
# width, the detail pane's title does not spill into the next line, and every
# key of the keymap can be read in the help, scrolling (PgDn, j, k) where it
# does not fit; a wide terminal shows the keys in two columns, unscrolled.
# No root, no BPF.
set -u
. "$(dirname "$0")/../lib.sh"

# the terminal sizes tried, and the plan: 4 checks each, and 2 more at 200x50 (unscrolled,
# two columns) or 3 at another size (it scrolls, k, j): 20 for the three default sizes
sizes=${LRS_HELP_SIZES:-200x50 80x24 50x20}
planned=0
for size in $sizes; do
	case $size in 200x50) planned=$((planned + 6)) ;; *) planned=$((planned + 7)) ;; esac
done
tap_plan "$planned"

T=help_box
[ -x "$LRS_BIN" ] || { tap_fail "$T: $LRS_BIN is missing (make)"; exit 1; }
command -v tmux >/dev/null || { tap_fail "$T: tmux is missing (make deps)"; exit 1; }
TAG=lrs-test-help$$
WORK=$(mktemp -d /tmp/$TAG.XXXXXX)
tm() { tmux -L "$TAG" "$@"; }	# a tmux server of our own: kill-server touches nothing else
cleanup() {
	lrs_tmux_end "$TAG"
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$TAG"	# its socket stays behind otherwise
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$(dirname "$0")/synth_recording.py" --snapshots 30 --interval 1 \
	--prefix /lrs-test-a-rather-long-parent-name/lrs-test-a-long-child- >"$WORK/rec.jsonl"
# the TUI's keys (top's and a replay's): "keys<TAB>what they do"
"$LRS_BIN" keys | awk 'NR > 1 && $1 != "gui" { k = substr($0, 8, 18); sub(/ +$/, "", k); print k "\t" substr($0, 56) }' \
	>"$WORK/keys"

screen() { tm capture-pane -p -J -t "$S"; }
# wait_for ERE: until the screen shows it (10 s)
wait_for() {
	local i
	for i in $(seq 1 50); do
		screen | grep -qE -- "$1" && return 0
		sleep 0.2
	done
	return 1
}
# The lines of the screen in FILE longer than WIDTH, printed; 1 if any.
too_wide() { awk -v w="$2" 'length($0) > w { print "#   " length($0) ": " $0; bad = 1 } END { exit bad }' "$1"; }
# The detail title in FILE keeps to its line: "Enter hides" whole or not there, and
# the pane's first line under it (its text starts in column 2) starts blank.
title_on_its_line() {
	awk '/^.? ?(contended|no contention) / && !b { b = NR; body = $0; title = prev } { prev = $0 }
		END { if (!b) exit 1
		      exit (title ~ /Enter/ && title !~ /Enter hides/) || body ~ /^[^ ]/ }' "$1"
}
# The help in FILE fits: it says no "N-M of T lines" to scroll.
unscrolled() { ! grep -q " of [0-9]* lines" "$1"; }
# every_key_in FILE WHOLE: each TUI key is in FILE, at the start of a help entry, with
# its description: whole when WHOLE is 1 (a help as wide as its keys), else the first word
every_key_in() {
	local k what missing=0
	while IFS=$'\t' read -r k what; do
		[ "$2" = 1 ] || what=${what%% *}
		grep -qE -- "  $(quote "$k") +$(quote "$what")" "$1" ||
			{ echo "#   missing: '$k  $what'"; missing=1; }
	done <"$WORK/keys"
	return $missing
}
quote() { printf '%s' "$1" | sed 's/[][\.*^$?+(){}|/]/\\&/g'; }

for size in $sizes; do
	W=${size%x*} H=${size#*x} S=help-$size
	tm new-session -d -s "$S" -x "$W" -y "$H" \
		"env -i PATH=$PATH HOME=/root TERM=xterm-256color $LRS_BIN replay $WORK/rec.jsonl; sleep 60"
	wait_for "replay"
	tm send-keys -t "$S" G	# the last row: the longest title
	wait_for "^ *(contended|no contention)"
	screen >"$WORK/main"
	tap_check "$T $size: no line is wider than $W" too_wide "$WORK/main" "$W"
	tap_check "$T $size: the detail title stays on its line" title_on_its_line "$WORK/main"

	tm send-keys -t "$S" h
	wait_for "help \(h closes\)"
	screen >"$WORK/help"
	cp "$WORK/help" "$WORK/pages"
	wide=1
	# scroll a page at a time to the end: "N-M of T lines" until M = T
	for _ in $(seq 1 20); do
		where=$(sed -n 's/.* \([0-9]*\)-\([0-9]*\) of \([0-9]*\) lines.*/\1 \2 \3/p' "$WORK/help")
		[ -n "$where" ] || break
		read -r first last total <<<"$where"
		[ "$last" -ge "$total" ] && break
		tm send-keys -t "$S" NPage
		wait_for "$(printf ' (%s)-[0-9]+ of' "$(seq -s '|' $((first + 1)) "$total")")" || break
		screen >"$WORK/help"
		cat "$WORK/help" >>"$WORK/pages"
		too_wide "$WORK/help" "$W" >/dev/null || wide=0
	done
	tap_check "$T $size: the help is never wider than $W" test $wide -eq 1
	# from 80 columns on, each key's whole description must be readable, not only the key
	whole=0 detail=""
	if [ "$W" -ge 80 ]; then whole=1 detail=", whole"; fi
	tap_check "$T $size: every key of the keymap can be read in the help$detail" \
		every_key_in "$WORK/pages" "$whole"
	case $size in
	200x50)
		tap_check "$T $size: the help fits unscrolled" unscrolled "$WORK/pages"
		tap_check "$T $size: two key columns" grep -qE "arrows, k j l +select a cell .* [^ ]+ +[a-z]" "$WORK/pages"
		;;
	*)
		tap_check "$T $size: the help scrolls to its end (at ${last:-?} of ${total:-?})" \
			test -n "$where" -a "${last:-0}" -ge "${total:-1}"
		# k goes back a line, j forward again
		tm send-keys -t "$S" k
		first=${first:-1} total=${total:-?}
		tap_check "$T $size: k scrolls back a line" wait_for " $((first - 1))-[0-9]+ of $total lines"
		tm send-keys -t "$S" j
		tap_check "$T $size: j scrolls on a line" wait_for " $first-[0-9]+ of $total lines"
		;;
	esac
	tm send-keys -t "$S" q
	tm kill-session -t "$S"
done
