#!/usr/bin/env bash
# lruscope workload: the demo's readtwice load alone. Creates lrs-test-wl<pid>-*
# memcgs and sparse files, checks what it made while it runs, and that nothing
# is left after a normal end, SIGINT and SIGTERM. See tests/PROTOCOL.md.
set -u
. "${LRS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
tap_plan 15

need_root workload
PFX="lrs-test-wl$$-"
WORKDIR=$(mktemp -d /var/tmp/lrs-test-wl.XXXXXX)
export LRS_WORKDIR=$WORKDIR
OUT=$(mktemp -d /tmp/lrs-test-wl-out.XXXXXX)
read -r VER ROOT < <(lrs_memcg_root) || { tap_fail "workload: no memory cgroup hierarchy"; exit 1; }

cleanup() {
	lrs_cleanup
	# anything of ours still there is a failure below; remove it anyway
	find "$ROOT" -depth -type d -name "${PFX}*" -exec rmdir {} \; 2>/dev/null
	find /sys/fs/cgroup -maxdepth 2 -type d -name "${PFX}cpu" -exec rmdir {} \; 2>/dev/null
	rm -rf "$WORKDIR" "$OUT"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

leftovers() {	# prints what is left of prefix $PFX
	find /sys/fs/cgroup -name "${PFX}*" 2>/dev/null
	find "$WORKDIR" -mindepth 1 2>/dev/null
}

# wait_lines FILE N: until FILE has N lines starting with / (the memcgs), 20 s max
wait_lines() {
	local i
	for i in $(seq 1 200); do
		[ "$(grep -c '^/' "$1" 2>/dev/null)" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# -- usage errors: exit 2, nothing created
"$LRS_BIN" workload --layout isolated --readers 0 --duration 1 --prefix "$PFX" 2>"$OUT/err"
rc=$?
if [ "$rc" = 2 ] && grep -q 'readers' "$OUT/err" && [ -z "$(leftovers)" ]; then
	tap_ok "workload: --readers 0 is a usage error (exit 2)"
else
	tap_fail "workload: --readers 0: exit $rc, $(cat "$OUT/err")"
fi
"$LRS_BIN" workload --layout diagonal --readers 2 --duration 1 >/dev/null 2>&1
tap_check "workload: a bad --layout is a usage error" test $? = 2
"$LRS_BIN" workload --layout shared --readers 2 >/dev/null 2>&1
tap_check "workload: a missing --duration is a usage error" test $? = 2
"$LRS_BIN" workload --layout shared --readers 2 --duration 1 --prefix other- >/dev/null 2>&1
tap_check "workload: a prefix not starting with lrs- is refused" test $? = 2

# -- bad resources: a clear message, nothing created
ram_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
"$LRS_BIN" workload --layout shared --readers 2 --duration 1 --prefix "$PFX" \
	--limit "$((ram_kb * 2))k" --size 1g 2>"$OUT/err"
rc=$?
if [ "$rc" != 0 ] && grep -q 'larger than RAM' "$OUT/err" && [ -z "$(leftovers)" ]; then
	tap_ok "workload: a limit larger than RAM is refused before anything is created"
else
	tap_fail "workload: limit > RAM: exit $rc, $(cat "$OUT/err"), left: $(leftovers)"
fi
"$LRS_BIN" workload --layout isolated --readers 400 --duration 1 --prefix "$PFX" \
	--limit "$((ram_kb / 4))k" --size "$((ram_kb / 4))k" 2>"$OUT/err"
rc=$?
if [ "$rc" = 1 ] && grep -q 'not enough free memory' "$OUT/err" && [ -z "$(leftovers)" ]; then
	tap_ok "workload: not enough memory for the sizes is refused (exit 1)"
else
	tap_fail "workload: too much memory: exit $rc, $(cat "$OUT/err")"
fi
LRS_WORKDIR=/dev/shm "$LRS_BIN" workload --layout shared --readers 2 --duration 1 \
	--prefix "$PFX" 2>"$OUT/err"
rc=$?
if [ "$rc" != 0 ] && grep -q 'tmpfs' "$OUT/err" && [ -z "$(leftovers)" ]; then
	tap_ok "workload: a work dir on tmpfs is refused (its pages are not file LRU)"
else
	tap_fail "workload: tmpfs work dir: exit $rc, $(cat "$OUT/err")"
fi

# -- a normal run: isolated, 4 readers = 2 containers
"$LRS_BIN" workload --layout isolated --readers 4 --duration 4 --size 128m --limit 32m \
	--prefix "$PFX" >"$OUT/iso" 2>"$OUT/iso.err" &
pid=$!
lrs_track_pid "$pid"
if wait_lines "$OUT/iso" 2; then
	mapfile -t cgs < <(grep '^/' "$OUT/iso")
	ok=1 why=""
	[ "${#cgs[@]}" = 2 ] || { ok=0; why="${#cgs[@]} memcgs, want 2"; }
	for cg in "${cgs[@]}"; do
		case "$cg" in "/${PFX}c"[0-9]*) ;; *) ok=0; why="bad name $cg" ;; esac
		n=$(wc -l <"$ROOT$cg/cgroup.procs" 2>/dev/null)
		[ "$n" = 2 ] || { ok=0; why="$cg holds $n tasks, want 2 readers"; }
		if [ "$VER" = v1 ]; then lim=$(cat "$ROOT$cg/memory.limit_in_bytes"); else lim=$(cat "$ROOT$cg/memory.max"); fi
		[ "$lim" = $((32 << 20)) ] || { ok=0; why="$cg limit $lim"; }
	done
	ls "$WORKDIR"/"${PFX}"*/c0 >/dev/null 2>&1 || { ok=0; why="no sparse file in $WORKDIR"; }
	if [ "$ok" = 1 ]; then tap_ok "workload: isolated makes one memcg per container, 2 readers each, with the limit"; else tap_fail "workload: isolated layout: $why"; fi
	sleep 1
	# page cache is charged to the readers' memcgs
	cache=$(awk '$1 == "cache" || $1 == "file" {print $2; exit}' "$ROOT${cgs[0]}/memory.stat")
	tap_check "workload: the readers' page cache is charged to their memcg ($cache bytes)" \
		test "${cache:-0}" -gt $((4 << 20))
else
	tap_fail "workload: the memcg paths were not printed: $(cat "$OUT/iso.err")"
fi
wait "$pid"
rc=$?
json=$(tail -1 "$OUT/iso")
if [ "$rc" = 0 ] && echo "$json" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["layout"] == "isolated" and d["readers"] == 4, d
assert len(d["memcgs"]) == 2, d
for m in d["memcgs"]:
    assert m["mb_per_s"] > 0 and len(m["pids"]) == 2, m
'; then
	tap_ok "workload: ends with a JSON line, MB/s per memcg"
else
	tap_fail "workload: exit $rc, last line: $json"
fi
left=$(leftovers)
tap_check "workload: nothing left after a normal end${left:+: $left}" test -z "$left"

# -- shared, nested, dd
"$LRS_BIN" workload --layout shared --readers 4 --duration 2 --size 64m --limit 16m \
	--read dd --nest --prefix "$PFX" >"$OUT/sh" 2>"$OUT/sh.err"
rc=$?
if [ "$rc" = 0 ] && [ "$(grep '^/' "$OUT/sh")" = "/${PFX}parent/${PFX}shared" ] &&
	tail -1 "$OUT/sh" | grep -q '"read": "dd"' &&
	! tail -1 "$OUT/sh" | grep -q '"mb_per_s": 0.0,'; then
	tap_ok "workload: --layout shared --nest --read dd: one memcg under PFXparent/, dd reads"
else
	tap_fail "workload: shared/nest/dd: exit $rc, $(cat "$OUT/sh" "$OUT/sh.err")"
fi
left=$(leftovers)
tap_check "workload: nothing left after a nested run${left:+: $left}" test -z "$left"

# -- signals: run until SIGINT / SIGTERM, then check readers and memcgs are gone
for sig in INT TERM; do
	"$LRS_BIN" workload --layout isolated --readers 4 --duration 0 --size 64m --limit 16m \
		--cpu-shares 2048 --prefix "$PFX" >"$OUT/sig" 2>"$OUT/sig.err" &
	pid=$!
	lrs_track_pid "$pid"
	if ! wait_lines "$OUT/sig" 2; then
		tap_fail "workload: SIG$sig: never started: $(cat "$OUT/sig.err")"
		continue
	fi
	readers=$(for cg in $(grep '^/' "$OUT/sig"); do cat "$ROOT$cg/cgroup.procs"; done)
	sleep 0.5
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	alive=""
	for r in $readers; do kill -0 "$r" 2>/dev/null && alive="$alive $r"; done
	left=$(leftovers)
	if [ "$rc" = 0 ] && [ -z "$alive" ] && [ -z "$left" ] && tail -1 "$OUT/sig" | grep -q '^{'; then
		tap_ok "workload: SIG$sig ends it with the JSON line, readers gone, nothing left"
	else
		tap_fail "workload: SIG$sig: exit $rc, alive:$alive left: $left"
	fi
done
