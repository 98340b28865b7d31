#!/usr/bin/env bash
# lruscope demo in --batch --json mode with small sizes: the shared layout
# waits more on lruvec locks than the isolated one, the isolated run's waits
# are attributed to the readers' own memcgs, and nothing is left behind
# (memcgs, files, readers, BPF programs) after a normal end and after SIGINT.
# A second demo refuses while one runs. See tests/PROTOCOL.md.
set -u
. "${LRS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

need_root demo
lrs_spin_probe
WORKDIR=$(mktemp -d /var/tmp/lrs-test-demo.XXXXXX)
export LRS_WORKDIR=$WORKDIR
OUT=$(mktemp -d /tmp/lrs-test-demo-out.XXXXXX)
SMALL=(--readers 8 --size 256m --limit 64m)	# 4 containers: shared waits ~10x more
read -r _ ROOT < <(lrs_memcg_root) || { tap_fail "demo: no memory cgroup hierarchy"; exit 1; }

cleanup() {
	lrs_cleanup	# the demos we started, by PID; the demo removes its own memcgs
	rm -rf "$WORKDIR" "$OUT"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The demo's own names (another program may use a longer lrs-demo-xx- prefix).
DEMO_NAMES=(-regex '.*/lrs-demo-\(shared\|parent\|cpu\|c[0-9]+\)')
demo_cgroups() { find /sys/fs/cgroup -maxdepth 4 -type d "${DEMO_NAMES[@]}" 2>/dev/null; }

# A demo of someone else (make demo) holds the lock: our checks would race it.
if [ -n "$(demo_cgroups)" ]; then
	tap_fail "demo: lrs-demo-* cgroups exist before the test: another demo runs (or a killed one left them); run the test alone"
	exit 1
fi

leftovers() {
	demo_cgroups
	find "$WORKDIR" -mindepth 1 2>/dev/null
}

# watch PID: while the demo runs, note its readers (tasks of its memcgs) and
# its BPF program ids (fdinfo of its fds) into $OUT/pids and $OUT/progs.
watch_demo() {
	local pid=$1 f
	: >"$OUT/pids"
	: >"$OUT/progs"
	while kill -0 "$pid" 2>/dev/null; do
		for f in /proc/"$pid"/fdinfo/*; do
			awk '/^prog_id:/ {print $2}' "$f" 2>/dev/null
		done >>"$OUT/progs"
		for f in $(demo_cgroups); do cat "$f/cgroup.procs"; done >>"$OUT/pids" 2>/dev/null
		sleep 0.3
	done
}

# after_checks NAME: readers gone, BPF programs gone, nothing left
after_checks() {
	local name=$1 alive="" progs="" p left
	for p in $(sort -u "$OUT/pids"); do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
	for p in $(sort -u "$OUT/progs"); do
		bpftool prog show id "$p" 2>/dev/null | grep -qE 'contention_begin|contention_end|dump_lruvecs' &&
			progs="$progs $p"
	done
	tap_check "demo: $name: its readers are gone ($(sort -u "$OUT/pids" | wc -l) seen)${alive:+, alive:$alive}" \
		test -z "$alive" -a -s "$OUT/pids"
	tap_check "demo: $name: its BPF programs are unloaded ($(sort -u "$OUT/progs" | wc -l) seen)${progs:+, still: $progs}" \
		test -z "$progs" -a -s "$OUT/progs"
	left=$(leftovers)
	tap_check "demo: $name: no lrs-demo-* cgroups, no files left${left:+: $left}" test -z "$left"
}

# -- usage errors and bad input: exit 2 or 1, before anything is created
for args in "--readers 0" "--layout diagonal" "--runs 0" "--read 8k" "--duration -1"; do
	# shellcheck disable=SC2086
	"$LRS_BIN" demo --batch $args >/dev/null 2>"$OUT/err"
	rc=$?
	if [ "$rc" = 2 ] && [ -s "$OUT/err" ] && [ -z "$(leftovers)" ]; then
		tap_ok "demo: $args is a usage error (exit 2, a message)"
	else
		tap_fail "demo: $args: exit $rc, $(head -1 "$OUT/err")"
	fi
done
ram_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
"$LRS_BIN" demo --batch --readers 2 --limit "$((ram_kb * 2))k" >/dev/null 2>"$OUT/err"
rc=$?
if [ "$rc" != 0 ] && grep -q 'larger than RAM' "$OUT/err" && [ -z "$(leftovers)" ]; then
	tap_ok "demo: a limit larger than RAM is refused before anything is created"
else
	tap_fail "demo: limit > RAM: exit $rc, $(cat "$OUT/err")"
fi
"$LRS_BIN" demo --batch --readers 2000 --limit "$((ram_kb / 8))k" --size "$((ram_kb / 8))k" \
	>/dev/null 2>"$OUT/err"
rc=$?
if [ "$rc" = 1 ] && grep -q 'not enough free memory' "$OUT/err" && [ -z "$(leftovers)" ]; then
	tap_ok "demo: not enough memory for the sizes is refused (exit 1)"
else
	tap_fail "demo: too much memory: exit $rc, $(cat "$OUT/err")"
fi

# -- a short demo: 8 readers (4 containers), 3 s per layout
"$LRS_BIN" demo --json "${SMALL[@]}" --duration 6 --runs 1 >"$OUT/json" 2>"$OUT/err" &
pid=$!
lrs_track_pid "$pid"
watch_demo "$pid"
wait "$pid"
rc=$?
if [ "$rc" = 0 ] && /usr/bin/python3 - "$OUT/json" >"$OUT/why" 2>&1 <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
lay = {l["layout"]: l for l in d["layouts"]}
sh, iso = lay["shared"], lay["isolated"]
for l in (sh, iso):
    for k in ("readers", "mb_per_s", "lruvec_contended", "lruvec_wait_ns", "other_wait_ns", "top_lruvec"):
        assert k in l, "missing %s" % k
    assert l["readers"] == 8 and l["mb_per_s"] > 0, l
assert "lruvec_wait" in d["ratio"] and "mb_per_s" in d["ratio"], d["ratio"]
print("shared wait %d ns, isolated %d ns" % (sh["lruvec_wait_ns"], iso["lruvec_wait_ns"]))
EOF
then
	tap_ok "demo: --json prints the summary object ($(cat "$OUT/why"))"
else
	tap_fail "demo: --json: exit $rc: $(cat "$OUT/why" "$OUT/err" | tail -3)"
fi
/usr/bin/python3 - "$OUT/json" >"$OUT/why" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
lay = {l["layout"]: l for l in d["layouts"]}
s, i = lay["shared"]["lruvec_wait_ns"], lay["isolated"]["lruvec_wait_ns"]
assert s > i, "shared %d ns <= isolated %d ns" % (s, i)
print("%.1fx" % (s / i) if i else "isolated none")
EOF
rc=$?
tap_check_traced "demo: the shared layout waits longer on lruvec locks than the isolated one ($(tail -1 "$OUT/why"))" \
	test "$rc" = 0
/usr/bin/python3 - "$OUT/json" >"$OUT/why" 2>&1 <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
iso = {l["layout"]: l for l in d["layouts"]}["isolated"]
a = iso["attribution"]
assert a["known"], "the collector gave no waiter tables"
# every wait of a reader was seen with the reader's own memcg as its memcg
assert a["waiter_memcg_wrong"] == 0, a
assert a["waiter_memcg_right"] > 0, "no reader waited in the isolated run: %s" % a
# the waits on the run's lruvecs are its own readers' (per-CPU LRU batches
# may make another container's reader drain a few folios)
assert a["own_contended"] >= 0.9 * (a["own_contended"] + a["foreign_contended"]), a
assert re.fullmatch(r"/lrs-demo-c[0-9]+@N[0-9]+", iso["top_lruvec"]), iso["top_lruvec"]
print("%d waits, all on own memcg; top %s" % (a["waiter_memcg_right"], iso["top_lruvec"]))
EOF
rc=$?
tap_check_traced "demo: isolated waits are attributed to each reader's own memcg ($(tail -1 "$OUT/why"))" \
	test "$rc" = 0
after_checks "normal end"

# -- SIGINT mid-run, and a second demo refused meanwhile
"$LRS_BIN" demo --json "${SMALL[@]}" --duration 20 --runs 1 >"$OUT/json" 2>"$OUT/err" &
pid=$!
lrs_track_pid "$pid"
watch_demo "$pid" &
watcher=$!
for i in $(seq 1 150); do	# until its first memcg has readers, 30 s max
	for f in $(demo_cgroups); do cat "$f/cgroup.procs"; done 2>/dev/null |
		grep -q . && break	# cgroup files have size 0: read them
	sleep 0.2
done
"$LRS_BIN" demo --batch "${SMALL[@]}" --duration 1 --runs 1 >/dev/null 2>"$OUT/err2"
rc=$?
if [ "$rc" = 1 ] && grep -q 'another demo is running' "$OUT/err2"; then
	tap_ok "demo: a second demo refuses while one runs ($(head -c 80 "$OUT/err2"))"
else
	tap_fail "demo: second demo: exit $rc, $(cat "$OUT/err2")"
fi
sleep 1
kill -INT "$pid"
lrs_wait_for "$pid" 60
rc=$?
wait "$watcher"
tap_check "demo: SIGINT ends it with exit 1 (interrupted), got $rc" test "$rc" = 1
after_checks "after SIGINT"
tap_check "demo: the lock is released after SIGINT" test ! -e /run/lruscope-demo.lock
