#!/usr/bin/env bash
# make install PREFIX=... DESTDIR=...: the binary runs from there and finds its drgn scripts;
# every command of the program's command table (cli/main.c) is in its --help and has an
# entry in the installed man page's COMMANDS section; the bash completion is installed
# where bash-completion looks, as the program writes it.
set -u
. "$(dirname "$0")/../lib.sh"
# the commands: the listed ones of cli/main.c's table, which the program prints
commands=$("$LRS_BIN" options --commands | awk '$2 == "listed" { print $1 }' | paste -sd' ')
nr_commands=$(wc -w <<<"$commands")
# 8 checks, 7 drgn scripts, 3 of the completion, 2 per command
tap_plan $((18 + 2 * nr_commands))
tmp=$(mktemp -d /tmp/lrs-test-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
if ! make -s -C "$LRS_ROOT" BUILD="$LRS_BUILD" install DESTDIR="$tmp" PREFIX=/opt/lrs >"$tmp/log" 2>&1; then
	tap_fail "install: make install failed: $(tail -3 "$tmp/log")"; exit 1
fi
bin=$tmp/opt/lrs/bin/lruscope
tap_check "install: $bin is executable" [ -x "$bin" ]
tap_check "install: it runs (--version)" "$bin" --version
"$bin" --help >"$tmp/help" 2>&1
# the command names --help lists: its "  lruscope NAME ..." lines
listed=$(sed -n 's/^  lruscope \([a-z]*\) .*/\1/p' "$tmp/help" | sort | paste -sd' ')
echo "# cli/main.c's table: $(sort <<<"$(tr ' ' '\n' <<<"$commands")" | paste -sd' ')"
echo "# --help lists: $listed"
tap_check "install: --help lists the listed commands of cli/main.c's table, no other ($nr_commands)" \
	[ "$nr_commands" -gt 5 -a "$listed" = "$(tr ' ' '\n' <<<"$commands" | sort | paste -sd' ')" ]
for s in walk.py lruvecs.py lru_check.py page_owner.py holders.py lrs/__init__.py lrs/program.py; do
	tap_check "install: drgn-scripts/$s is in share/lruscope" [ -r "$tmp/opt/lrs/share/lruscope/drgn-scripts/$s" ]
done
man=$tmp/opt/lrs/share/man/man8/lruscope.8
tap_check "install: the man page is in share/man/man8" [ -r "$man" ]
tap_check "install: the man page renders without warnings" \
	bash -c '[ -z "$(groff -man -ww -z "$1" 2>&1)" ]' _ "$man"
# man_entry NAME: the installed man page's COMMANDS section has a ".TP" entry ".B NAME"
man_entry() { awk '/^\.SH COMMANDS/, /^\.SH OPTIONS/' "$man" | grep -A1 '^\.TP$' | grep -qx "\.B $1"; }
for c in $commands; do
	tap_check "install: command '$c' has a line in --help" grep -q "^  lruscope $c " "$tmp/help"
	tap_check "install: command '$c' has an entry in the man page's COMMANDS" man_entry "$c"
done
comp=$tmp/opt/lrs/share/bash-completion/completions/lruscope
"$bin" completion bash >"$tmp/completion" 2>&1
tap_check "install: the bash completion is in share/bash-completion/completions, as 'lruscope completion bash' writes it" \
	cmp -s "$comp" "$tmp/completion"
tap_check "install: the installed completion is a bash script" bash -n "$comp"
# what the installed completion offers for "lruscope re<TAB>"
offered=$(bash -c 'source "$1"; COMP_WORDS=(lruscope re); COMP_CWORD=1; _lruscope; echo "${COMPREPLY[*]}"' _ "$comp" 2>&1)
tap_check "install: sourced, it completes 'lruscope re' to the commands ($offered)" \
	[ "$offered" = "report record replay" ]
tap_check "install: no __pycache__ is installed" \
	bash -c "! find '$tmp/opt/lrs/share/lruscope/drgn-scripts' -name __pycache__ | grep -q ."
tap_check "install: the installed lruscope walk --help runs" bash -c "'$bin' walk --help | grep -q walk.py"
# walk.py's imports resolve from the installed tree (the lrs package beside it)
if /usr/bin/python3 -c "import drgn" 2>/dev/null; then
	tap_check "install: the installed walk.py --help runs (imports lrs)" \
		bash -c "/usr/bin/python3 '$tmp/opt/lrs/share/lruscope/drgn-scripts/walk.py' --help >/dev/null"
else
	tap_skip "install: the installed walk.py --help runs (imports lrs)" "python3-drgn is not installed"
fi
