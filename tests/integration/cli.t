#!/usr/bin/env bash
# The command line's own behaviour (cli/main.c, cli/cmd_*.c), through the real
# program: with no command, lruscope runs 'report' when its output is no
# terminal (a live report, printed and done) and 'top' on a terminal (tmux: the
# live heatmap, its BPF loaded, q quits); replay --once quits after the last
# snapshot where a replay without it holds the last frame paused; --no-color
# (and NO_COLOR) takes the colours out of the replay's TUI, and every escape
# out of report's and diff's text on a terminal, which is otherwise bold.
# Loading BPF needs root. See tests/PROTOCOL.md.
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 13
need_root cli
lrs_tmux_test cli

# two made-up recordings of 12 snapshots: /lrs-c-b waits 5x as long in the second
PYTHONPATH=$LRS_ROOT/tests/lib /usr/bin/python3 - "$WORK" <<'PY'
import sys
import lrs_recording
M = ["/lrs-c-a", "/lrs-c-b"]
lrs_recording.write(sys.argv[1] + "/a.jsonl", M, 12, lambda i, m, n: 2e6 if m == M[0] else 4e5)
lrs_recording.write(sys.argv[1] + "/b.jsonl", M, 12,
                    lambda i, m, n: 2e6 * (1 + 0.05 * (i % 3)))
PY
cd "$WORK" || exit 1

# start SESSION COMMAND...: COMMAND in a 150x40 pane; its last line says how it ended
start() {
	local s=$1; shift
	tm new-session -d -s "$s" -x 150 -y 40 -c "$WORK" \
		"env -i PATH=$PATH HOME=/ TERM=tmux-256color $*; echo lrs-exit=\$?; sleep 60"
}
# colours SESSION: the pane's text with its attributes as escapes
colours() { tm capture-pane -e -p -t "$1"; }
# has_colour TEXT: an escape that sets a foreground or background colour (39 and 49 reset them)
has_colour() { grep -qP '\x1b\[(?:[0-9]*;)*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9]*)*m' <<<"$1"; }
has_escape() { grep -q $'\e\\[' <<<"$1"; }
plain() { sed 's/\x1b\[[0-9;]*m//g' <<<"$1"; }

# ---- no command, no terminal: report ----------------------------------------------
"$LRS_BIN" </dev/null >"$WORK/noarg.out" 2>"$WORK/noarg.err"
rc=$?
echo "# lruscope with stdout a file: exit $rc, first line: $(head -n 1 "$WORK/noarg.out")"
tap_check "$T: no command, output no terminal: a live report of this kernel ($(uname -r)), exit 0 ($(head -c 200 "$WORK/noarg.err"))" \
	bash -c '[ "$1" = 0 ] && head -n 1 "$2" | grep -Eq "^lruscope report: [0-9.]+ s on Linux $3, " &&
		grep -q "lruvec (memcg@node)$" "$2"' _ "$rc" "$WORK/noarg.out" "$(uname -r)"

# ---- no command, a terminal: top ----------------------------------------------------
start top "$LRS_BIN"
pane_pid=$(tm display -p -t top '#{pane_pid}')
# top_live: the pane's lruscope holds BPF programs (the live collector), no recording
top_live() {
	local pid ids
	pid=$(pgrep -P "$pane_pid" -x lruscope)
	ids=$(lrs_wait_bpf_loaded "${pid:-0}")
	echo "# lruscope (pid ${pid:-none}) holds BPF programs: ${ids:-none}"
	[ -n "$ids" ] && ! grep -q ' replay ' <<<"$LRS_SCREEN"
}
top_ok=0	# q must end top, not a command that ended by itself
lrs_screen_check "$T: no command on a terminal: top, the live heatmap (its header, BPF loaded)" \
	top "^lruscope  $(uname -r | sed 's/[.+]/\\&/g')  " 30 top_live && top_ok=1
lrs_screen_check "$T: no command on a terminal: top's status line" top 'q quit' 5
tm send-keys -t top q
lrs_screen_check "$T: top: q quits with exit 0" top '^lrs-exit=0' 10 test "$top_ok" = 1

# ---- replay --once -------------------------------------------------------------------
start once "$LRS_BIN" replay --once --speed 8 a.jsonl
start held "$LRS_BIN" replay --speed 8 a.jsonl
lrs_screen_check "$T: replay --once quits by itself after the last snapshot, exit 0" once '^lrs-exit=0' 15
lrs_screen_check "$T: replay without --once holds the last frame, paused" held 'replay 8x 12/12 .*PAUSED' 15
sleep 1.5
lrs_screen_wait "$SOCK" held 'PAUSED' 1
tap_check "$T: replay without --once: still running 1.5 s later" bash -c '! grep -q lrs-exit <<<"$1"' _ "$LRS_SCREEN"
tm send-keys -t held q

# ---- --no-color: the replay's TUI ------------------------------------------------------
start coloured "$LRS_BIN" replay a.jsonl
start nocolour "$LRS_BIN" replay --no-color a.jsonl
start nocolour_env NO_COLOR=1 "$LRS_BIN" replay a.jsonl
for s in coloured nocolour nocolour_env; do lrs_screen_wait "$SOCK" $s '^>/lrs-c-a ' 10; done
c=$(colours coloured) n=$(colours nocolour) e=$(colours nocolour_env)
tap_check "$T: replay: the TUI has colours on a 256-colour terminal" has_colour "$c"
tap_check "$T: replay --no-color: the same heatmap without a colour" \
	bash -c '! grep -qP "\x1b\[(?:[0-9]*;)*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9]*)*m" <<<"$1" &&
		grep -q "^>/lrs-c-a " <<<"$2"' _ "$n" "$(plain "$n")"
tap_check "$T: replay with NO_COLOR set: no colour either" \
	bash -c '! grep -qP "\x1b\[(?:[0-9]*;)*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9]*)*m" <<<"$1" &&
		grep -q "^>/lrs-c-a " <<<"$2"' _ "$e" "$(plain "$e")"
for s in coloured nocolour nocolour_env; do tm send-keys -t $s q; done

# ---- --no-color: report's and diff's text on a terminal --------------------------------
start report "$LRS_BIN" report -i a.jsonl
start report_plain "$LRS_BIN" report -i a.jsonl --no-color
start diff "$LRS_BIN" diff a.jsonl b.jsonl
start diff_plain "$LRS_BIN" diff --no-color a.jsonl b.jsonl
for s in report report_plain diff diff_plain; do lrs_screen_wait "$SOCK" $s '^lrs-exit=0' 10; done
r=$(colours report) rp=$(colours report_plain) d=$(colours diff) dp=$(colours diff_plain)
# same_text_no_escape STYLED PLAIN: PLAIN has no escape and reads as STYLED does without its
same_text_no_escape() { has_escape "$1" && ! has_escape "$2" && [ "$(plain "$1")" = "$2" ] && [ -n "$2" ]; }
tap_check "$T: report -i on a terminal: headings bold; --no-color: the same text, no escape at all" \
	same_text_no_escape "$r" "$rp"
tap_check "$T: diff on a terminal: headings bold; --no-color: the same text, no escape at all" \
	same_text_no_escape "$d" "$dp"
tap_check "$T: diff's text names the change it found (/lrs-c-b about 5x, significant)" \
	grep -Eq '[45]\.[0-9]{2}x <0\.001\* .* /lrs-c-b@N0$' <<<"$(plain "$dp")"
exit 0
