#!/usr/bin/env bash
# replay - : a recording that comes through a pipe as it is written plays in
# the TUI as it comes, and the keys still work: a live 'record -o -', a
# recording written slowly, and 'tail -f' of a file being written. Driven in
# tmux; each check waits for what the screen must show.
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 11
need_root "replay_pipe"

T=replay_pipe
dir=$(mktemp -d /tmp/lrs-test-replay-pipe.XXXXXX)
session=lrs-test-replay-pipe-$$
SYNTH=$(dirname "$0")/synth_recording.py
tm() { tmux -L "$session" "$@"; }	# a tmux server of our own: kill-server touches nothing else
cleanup() {
	lrs_tmux_end "$session"
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$session"
	[ -s "$dir/rec.pid" ] && lrs_track_pid "$(cat "$dir/rec.pid")"
	lrs_cleanup
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

screen() { tm capture-pane -t "$S" -p; }
# The replay's position on screen: the N of "replay 1x N/M" (0 when none shows).
position() { screen | sed -n 's/.*replay [0-9.]*x \([0-9]*\)\/.*/\1/p' | head -n1 | grep . || echo 0; }
# wait_position SECS N: until the position is at least N
wait_position() {
	local i
	for ((i = 0; i < $1 * 5; i++)); do
		[ "$(position)" -ge "$2" ] && return 0
		sleep 0.2
	done
	return 1
}
# play: PRODUCER | lruscope replay - in a fresh tmux session; the replay's exit status
# goes to $dir/status (a file: Ctrl-C also ends the pane's shell)
plays=0
play() {
	rm -f "$dir/status"
	plays=$((plays + 1))
	S=play$plays	# a session each, in one server: it lives until the cleanup
	tm new-session -d -s "$S" -x 120 -y 30 \
		"$1 | { env TERM=xterm-256color $LRS_BIN replay -; echo \$? >$dir/status; }; sleep 60"
}
# exited_with SECS STATUS: until the replay has ended with STATUS
exited_with() {
	local i
	for ((i = 0; i < $1 * 5; i++)); do
		[ -s "$dir/status" ] && break
		sleep 0.2
	done
	[ "$(cat "$dir/status" 2>/dev/null)" = "$2" ]
}

# ---- a live recorder through a pipe ------------------------------------------------
# tee keeps what the recorder wrote: the replay must keep up with it
play "sh -c 'echo \$\$ >$dir/rec.pid; exec $LRS_BIN record -o - 2>$dir/rec.err' | tee $dir/live.jsonl"
written() { echo $(($(wc -l <"$dir/live.jsonl") - 1)); }
# loading BPF on a busy machine takes seconds; then a snapshot a second
wait_position 60 2
first=$(position)
tap_check "$T: record -o - | replay -: the TUI shows the live snapshots (at $first)" [ "$first" -ge 2 ]
for _ in $(seq 100); do [ "$(written)" -ge $((first + 4)) ] && break; sleep 0.2; done
now=$(written)
tap_check "$T: record -o - | replay -: it keeps up with the recorder (at $now written: $((now - 1)) shown within 10 s)" \
	wait_position 10 $((now - 1))
tm send-keys -t "$S" q
tap_check "$T: record -o - | replay -: q quits with status 0" exited_with 10 0
# the recorder ends at its next write: the reader went away
rec=$(cat "$dir/rec.pid" 2>/dev/null)
for _ in $(seq 50); do kill -0 "$rec" 2>/dev/null || break; sleep 0.2; done
tap_check "$T: record -o -: ends when the viewer quits" test -n "$rec" -a ! -d "/proc/$rec"

# ---- a recording written slowly into a pipe -------------------------------------------
# the writer stops after 4 lines until told to go on: they show while it waits
play "$SYNTH --snapshots 12 --interval 1 --slow 0.3 --hold 4 $dir/go"
tap_check "$T: slow writer | replay -: the lines written so far show while the writer waits (4)" \
	wait_position 20 4
touch "$dir/go"
tap_check "$T: slow writer | replay -: it plays on to the last line (12)" wait_position 30 12
# the stream's end holds the last frame, as a file's does: the viewer stays
sleep 1.5
tap_check "$T: slow writer | replay -: the end of the stream holds the last frame" \
	test "$(position)" -eq 12 -a ! -e "$dir/status"
tm send-keys -t "$S" q
tap_check "$T: slow writer | replay -: q quits with status 0" exited_with 10 0

# ---- tail -f of a file being written: no end; Ctrl-C ends it --------------------------
"$SYNTH" --snapshots 1 >"$dir/tail.jsonl"
play "tail -f $dir/tail.jsonl"
tap_check "$T: tail -f | replay -: the first snapshot shows" wait_position 20 1
"$SYNTH" --snapshots 8 --interval 1 | tail -n +3 >"$dir/more.jsonl"
while read -r line; do
	echo "$line" >>"$dir/tail.jsonl"
	sleep 0.3
done <"$dir/more.jsonl"
tap_check "$T: tail -f | replay -: the lines appended show as they come (8)" wait_position 20 8
tm send-keys -t "$S" C-c
tap_check "$T: tail -f | replay -: Ctrl-C ends it with status 0" exited_with 10 0
