#!/usr/bin/env bash
# One option table per command (cli/options.h) drives getopt, --help, the man
# page's OPTIONS section and the bash completion. 'lruscope options' prints
# the table; from it: every option of every command is in that command's
# --help, in the man page's OPTIONS section (under the command, or a "Common
# to" section naming it) and among the words the completion offers for the
# command; an option whose value is a choice, a file, a directory or a user
# completes as such, and so do the operands; every command refuses an unknown
# option, naming it. No root, no BPF. See tests/PROTOCOL.md.
set -u
. "$(dirname "$0")/../lib.sh"
T=options
WORK=$(mktemp -d /tmp/lrs-test-options.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# the CLI's own table: "command short long arg value" rows, and its commands
"$LRS_BIN" options >"$WORK/table" 2>"$WORK/table.err"
table_rc=$?
"$LRS_BIN" options --commands >"$WORK/commands" 2>&1
tail -n +2 "$WORK/table" >"$WORK/rows"
# the rows of the commands the man page and the completion cover (listed ones)
awk 'NR == FNR { if ($2 == "listed") listed[$1] = 1; next } ($1 in listed)' \
	"$WORK/commands" "$WORK/rows" >"$WORK/listed-rows"
awk '$5 != "-"' "$WORK/listed-rows" >"$WORK/valued-rows"
awk '$2 == "listed" && $3 != "-"' "$WORK/commands" >"$WORK/operand-commands"
nr_commands=$(wc -l <"$WORK/commands")
nr_rows=$(wc -l <"$WORK/rows")
nr_listed=$(wc -l <"$WORK/listed-rows")
nr_valued=$(wc -l <"$WORK/valued-rows")
nr_operands=$(wc -l <"$WORK/operand-commands")
echo "# $nr_commands commands, $nr_rows options ($nr_listed of listed commands, $nr_valued with values that complete)"
# 4 whole-table checks, one per command, one per option (help), two per listed option (man,
# completion), one per completed value and per command with operands, one for --name=value
tap_plan $((4 + nr_commands + nr_rows + 2 * nr_listed + nr_valued + nr_operands + 1))

tap_check "$T: 'lruscope options' prints the table: every table builds for getopt ($(head -c 300 "$WORK/table.err"))" \
	test "$table_rc" -eq 0 -a "$nr_rows" -gt 50

# ---- the man page: the generated section, and each option under its command ------------
MAN=$LRS_ROOT/docs/lruscope.8
sed -n '/^\.\\" BEGIN OPTIONS/,/^\.\\" END OPTIONS/p' "$MAN" | sed '1d;$d' >"$WORK/man-section"
"$LRS_BIN" options --man >"$WORK/man-generated" 2>&1
man_is_generated() {
	cmp -s "$WORK/man-section" "$WORK/man-generated" ||
		{ diff "$WORK/man-section" "$WORK/man-generated" | head -20 | sed 's/^/#   /'; return 1; }
}
tap_check "$T: docs/lruscope.8's OPTIONS section is 'lruscope options --man' (make man-options)" \
	man_is_generated
# "HEADING<TAB>TAG" for every entry of the section, roff undone: "Common to top, gui and
# report<TAB>-i SECS, --interval SECS"
awk '/^\.SS / { h = substr($0, 5); next }
	/^\.TP$/ { tp = 1; next }
	tp { tp = 0; t = $0; sub(/^\.B[IR]? /, "", t); gsub(/\\fR|\\fP|"/, "", t); gsub(/\\-/, "-", t)
		gsub(/  +/, " ", t); print h "\t" t }' "$WORK/man-section" >"$WORK/man-entries"
# in_man CMD LONG: an entry naming LONG under CMD's section or a Common one that names CMD
in_man() {
	awk -F '\t' -v cmd="$1" -v long="$2" '
		{ h = $1; covers = h == cmd || h == "Common to every command"
		  if (!covers && h ~ /^Common to /) {
			n = split(substr(h, 11), w, /, | and /)
			for (i = 1; i <= n; i++) if (w[i] == cmd) covers = 1 }
		  t = " " $2 " "
		  if (covers && (index(t, " " long " ") || index(t, " " long ",")))
			found = 1 }
		END { exit !found }' "$WORK/man-entries"
}

# ---- the help: each command's --help, its option lines ---------------------------------
while read -r cmd _; do
	"$LRS_BIN" "$cmd" --help >"$WORK/help.$cmd" 2>&1
done <"$WORK/commands"
# in_help CMD TAG: a line of CMD's --help starts (after its indent) with TAG and a space or its end
in_help() {
	awk -v t="$2" '{ sub(/^ +/, "") }
		index($0, t) == 1 && (length($0) == length(t) || substr($0, length(t) + 1, 1) == " ") { f = 1 }
		END { exit !f }' "$WORK/help.$1"
}

# ---- the completion: the script, and what it offers ------------------------------------
"$LRS_BIN" completion bash >"$WORK/completion.bash" 2>&1
# offered WORD...: what the completion offers for the last word of "lruscope WORD...", one a line
offered() {
	bash -c 'source "$1"; shift; COMP_WORDS=(lruscope "$@"); COMP_CWORD=$#; _lruscope
		printf "%s\n" "${COMPREPLY[@]}"' _ "$WORK/completion.bash" "$@" 2>&1
}
tap_check "$T: 'lruscope completion bash' is a bash script ($(bash -n "$WORK/completion.bash" 2>&1 | head -c 200))" \
	bash -n "$WORK/completion.bash"
awk '$2 == "listed" { print $1 }' "$WORK/commands" | sort >"$WORK/listed"
offered '' | grep -v '^-' | sort >"$WORK/offered-commands"
tap_check "$T: the completion offers the listed commands, no other ($(paste -sd' ' "$WORK/offered-commands"))" \
	cmp -s "$WORK/listed" "$WORK/offered-commands"
while read -r cmd _; do
	offered "$cmd" - >"$WORK/words.$cmd"
done <"$WORK/commands"
# in_completion CMD SHORT LONG: both (SHORT '-': none) are among the words offered after "CMD -"
in_completion() {
	grep -qxF -- "$3" "$WORK/words.$1" && { [ "$2" = - ] || grep -qxF -- "$2" "$WORK/words.$1"; }
}

# ---- unknown options ---------------------------------------------------------------------
# refused NAME: exit 2, one line naming '--frobnicate' as unknown and pointing at --help
refused() {
	[ "$rc" -eq 2 ] && [ "$(wc -l <"$WORK/$1.err")" -eq 1 ] &&
		grep -qF -- "unknown option '--frobnicate'" "$WORK/$1.err" && grep -qF -- "--help" "$WORK/$1.err"
}
while read -r cmd _; do
	timeout 20 "$LRS_BIN" "$cmd" --frobnicate >/dev/null 2>"$WORK/bad.$cmd.err"
	rc=$?
	tap_check "$T: $cmd --frobnicate: exit 2, one line naming it ($rc: $(head -n 2 "$WORK/bad.$cmd.err"))" \
		refused "bad.$cmd"
done <"$WORK/commands"

# ---- every option: its --help line, its man entry, its completion word -------------------
while read -r cmd short long arg value; do
	tag=$long
	[ "$short" = - ] || tag="$short, $long"
	[ "$arg" = - ] || tag="$tag $arg"
	tap_check "$T: $cmd $long: in 'lruscope $cmd --help' as '$tag'" in_help "$cmd" "$tag"
done <"$WORK/rows"
while read -r cmd short long arg value; do
	tap_check "$T: $cmd $long: in the man page's OPTIONS, under $cmd or a section common to it" \
		in_man "$cmd" "$long"
	tap_check "$T: $cmd $long: the completion offers it after 'lruscope $cmd -'" \
		in_completion "$cmd" "$short" "$long"
done <"$WORK/listed-rows"

# ---- values and operands that complete ---------------------------------------------------
mkdir -p "$WORK/c/lrs-d-dir"
touch "$WORK/c/lrs-f-file.jsonl" "$WORK/c/lrs-d-file"
# completes KIND WORD...: what is offered for the last word is what KIND says
completes() {
	local kind=$1; shift
	offered "$@" >"$WORK/offered"
	case $kind in
	file) grep -qxF "$WORK/c/lrs-f-file.jsonl" "$WORK/offered" ;;
	dir) [ "$(cat "$WORK/offered")" = "$WORK/c/lrs-d-dir" ] ;;
	user) grep -qx root "$WORK/offered" ;;
	*) [ "$(sort "$WORK/offered" | paste -sd'|')" = "$(tr '|' '\n' <<<"$kind" | sort | paste -sd'|')" ] ;;
	esac || { echo "#   offered: $(paste -sd' ' "$WORK/offered")"; return 1; }
}
prefix_for() {
	case $1 in file) echo "$WORK/c/lrs-f" ;; dir) echo "$WORK/c/lrs-d" ;; user) echo roo ;; *) echo "" ;; esac
}
while read -r cmd short long arg value; do
	tap_check "$T: $cmd $long VALUE completes: $value" completes "$value" "$cmd" "$long" "$(prefix_for "$value")"
done <"$WORK/valued-rows"
while read -r cmd _ operands; do
	tap_check "$T: $cmd's operands complete: $operands" completes "$operands" "$cmd" "$(prefix_for "$operands")"
done <"$WORK/operand-commands"
tap_check "$T: --format=VALUE completes as --format VALUE does (report)" \
	completes "text|json|csv|folded" report --format = ''
exit 0
