#!/usr/bin/env bash
# make install PREFIX=... DESTDIR=...: the binary runs from there and finds its drgn scripts.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/lrs-test-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
if ! make -s -C "$LRS_ROOT" BUILD="$LRS_BUILD" install DESTDIR="$tmp" PREFIX=/opt/lrs >"$tmp/log" 2>&1; then
	tap_fail "install: make install failed: $(tail -3 "$tmp/log")"; exit 1
fi
bin=$tmp/opt/lrs/bin/lruscope
tap_check "install: $bin is executable" [ -x "$bin" ]
tap_check "install: it runs (--version)" "$bin" --version
tap_check "install: --help lists every command" bash -c "'$bin' --help | grep -q walk"
for s in walk.py lruvecs.py lru_check.py page_owner.py holders.py lrs/__init__.py lrs/program.py; do
	tap_check "install: drgn-scripts/$s is in share/lruscope" [ -r "$tmp/opt/lrs/share/lruscope/drgn-scripts/$s" ]
done
man=$tmp/opt/lrs/share/man/man8/lruscope.8
tap_check "install: the man page is in share/man/man8" [ -r "$man" ]
tap_check "install: the man page renders without warnings" \
	bash -c '[ -z "$(groff -man -ww -z "$1" 2>&1)" ]' _ "$man"
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
