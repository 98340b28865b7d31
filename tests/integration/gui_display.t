#!/usr/bin/env bash
# The GUI and displays: with none, a window is refused (SDL would draw it
# offscreen, unseen) with what to use instead, while --screenshot still draws
# headless; a recording's screenshot is its end, drawn without playing it in
# real time; with a display (Xvfb) the window shows.
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 13	# 4 with no display, 2 + gui_png.py's 6 (--contention) of the screenshot, 1 window

T=gui_display
[ -x "$LRS_BIN" ] || { tap_fail "$T: $LRS_BIN is missing (make)"; exit 1; }
for tool in Xvfb xdotool timeout; do
	command -v "$tool" >/dev/null || { tap_fail "$T: $tool is missing (make deps)"; exit 1; }
done
CHECK=$(dirname "$0")/gui_png.py
SYNTH=$(dirname "$0")/synth_recording.py
WORK=$(mktemp -d /tmp/lrs-test-gui-display.XXXXXX)
cleanup() {
	lrs_cleanup
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# no display at all, as over ssh without X forwarding
nodisplay() { env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$@"; }
# says_no_display FILE: the message says so and what to use instead
says_no_display() {
	grep -q "no display" "$1" && grep -q "lruscope top" "$1" && grep -q -- "--screenshot" "$1"
}

# ten snapshots 6 s apart: 54 s of recording
"$SYNTH" --snapshots 10 --interval 6 >"$WORK/long.jsonl"

# ---- no display ----------------------------------------------------------------------
nodisplay timeout 60 "$LRS_BIN" gui -d 3 >/dev/null 2>"$WORK/gui.err"
rc=$?
tap_check "$T: gui with no display exits 1 (rc $rc)" test $rc -eq 1
tap_check "$T: gui with no display says so, and to use top or --screenshot: $(tail -n1 "$WORK/gui.err")" \
	says_no_display "$WORK/gui.err"
nodisplay timeout 60 "$LRS_BIN" replay "$WORK/long.jsonl" --gui -d 3 >/dev/null 2>"$WORK/replay.err"
rc=$?
tap_check "$T: replay --gui with no display exits 1 (rc $rc)" test $rc -eq 1
tap_check "$T: replay --gui with no display says so" says_no_display "$WORK/replay.err"

# ---- a recording's screenshot: its end, at once ------------------------------------------
start=${EPOCHREALTIME/./}
nodisplay timeout 120 "$LRS_BIN" replay "$WORK/long.jsonl" --gui --screenshot "$WORK/long.png" \
	>/dev/null 2>"$WORK/shot.err"
rc=$?
ms=$(( (${EPOCHREALTIME/./} - start) / 1000 ))
tap_check "$T: replay --gui --screenshot with no display writes the PNG (rc $rc)" test $rc -eq 0 -a -s "$WORK/long.png"
# played in real time it would take 54 s; 20 s is far from either
tap_check "$T: replay --screenshot of 54 s of recording takes ${ms} ms, not the recording's time" \
	test "$ms" -lt 20000
"$CHECK" "$T: replay --screenshot" "$WORK/long.png" 1280 800 --contention

# ---- a display (Xvfb): the window shows -------------------------------------------------
lrs_xvfb "$T" "$WORK"
timeout 120 "$LRS_BIN" replay "$WORK/long.jsonl" --gui -d 6 >/dev/null 2>"$WORK/window.err" &
viewer=$!
lrs_track_pid $viewer
shown=""
for _ in $(seq 1 100); do
	shown=$(xdotool search --name "lruscope replay" 2>/dev/null | head -n1)
	[ -n "$shown" ] && break
	sleep 0.1
done
wait $viewer
rc=$?
tap_check "$T: with a display ($DISPLAY) replay --gui shows its window (id '$shown') and exits 0 (rc $rc)" \
	test -n "$shown" -a $rc -eq 0
