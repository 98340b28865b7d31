#!/usr/bin/env bash
# The build's contract: `make GUI=0` builds without SDL2, `lruscope gui` then says
# so (exit 2); both it and the whole build compile with no compiler warning; `make`
# names missing Debian packages instead of installing them; `make SAN=1` builds
# with the sanitizers, only under build/san/, and without it nothing is sanitized.
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 11
tmp=$(mktemp -d /tmp/lrs-test-build.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# ---- GUI=0: its own build directory, nothing of SDL2 linked ----------------------
if ! make -s -C "$LRS_ROOT" GUI=0 BUILD="$tmp/b" -j2 all >"$tmp/log" 2>&1; then
	tap_fail "build: make GUI=0 failed: $(tail -3 "$tmp/log")"; exit 1
fi
bin=$tmp/b/lruscope

# ---- the whole build from scratch, the window included ---------------------------
if ! make -s -C "$LRS_ROOT" BUILD="$tmp/full" -j2 all >"$tmp/full.log" 2>&1; then
	tap_fail "build: make (with the window) failed: $(tail -3 "$tmp/full.log")"; exit 1
fi
tap_check "build: both builds compile with no compiler warning ($(cat "$tmp/log" "$tmp/full.log" | grep -m1 'warning:'))" \
	bash -c '! cat "$1" "$2" | grep -q "warning:"' _ "$tmp/log" "$tmp/full.log"
tap_check "build: GUI=0 links no SDL2 or libpng" bash -c "! ldd '$bin' | grep -Eq 'SDL|png'"
"$bin" gui -d 1 >/dev/null 2>"$tmp/gui.err"; rc=$?
tap_check "build: GUI=0: lruscope gui exits 2 ($rc) saying it was built without the window" \
	bash -c '[ "$1" -eq 2 ] && grep -q "built without the SDL2 window" "$2"' _ "$rc" "$tmp/gui.err"
"$bin" replay /dev/null --gui >/dev/null 2>"$tmp/replay.err"; rc=$?
tap_check "build: GUI=0: replay --gui exits 2 ($rc) saying so" \
	bash -c '[ "$1" -eq 2 ] && grep -q "built without the SDL2 window" "$2"' _ "$rc" "$tmp/replay.err"
tap_check "build: GUI=0: the other commands are there (top --help)" bash -c "'$bin' top --help | grep -q usage"

# ---- a missing package is named, with the command that installs it ---------------
# dpkg-query answers for every package but libsdl2-dev (nothing is uninstalled)
mkdir -p "$tmp/fake"
cat >"$tmp/fake/dpkg-query" <<'SH'
#!/bin/sh
for last; do :; done
[ "$last" = libsdl2-dev ] && exit 1
printf 'install ok installed'
SH
chmod +x "$tmp/fake/dpkg-query"
# an apt-get that only notes it was called
printf '#!/bin/sh\ntouch "%s/apt-get-called"\n' "$tmp" >"$tmp/fake/apt-get"
chmod +x "$tmp/fake/apt-get"
PATH=$tmp/fake:$PATH make -s -C "$LRS_ROOT" BUILD="$tmp/b2" deps-check >"$tmp/deps.out" 2>&1; rc=$?
tap_check "build: make names the missing package and 'sudo make deps', exit 1 ($rc: $(head -c 200 "$tmp/deps.out"))" \
	bash -c '[ "$1" -ne 0 ] && grep -q "libsdl2-dev" "$2" && grep -q "sudo make deps" "$2"' _ "$rc" "$tmp/deps.out"
PATH=$tmp/fake:$PATH make -s -C "$LRS_ROOT" GUI=0 BUILD="$tmp/b2" deps-check >"$tmp/deps0.out" 2>&1; rc=$?
tap_check "build: GUI=0 does not need SDL2 ($rc)" [ "$rc" -eq 0 ]
tap_check "build: make, as root with a package missing, did not run apt-get" [ ! -e "$tmp/apt-get-called" ]

# ---- SAN=1: the sanitizers, in a build directory of their own (make -n: nothing built) ----
make -s -n -B -C "$LRS_ROOT" CC=cc SAN=1 all unit >"$tmp/san.n" 2>&1
make -s -n -B -C "$LRS_ROOT" CC=cc all unit >"$tmp/plain.n" 2>&1
tap_check "build: SAN=1 compiles and links every C file with -fsanitize=address,undefined ($(grep -c '^cc ' "$tmp/san.n") cc lines, $(grep '^cc ' "$tmp/san.n" | grep -vc 'fsanitize=address,undefined') without)" \
	bash -c 'grep -q "^cc " "$1" && ! grep "^cc " "$1" | grep -vq "fsanitize=address,undefined"' _ "$tmp/san.n"
tap_check "build: SAN=1 writes nothing in build/ outside build/san/ ($(grep -oE '(^|[ =>])build/[^ ]*' "$tmp/san.n" | grep -vE 'build/san(/|$)' | head -1))" \
	bash -c 'grep -q "build/san/" "$1" && ! grep -oE "(^|[ =>])build/[^ ]*" "$1" | grep -vqE "build/san(/|\$)"' _ "$tmp/san.n"
tap_check "build: without SAN=1 nothing is sanitized or built in build/san/" \
	bash -c 'grep -q "^cc " "$1" && ! grep -qE "fsanitize|build/san" "$1"' _ "$tmp/plain.n"
