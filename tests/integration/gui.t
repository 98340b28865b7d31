#!/usr/bin/env bash
# 'lruscope gui' against the live kernel: a readtwice load in lrs-test-*
# memcgs, the real BPF collector, frames rendered headless (--screenshot) and
# in a real window on Xvfb, checked from their pixels (gui_png.py); usage
# errors; SIGTERM ends the window cleanly. Needs root. See tests/PROTOCOL.md.
# The frames are kept in $LRS_BUILD/tests/gui/ to look at. The test memcg's
# row is found in each frame by its name, and its cell must be coloured.
# live: traced
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 27

T=gui
need_root "$T"
[ -x "$LRS_BIN" ] || { tap_fail "$T: $LRS_BIN is missing (make)"; exit 1; }
for tool in Xvfb timeout; do
	command -v "$tool" >/dev/null || { tap_fail "$T: $tool is missing (make deps)"; exit 1; }
done
CHECK=$(dirname "$0")/gui_png.py
TAG=lrs-test-gui$$
WORK=$(mktemp -d /var/tmp/$TAG.XXXXXX)
KEEP=$LRS_BUILD/tests/gui
mkdir -p "$KEEP"

cleanup() {
	lrs_cleanup
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- usage ---------------------------------------------------------------------
"$LRS_BIN" gui --help >"$WORK/help" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q -- '--screenshot' "$WORK/help"; then tap_ok "$T: --help"
else tap_fail "$T: --help: rc $rc"; fi
for args in "--bogus" "-i abc" "--size 10x10" "-d -1" "extra"; do
	# shellcheck disable=SC2086
	"$LRS_BIN" gui $args >/dev/null 2>"$WORK/err"
	rc=$?
	if [ $rc = 2 ] && [ -s "$WORK/err" ]; then tap_ok "$T: usage error '$args' exits 2"
	else tap_fail "$T: usage error '$args': rc $rc, stderr '$(head -c 200 "$WORK/err")'"; fi
done
"$LRS_BIN" gui --font /nonexistent/x.ttf --screenshot "$WORK/x.png" >/dev/null 2>"$WORK/err"
rc=$?
if [ $rc = 1 ] && grep -q '/nonexistent/x.ttf' "$WORK/err" && grep -q -- '--font' "$WORK/err"; then
	tap_ok "$T: a missing font is named, with what to do"
else
	tap_fail "$T: missing font: rc $rc, stderr '$(head -c 200 "$WORK/err")'"
fi

# ---- the load ------------------------------------------------------------------
read -r _ cgroot < <(lrs_memcg_root) || { tap_fail "$T: no memory cgroup hierarchy"; exit 1; }
# four readers in one memcg: they contend every second, so the last frame's cells are hot
# (an isolated memcg's two readers contend only while both run: bursty on two cores)
"$LRS_BIN" workload --layout shared --readers 4 --duration 0 --size 512m --limit 64m --cpu-shares 8192 \
	--prefix "$TAG-" >"$WORK/load.out" 2>"$WORK/load.err" &
lrs_track_pid $!
for _ in $(seq 1 60); do
	grep -q '^/' "$WORK/load.out" 2>/dev/null && break
	sleep 0.5
done
if ! grep -q '^/' "$WORK/load.out"; then
	tap_fail "$T: the workload started no memcg: $(tr '\n' ' ' <"$WORK/load.err")"
	exit 1
fi
# if the workload dies without cleaning up, lrs_cleanup removes what it made
while read -r m; do lrs_track_cgroup "$cgroot$m"; done < <(grep '^/' "$WORK/load.out")
tap_ok "$T: workload in $(grep -c '^/' "$WORK/load.out") $TAG-* memcgs"
memcg=$(grep -m1 '^/' "$WORK/load.out")

# ---- headless frame --------------------------------------------------------------
# the heatmap shows the last interval: 3 s long, the load's waits come in bursts
timeout 240 "$LRS_BIN" gui --screenshot "$WORK/headless.png" -d 9 -i 3 >"$WORK/out" 2>&1
rc=$?
tap_check "$T: --screenshot writes a PNG (no display) (rc $rc: $(tail -c 300 "$WORK/out"))" \
	[ "$rc" = 0 -a -s "$WORK/headless.png" ]
cp "$WORK/headless.png" "$KEEP/live-headless.png" 2>/dev/null
"$CHECK" "$T headless" "$WORK/headless.png" 1280 800 --contention --row "$memcg"

# ---- a real window on Xvfb -------------------------------------------------------
lrs_xvfb "$T" "$WORK"
timeout 240 "$LRS_BIN" gui --screenshot "$WORK/window.png" --screenshot-window --size 1100x700 \
	-d 8 -i 2 >"$WORK/out" 2>&1
rc=$?
tap_check "$T: a window on $DISPLAY, its last frame saved (rc $rc: $(tail -c 300 "$WORK/out"))" \
	[ "$rc" = 0 -a -s "$WORK/window.png" ]
cp "$WORK/window.png" "$KEEP/live-window.png" 2>/dev/null
"$CHECK" "$T window" "$WORK/window.png" 1100 700 --contention --row "$memcg"

# SIGTERM: the window closes, exit 0 (the BPF programs go with the process)
"$LRS_BIN" gui -i 0.5 >"$WORK/out" 2>&1 &
gui=$!
lrs_track_pid $gui
loaded=0
for _ in $(seq 1 240); do
	if ls -l "/proc/$gui/fd" 2>/dev/null | grep -q 'bpf-prog\|bpf_link\|bpf-link'; then
		loaded=1
		break
	fi
	kill -0 $gui 2>/dev/null || break
	sleep 0.25
done
sleep 1
kill -TERM $gui 2>/dev/null
for _ in $(seq 1 40); do kill -0 $gui 2>/dev/null || break; sleep 0.25; done
if kill -0 $gui 2>/dev/null; then
	tap_fail "$T: SIGTERM: still running after 10 s"
else
	wait $gui
	rc=$?
	if [ $loaded = 1 ] && [ $rc = 0 ]; then
		tap_ok "$T: SIGTERM closes the window, exits 0"
	else
		tap_fail "$T: SIGTERM: BPF loaded $loaded, rc $rc: $(tail -c 300 "$WORK/out")"
	fi
fi
