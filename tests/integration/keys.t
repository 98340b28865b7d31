#!/usr/bin/env bash
# The one keymap (ui/keymap.c) and what is printed from it: 'lruscope keys'
# lists every binding, the TUI's help overlay (a replay of a synthetic
# recording in tmux) and 'top --help' show every key the TUI has, and the man
# page's KEYS section is what 'lruscope keys --man' prints. And every action
# the table names is driven by one of its keys in a real screen, with a check
# that the key did what the table says: tui_keys.t (the TUI in tmux) and, for
# the GUI's own actions, gui_keys.t (the window on Xvfb) are run here and say
# which actions their passing checks drove. No root, no BPF. See
# tests/PROTOCOL.md.
set -u
. "$(dirname "$0")/../lib.sh"

lrs_tmux_test keys

# the bindings, from the man text: one .B line each, roff undone
"$LRS_BIN" keys --man >"$WORK/man" 2>&1
"$LRS_BIN" keys >"$WORK/table" 2>&1
# the table's actions (its third column, comma-separated; '-' and 'mouse' are
# no action), each with the screens of its binding: "ACTION tui|gui|both"
awk 'NR > 1 { a = substr($0, 27, 28); sub(/ +$/, "", a); n = split(a, acts, ",")
	for (i = 1; i <= n; i++) if (acts[i] != "-" && acts[i] != "mouse") print acts[i], $1 }' \
	"$WORK/table" | sort -u >"$WORK/actions"
# the 6 checks of the printouts, one per action
tap_plan $((6 + $(wc -l <"$WORK/actions")))
sed -n 's/^\.B "\(.*\)"$/\1/p' "$WORK/man" | sed 's/\\&//g; s/\\-/-/g; s/\\e/\\/g' >"$WORK/all"
# the table's columns: screen (6), keys (18), action (28), description; as the
# TUI's help (keys in 19 columns) and top --help (in 22) print a binding, the
# description cut where the help box may end
rows() {
	awk -v w="$1" -v all="$2" 'NR > 1 && $1 != "gui" && (all || $0 !~ /replay:/) {
		k = substr($0, 8, 18); sub(/ +$/, "", k)
		printf "%-" w "s %s\n", k, substr($0, 56, 30) }' "$WORK/table"
}
rows 19 1 >"$WORK/tui"
rows 22 0 >"$WORK/top"

# every_line_in LIST FILE: each line of LIST occurs in FILE (the missing ones are printed)
every_line_in() {
	local list=$1 file=$2 k missing=0
	[ -s "$list" ] || { echo "#   $list is empty"; return 1; }
	while IFS= read -r k; do
		grep -qF -- "$k" "$file" || { echo "#   missing: '$k'"; missing=1; }
	done <"$list"
	return $missing
}

tap_check "$T: 'keys --man' has a .TP entry per binding, 'keys' a row each" \
	test "$(grep -c '^\.TP$' "$WORK/man")" -gt 10 -a \
	"$(grep -c '^\.TP$' "$WORK/man")" -eq "$(($(wc -l <"$WORK/table") - 1))"
tap_check "$T: 'lruscope keys' shows every key of the table" every_line_in "$WORK/all" "$WORK/table"
"$LRS_BIN" top --help >"$WORK/top-help" 2>&1
tap_check "$T: 'top --help' shows every key of top" every_line_in "$WORK/top" "$WORK/top-help"

# ---- the TUI's help overlay, over a replay of a synthetic recording --------------
snap='"nodes":[0],"lruvecs":[{"memcg":"/","memcg_id":1,"node":0},{"memcg":"/lrs-k","memcg_id":2,"node":0}]}'
{
	echo '{"lruscope_recording":1,"schema":1,"kernel":"k","nodes":[0],"interval_ns":1000000000}'
	echo "{\"schema\":1,\"t_ns\":1000000000,$snap"
	echo "{\"schema\":1,\"t_ns\":2000000000,$snap"
} >"$WORK/rec.jsonl"
tm new-session -d -s help -x 160 -y 60 \
	"env -i PATH=$PATH HOME=/root TERM=xterm-256color $LRS_BIN replay $WORK/rec.jsonl; sleep 30"
shown=0
for _ in $(seq 1 40); do
	tm capture-pane -p -t help >"$WORK/screen" 2>/dev/null
	grep -q "lrs-k" "$WORK/screen" && break
	sleep 0.25
done
tm send-keys -t help h
for _ in $(seq 1 40); do
	tm capture-pane -p -t help >"$WORK/screen" 2>/dev/null
	grep -q "help (h closes)" "$WORK/screen" && { shown=1; break; }
	sleep 0.25
done
tap_check "$T: the TUI's help opens on h (a replay)" test "$shown" = 1
tap_check "$T: the TUI's help shows every key the TUI has" every_line_in "$WORK/tui" "$WORK/screen"
[ "$shown" = 1 ] || sed 's/^/#   /' "$WORK/screen"
tm send-keys -t help q

# ---- the man page ----------------------------------------------------------------
MAN=$LRS_ROOT/docs/lruscope.8
man_keys() {
	sed -n '/^\.\\" BEGIN KEYS/,/^\.\\" END KEYS/p' "$MAN" | sed '1d;$d' >"$WORK/man-section"
	cmp -s "$WORK/man-section" "$WORK/man" ||
		{ diff "$WORK/man-section" "$WORK/man" | head -20 | sed 's/^/#   /'; return 1; }
}
if [ -f "$MAN" ]; then
	tap_check "$T: docs/lruscope.8's KEYS section is 'lruscope keys --man' (make man-keys)" man_keys
else
	tap_skip "$T: docs/lruscope.8's KEYS section" "docs/lruscope.8 is not in this tree yet"
fi

# ---- every action, driven by a key in a real screen --------------------------------
# drive NAME.t: runs it, its lines as comments; the actions it drove in $WORK/driven.NAME
drive() {
	: >"$WORK/driven.$1"
	LRS_KEYS_DRIVEN=$WORK/driven.$1 "$LRS_ROOT/tests/integration/$1.t" >"$WORK/$1.out" 2>&1
	echo "# $1.t: $(grep -c '^ok - ' "$WORK/$1.out") passed, $(grep -c '^not ok - ' "$WORK/$1.out") failed"
	grep '^not ok - ' "$WORK/$1.out" | sed 's/^/#   /'
}
drive tui_keys
drive gui_keys
# driven ACTION SCREENS: a check of the TUI drove it (the GUI's for a GUI-only action)
driven() {
	local in=tui_keys
	[ "$2" = gui ] && in=gui_keys
	grep -qx -- "$1" "$WORK/driven.$in" || { echo "#   no passing check of $in.t drove '$1'"; return 1; }
}
while read -r act screens; do
	tap_check "$T: action '$act' ($screens) is driven by its key in a real screen" driven "$act" "$screens"
done <"$WORK/actions"
exit 0
