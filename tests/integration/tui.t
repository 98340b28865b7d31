#!/usr/bin/env bash
# 'lruscope top' driven in tmux against the live kernel: a readtwice load in
# nested lrs-test-* memcgs, the real BPF collector, the screen as a user sees
# it (capture-pane), keys, and the terminal and kernel left clean after q,
# SIGTERM and a lost terminal. Needs root. See tests/PROTOCOL.md.
# live: traced
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 21

T=tui
need_root "$T"
for tool in tmux bpftool; do
	command -v "$tool" >/dev/null || { tap_fail "$T: $tool is missing (make deps)"; exit 1; }
done
[ -x "$LRS_BIN" ] || { tap_fail "$T: $LRS_BIN is missing (make)"; exit 1; }

TAG=lrs-test-tui$$
SOCK=$TAG			# a tmux server of our own: kill-server touches nothing else
WORK=$(mktemp -d /var/tmp/$TAG.XXXXXX)
COLS=160 LINES_=50
tm() { tmux -L "$SOCK" "$@"; }

cleanup() {
	lrs_tmux_end "$SOCK"
	lrs_cleanup
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- the load -----------------------------------------------------------------
# 'lruscope workload' (the demo's load) in one nested memcg; dd readers if it is
# not in this build.
memcg=""
start_load() {
	local root ver line i
	if "$LRS_BIN" workload --help >/dev/null 2>&1; then
		# on node 0: the row's first cell (N0) is the one its waits are in, on two nodes too
		$(lrs_node0) "$LRS_BIN" workload --layout shared --readers 4 --duration 0 --size 512m --limit 64m \
			--prefix "$TAG-" --nest >"$WORK/load.out" 2>"$WORK/load.err" &
		lrs_track_pid $!
		for i in $(seq 1 60); do
			memcg=$(grep -m1 '^/' "$WORK/load.out" 2>/dev/null)
			[ -n "$memcg" ] && break
			sleep 0.5
		done
		[ -n "$memcg" ] && return 0
		echo "# workload printed no memcg: $(tr '\n' ' ' <"$WORK/load.err")"
		return 1
	fi
	read -r ver root < <(lrs_memcg_root) || return 1
	memcg=/$TAG-parent/$TAG-shared
	mkdir -p "$root/$TAG-parent" && lrs_track_cgroup "$root/$TAG-parent" || return 1
	[ "$ver" = v2 ] && echo +memory >"$root/$TAG-parent/cgroup.subtree_control"
	mkdir "$root$memcg" && lrs_track_cgroup "$root$memcg" || return 1
	if [ "$ver" = v2 ]; then echo 64M >"$root$memcg/memory.max"
	else echo 64M >"$root$memcg/memory.limit_in_bytes"; fi
	for i in 0 1; do
		truncate -s 512M "$WORK/f$i"
		for _ in 1 2; do
			sh -c 'echo $$ >"$1/cgroup.procs"; while :; do dd if="$2" of=/dev/null bs=4k 2>/dev/null; done' \
				sh "$root$memcg" "$WORK/f$i" &
			lrs_track_pid $!
		done
	done
}

# ---- tmux helpers ------------------------------------------------------------
screen_text() { tm capture-pane -p -t "$1"; }
screen_esc() { tm capture-pane -p -e -t "$1"; }

# wait_for SESSION REGEX [SECS]: until the pane shows REGEX, at most SECS by the clock.
wait_for() { lrs_screen_wait "$SOCK" "$@"; }

# start_top SESSION ENV...: a shell in a fixed-size pane, lruscope top in it.
top_pid=""
start_top() {
	local s=$1 i pane; shift
	tm new-session -d -s "$s" -x "$COLS" -y "$LINES_" \
		"env -i PATH=$PATH HOME=/root PS1='lrs-tui-shell\$ ' bash --norc --noprofile"
	wait_for "$s" 'lrs-tui-shell' 10 || return 1
	tm send-keys -t "$s" "env $* $LRS_BIN top -i 1; echo lrs-exit=\$?" Enter
	pane=$(tm display -p -t "$s" '#{pane_pid}')
	top_pid=""
	for i in $(seq 1 $(( $(lrs_secs 10) * 4 ))); do
		top_pid=$(pgrep -P "$pane" -x lruscope | head -1)
		[ -n "$top_pid" ] && break
		sleep 0.25
	done
	[ -n "$top_pid" ] || return 1
	lrs_track_pid "$top_pid"
}

# The BPF programs the running lruscope holds (ids from its fds).
prog_ids() {
	grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{print $2}' | sort -u
}

# progs_gone IDS...: there are some, and none of them is still loaded (within 5 s).
progs_gone() { [ $# -gt 0 ] && [ "$(lrs_progs_left "$@")" = 0 ]; }

exited() {
	local pid=$1 i
	for i in $(seq 1 40); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.25
	done
	return 1
}

# save_screen SESSION NAME: one capture, with its colours (NAME.esc) and without (NAME.txt,
# as capture-pane -p prints it): a check that reads both judges one frame
save_screen() {
	screen_esc "$1" >"$WORK/$2.esc"
	sed -e $'s/\e\\[[0-9;?]*[A-Za-z]//g; s/[\x0e\x0f]//g; s/ *$//' "$WORK/$2.esc" >"$WORK/$2.txt"
}

# shows SESSION NAME SECS TEST...: save the pane as NAME until TEST (a command that reads
# $WORK/NAME.txt and .esc) passes on it. Each check judges the frame it was true of: a
# frame matched and then captured again may be the next one, a quiet interval.
shows() {
	local s=$1 name=$2 secs i; shift 2
	secs=$(lrs_secs "$1"); shift
	for ((i = 0; i < secs * 2; i++)); do
		save_screen "$s" "$name"
		"$@" && return 0
		sleep 0.5
	done
	return 1
}

# The load's state, when a check found no wait: are its readers still in the memcg?
load_state() {
	local root
	root=$(lrs_memcg_root | cut -d' ' -f2)
	echo "# load: $(cat "$root$memcg/cgroup.procs" 2>/dev/null | wc -l) tasks in $memcg;" \
		"workload: $(tr '\n' ' ' <"$WORK/load.err" | head -c 300)"
}

# Print a screen into the TAP output on failure: it is what the user saw.
show() { sed 's/^/#   /' "$WORK/$1.txt"; }

if ! start_load; then
	tap_fail "$T: the readtwice load did not start"
	exit 1
fi
leaf=${memcg##*/}
echo "# load in $memcg"

# ---- 1: 256 colours, keys, q ------------------------------------------------
# a session that stays: killing a test's last session would end the server
# while the next one starts
tm new-session -d -s keep -x 20 -y 5 "sleep 600"
S1=main
if ! start_top "$S1" TERM=xterm-256color; then
	tap_fail "$T: lruscope top did not start in tmux"
	screen_text "$S1" | sed 's/^/#   /'
	exit 1
fi
# a row for our memcg with a rate, in a 256-colour cell: the load contends within a few
# intervals
first_shows_wait() {
	grep -Eq -- "$leaf .*[0-9.]+[mun]?s/s" "$WORK/first.txt" &&
		grep "$leaf" "$WORK/first.esc" | grep -q $'\e\\[[0-9;]*48;5;[0-9]*m'
}
if shows "$S1" first 30 first_shows_wait; then
	tap_ok "$T: the test memcg's row shows its lruvec lock wait"
else
	tap_fail "$T: no contended row for $memcg"; load_state
fi
# read only now: until the first frame, top may still be loading its programs
ids=$(prog_ids "$top_pid")
grep -q "lruscope .* live every 1s" "$WORK/first.txt" && grep -q "drops: task" "$WORK/first.txt" &&
	grep -q "lruvec locks" "$WORK/first.txt" &&
	tap_ok "$T: header: kernel, interval, totals, drop counters" ||
	{ tap_fail "$T: header incomplete"; show first; }
# the legend's scale
legend="lock wait/s .* max [0-9.]+[mun]?s/s"
grep -Eq "$legend" "$WORK/first.txt" &&
	tap_ok "$T: colour legend" || { tap_fail "$T: no legend"; show first; }
# a coloured cell: a 256-colour background on our memcg's line
grep "$leaf" "$WORK/first.esc" | grep -q $'\e\\[[0-9;]*48;5;[0-9]*m' &&
	tap_ok "$T: the test memcg's cell is coloured (256 colours)" ||
	{ tap_fail "$T: no 256-colour cell on the $leaf row"; grep "$leaf" "$WORK/first.esc" | cat -v | sed 's/^/#   /'; }
# the parent memcg too, indented above its child (tree order)
parent_leaf=$(basename "$(dirname "$memcg")")
awk -v p="$parent_leaf" -v c="$leaf" 'index($0, p) && !index($0, c) {pl = NR} index($0, c) {cl = NR} END {exit !(pl && cl && pl < cl)}' \
	"$WORK/first.txt" && tap_ok "$T: nested memcgs in tree order" ||
	{ tap_fail "$T: parent $parent_leaf not above $leaf"; show first; }
grep -q "other locks (top" "$WORK/first.txt" &&
	tap_ok "$T: other locks listed" || { tap_fail "$T: no other locks"; show first; }

# select our memcg with the filter, then the detail pane is about it
tm send-keys -t "$S1" / ; tm send-keys -t "$S1" -l "$leaf"; tm send-keys -t "$S1" Enter
if wait_for "$S1" "$leaf@N[0-9]+ +lock 0x" 10 && wait_for "$S1" "top waiters" 5; then
	# the pane is about the last interval: wait for one that the load contended (in a
	# TCG guest, seconds can pass between waits); its stacks are sampled, and an interval
	# that sampled none shows those since the start: the first stack ("#1", its share of
	# the stacks' wait) once the lruvec had one sampled, with the default stack limits
	detail_complete() {
		grep -q "LRU pages: .*inactive_file" "$WORK/detail.txt" && grep -q "wait histogram" "$WORK/detail.txt" &&
			grep -q "top waiting stacks" "$WORK/detail.txt" && grep -Eq "#1 +[0-9]+% " "$WORK/detail.txt" &&
			grep -Eq "contended [0-9.]+[kMG]? \(" "$WORK/detail.txt"
	}
	if shows "$S1" detail 20 detail_complete; then
		tap_ok "$T: detail pane: counts, histogram, waiters, stacks, LRU sizes"
	else
		tap_fail "$T: detail pane incomplete"; show detail; load_state
	fi
else
	save_screen "$S1" detail
	tap_fail "$T: the detail pane does not show $leaf"; show detail
fi
# wait_gone SESSION REGEX [SECS]: until the pane no longer shows REGEX.
wait_gone() {
	local s=$1 re=$2 secs=${3:-20} i
	for ((i = 0; i < secs * 4; i++)); do
		screen_text "$s" | grep -Eq -- "$re" || return 0
		sleep 0.25
	done
	return 1
}
# Enter hides it, Enter brings it back
tm send-keys -t "$S1" Enter
if wait_gone "$S1" "top waiters" 5; then
	tm send-keys -t "$S1" Enter
	wait_for "$S1" "top waiters" 5 && tap_ok "$T: Enter toggles the detail pane" ||
		tap_fail "$T: Enter did not bring the detail pane back"
else
	tap_fail "$T: Enter did not hide the detail pane"
fi
# t: the time view, each row's wait history as coloured cells over a time axis
# strip_cells FILE LEAF: the columns of LEAF's row, right of the heading "wait/s
# history of" and left of the value column, whose background is a 256 colour.
strip_cells() {
	/usr/bin/python3 - "$1" "$2" "$COLS" <<'PY'
import re, sys
esc, leaf, cols = open(sys.argv[1], errors="replace").read().split("\n"), sys.argv[2], int(sys.argv[3])
def cells(line):
    out, bg = [], None
    for tok in re.findall(r"\x1b\[[0-9;]*m|\x1b\[[0-9;?]*[A-Za-z]|[\x0e\x0f]|.", line):
        if tok.startswith("\x1b["):
            if tok.endswith("m"):
                ps = tok[2:-1].split(";") if tok[2:-1] else ["0"]
                for i, p in enumerate(ps):
                    if p in ("0", "49"): bg = None
                    elif p == "48" and i + 2 < len(ps) and ps[i + 1] == "5": bg = ps[i + 2]
            continue
        if tok in "\x0e\x0f":
            continue
        out.append((tok, bg))
    return out
hdr = next(("".join(c for c, _ in cells(l)) for l in esc if "wait/s history of" in l), "")
x0 = hdr.find("wait/s history of")
row = next((cells(l) for l in esc if leaf + " " in "".join(c for c, _ in cells(l))), [])
print(" ".join(str(x) for x, (_, bg) in enumerate(row) if bg and x0 > 0 and x0 <= x < cols - 10))
PY
}
# the time view shows the selected cell's node: the selection followed the hottest cell until
# the filter, on either node; the load's pages, and its waits, are on node 0
tm send-keys -t "$S1" Left; tm send-keys -t "$S1" Left
wait_for "$S1" "$leaf@N0 +lock 0x" 5 || { save_screen "$S1" left; echo "# Left did not select N0"; show left; }
tm send-keys -t "$S1" t
# time_strip_hot: the time view's heading, and 3 or more coloured cells in the row's strip
time_strip_hot() {
	hot=$(strip_cells "$WORK/time.esc" "$leaf")
	n=$(echo $hot | wc -w)
	grep -q "wait/s history of N0" "$WORK/time.txt" && [ "$n" -ge 3 ]
}
if wait_for "$S1" "a cell: 1s .*-10s .*now *$" 5; then
	# history builds up a cell a second: the memcg is young when the load starts late
	if shows "$S1" time 30 time_strip_hot; then
		tap_ok "$T: t shows the time view: $leaf's history in $n coloured cells over a time axis"
	else
		tap_fail "$T: time view: heading or coloured history cells missing ($n cells: $hot)"
		show time; grep "$leaf" "$WORK/time.esc" | cat -v | sed 's/^/#   /'; load_state
	fi
	# the newest cell is the last column of the strip, where the axis says now
	axis_now=$(grep "a cell: 1s" "$WORK/time.txt" | sed 's/ *$//' | awk '{print length($0) - 1}')
	last=${hot##* }
	[ -n "$last" ] && [ "$last" -le "$axis_now" ] && [ "$axis_now" -eq $((COLS - 11)) ] &&
		tap_ok "$T: the time view's newest cells end under 'now'" ||
		{ tap_fail "$T: strip cells up to column ${last:-none}, 'now' ends at $axis_now"; show time; }
	tm send-keys -t "$S1" t
	wait_for "$S1" "all nodes|memcg \(tree\) +N0" 5 && ! screen_text "$S1" | grep -q "wait/s history of" &&
		tap_ok "$T: t again: back to the heatmap" ||
		{ tap_fail "$T: t did not bring the heatmap back"; screen_text "$S1" | sed 's/^/#   /'; }
else
	save_screen "$S1" time
	tap_fail "$T: t did not show the time view's axis"; show time
	tap_fail "$T: the time view's newest cells end under 'now': no time view"
	tap_fail "$T: t again: back to the heatmap: no time view to leave"
fi

# help, sort, pause: each shows on screen
tm send-keys -t "$S1" h; wait_for "$S1" "help \(h closes\)" 5 && h1=1 || h1=0
tm send-keys -t "$S1" h; tm send-keys -t "$S1" s; wait_for "$S1" "sort wait" 5 && h2=1 || h2=0
tm send-keys -t "$S1" p; wait_for "$S1" "PAUSED" 5 && h3=1 || h3=0
tm send-keys -t "$S1" p; tm send-keys -t "$S1" +; wait_for "$S1" "live every 2s" 5 && h4=1 || h4=0
[ "$h1$h2$h3$h4" = 1111 ] && tap_ok "$T: keys h, s, p, + act" ||
	{ tap_fail "$T: keys: help $h1 sort $h2 pause $h3 interval $h4"; screen_text "$S1" | sed 's/^/#   /'; }

tm send-keys -t "$S1" q
if exited "$top_pid" && wait_for "$S1" "lrs-exit=0" 5; then
	tap_ok "$T: q quits with status 0"
else
	tap_fail "$T: q did not end lruscope"
fi
[ "$(tm display -p -t "$S1" '#{alternate_on}')" = 0 ] && screen_text "$S1" | grep -q 'lrs-tui-shell\$ *$' &&
	tap_ok "$T: q restores the terminal (shell prompt back)" ||
	{ tap_fail "$T: terminal not restored after q"; screen_text "$S1" | tail -5 | sed 's/^/#   /'; }
if [ -z "$ids" ]; then
	tap_fail "$T: lruscope top held no BPF programs"
else
	progs_gone $ids && tap_ok "$T: no BPF programs left after q" ||
		tap_fail "$T: BPF programs $(echo $ids) still loaded after q"
fi
tm kill-session -t "$S1"

# ---- 2: 8 colours, SIGTERM --------------------------------------------------
# our memcg's row with a rate
row_re="$leaf .*[0-9.]+[mun]?s/s"
S2=term
if start_top "$S2" TERM=screen; then
	eight_colours() {
		grep -Eq -- "$row_re" "$WORK/eight.txt" &&
			grep "$leaf" "$WORK/eight.esc" | grep -Eq $'\e\\[([0-9;]*;)?4[0-7](;[0-9;]*)?m' &&
			! grep -q $'\e\\[[0-9;]*48;5;' "$WORK/eight.esc"
	}
	shows "$S2" eight 20 eight_colours &&
		tap_ok "$T: 8-colour terminal: ANSI backgrounds only" ||
		{ tap_fail "$T: no 8-colour cell on the $leaf row"; grep "$leaf" "$WORK/eight.esc" | cat -v | sed 's/^/#   /'; load_state; }
	ids=$(prog_ids "$top_pid")
	kill -TERM "$top_pid"
	if exited "$top_pid" && wait_for "$S2" "lrs-exit=" 5 &&
		[ "$(tm display -p -t "$S2" '#{alternate_on}')" = 0 ]; then
		tap_ok "$T: SIGTERM ends lruscope and restores the terminal"
	else
		tap_fail "$T: SIGTERM did not end lruscope cleanly"; screen_text "$S2" | tail -5 | sed 's/^/#   /'
	fi
	progs_gone $ids && tap_ok "$T: no BPF programs left after SIGTERM" ||
		tap_fail "$T: BPF programs '$(echo $ids)' (none read?) still loaded after SIGTERM"
else
	tap_fail "$T: lruscope top did not start (SIGTERM case): no 8-colour screen"
	tap_fail "$T: SIGTERM ends lruscope and restores the terminal: top did not start"
	tap_fail "$T: no BPF programs left after SIGTERM: top did not start"
fi
tm kill-session -t "$S2" 2>/dev/null

# ---- 3: NO_COLOR, then the terminal goes away ----------------------------------
S3=lost
if start_top "$S3" TERM=xterm-256color NO_COLOR=1; then
	# without colour a level glyph (" .:-=+*#@", level 1 and up) stands before the rate
	# (the first thing right of the name is the N0 cell)
	mono_re="$leaf +[.:=+*#@-] {0,7}[0-9.]+[mun]?s/s"
	mono_glyphs() {
		grep -Eq -- "$mono_re" "$WORK/mono.txt" &&
			! grep -Eq $'\e\\[([0-9;]*;)?(3|4)[0-7](;[0-9;]*)?m|\e\\[[0-9;]*[34]8;5;' "$WORK/mono.esc"
	}
	shows "$S3" mono 20 mono_glyphs &&
		tap_ok "$T: NO_COLOR: no colour anywhere, the $leaf row's wait marked by a level glyph" ||
		{ tap_fail "$T: NO_COLOR: colour, or no level glyph before the $leaf row's rate"; grep "$leaf" "$WORK/mono.esc" | cat -v | sed 's/^/#   /'; load_state; }
	ids=$(prog_ids "$top_pid")
	tm kill-session -t "$S3"	# the pty closes: SIGHUP, then EOF
	exited "$top_pid" && tap_ok "$T: a lost terminal ends lruscope" ||
		tap_fail "$T: lruscope still runs after its terminal went away"
	progs_gone $ids && tap_ok "$T: no BPF programs left after a lost terminal" ||
		tap_fail "$T: BPF programs '$(echo $ids)' (none read?) still loaded after a lost terminal"
else
	tap_fail "$T: lruscope top did not start (lost terminal case): no NO_COLOR screen"
	tap_fail "$T: a lost terminal ends lruscope: top did not start"
	tap_fail "$T: no BPF programs left after a lost terminal: top did not start"
fi

# keep the screens for a human: the first thing a kernel developer sees
if [ -n "${LRS_TUI_SCREENS:-}" ]; then
	mkdir -p "$LRS_TUI_SCREENS" && cp "$WORK"/*.txt "$WORK"/*.esc "$LRS_TUI_SCREENS"/ 2>/dev/null
fi
exit 0
