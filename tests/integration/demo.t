#!/usr/bin/env bash
# lruscope demo in --batch --json mode with small sizes: the shared layout
# waits more on lruvec locks than the isolated one, the isolated run's waits
# are attributed to the readers' own memcgs; --record writes a recording per
# layout that report -i reads and diff compares (its printed command, run as
# printed), and refuses files that exist; nothing is left behind
# (memcgs, files, readers, BPF programs) after a normal end and after SIGINT.
# A second demo refuses while one runs. See tests/PROTOCOL.md.
# It needs traced lruvec-lock waits: where this host traces none, the runner runs
# it in the lab guest.
# live: traced
set -u
. "${LRS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

tap_plan 25
need_root demo
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
	# two processes a round, not one per fd: in a loaded lab guest a round of one awk per
	# fd outlasted the readers' runs, and no reader was ever seen
	while kill -0 "$pid" 2>/dev/null; do
		awk '/^prog_id:/ {print $2}' /proc/"$pid"/fdinfo/* >>"$OUT/progs" 2>/dev/null
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
"$LRS_BIN" demo --batch --readers 256 --limit "$((ram_kb / 8))k" --size "$((ram_kb / 8))k" \
	>/dev/null 2>"$OUT/err"
rc=$?
if [ "$rc" = 1 ] && grep -q 'not enough free memory' "$OUT/err" && [ -z "$(leftovers)" ]; then
	tap_ok "demo: not enough memory for the sizes is refused (exit 1)"
else
	tap_fail "demo: too much memory: exit $rc, $(cat "$OUT/err")"
fi

# -- a short demo: 8 readers (4 containers), 10 s per layout (stretched in the lab guest, whose
# slow intervals would leave the diff too few), recorded: about 40 intervals a side in the
# guest, where the first ones (the page cache filling up to the limit) make neighbouring
# intervals alike and diff widens its test for that
"$LRS_BIN" demo --json "${SMALL[@]}" --duration "$(lrs_secs 10)" --runs 1 --record "$OUT/rec" >"$OUT/json" 2>"$OUT/err" &
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
# at this size the shared layout waits about 10 times longer (8.6x on a 2-CPU host, 300x and
# more in the lab guest): 3x is the least that is the patchset's effect and not noise
assert s > 0 and s >= 3 * i, "shared %d ns, isolated %d ns: %.1fx" % (s, i, s / i if i else 0)
print("%.1fx" % (s / i) if i else "isolated none")
EOF
rc=$?
tap_check "demo: the shared layout waits at least 3x longer on lruvec locks than the isolated one ($(tail -1 "$OUT/why"))" \
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
tap_check "demo: isolated waits are attributed to each reader's own memcg ($(tail -1 "$OUT/why"))" \
	test "$rc" = 0
after_checks "normal end"

# -- --record: a recording per layout, and the diff command it printed
REC_A=$OUT/rec/shared.jsonl REC_B=$OUT/rec/isolated.jsonl
tap_check "demo: --record: it printed the command 'lruscope diff $REC_A $REC_B' ($(grep -A1 '^compare the layouts' "$OUT/err" | tail -n1))" \
	grep -qxF "  lruscope diff $REC_A $REC_B" "$OUT/err"
# recording_ok FILE REGEX: report -i FILE -f json parses and lists a memcg matching REGEX
recording_ok() {
	"$LRS_BIN" report -i "$1" -f json 2>&1 | /usr/bin/python3 -c '
import json, re, sys
d = json.load(sys.stdin)
m = sorted({l["memcg"] for l in d["lruvecs"] if re.search(sys.argv[1], l["memcg"])})
assert m, "no memcg matching %s" % sys.argv[1]
print(" ".join(m))' "$2"
}
export -f recording_ok
export LRS_BIN
for f in "$REC_A:lrs-demo-shared$" "$REC_B:lrs-demo-c[0-9]+$"; do
	seen=$(recording_ok "${f%%:*}" "${f#*:}" 2>&1 | tail -n1)
	tap_check "demo: --record: ${f%%:*} is a recording that report -i reads, with the layout's memcgs (${seen})" \
		bash -c 'recording_ok "$1" "$2" >/dev/null' _ "${f%%:*}" "${f#*:}"
done
# the command it printed, run as printed (lruscope is the one under test)
cmd=$(grep -A1 '^compare the layouts' "$OUT/err" | tail -n1 | sed "s|^  lruscope |$LRS_BIN |")
$cmd -f json >"$OUT/diff.json" 2>"$OUT/diff.err"
rc=$?
tap_check "demo: --record: that diff exits 0 ($rc: $(head -c 200 "$OUT/diff.err")) with 3 or more intervals a side ($(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["a"]["samples"], d["b"]["samples"])' "$OUT/diff.json" 2>&1 | tail -n1))" \
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[2])); sys.exit(sys.argv[1] != "0" or d["a"]["samples"] < 3 or d["b"]["samples"] < 3)' "$rc" "$OUT/diff.json"
# diff lists only lruvecs that waited: where lruvec locks are traced, the demo's memcgs
# are listed on their side, and the shared layout's lruvec contentions are a significant
# change, its wait down too. On bare metal the wait's change must be significant as well;
# in a virtual machine a lock holder's vCPU can lose its host thread for whole timeslices
# (the lab guest under TCG; a KVM guest whose host is busy), so a burst of long waits, on a
# lruvec outside the demo or on the demo's own, can lift some isolated intervals' wait above
# the shared ones' and leave a large drop short of p < 0.01 (the count of contentions is not
# stretched so): there the wait must still fall by half at least.
diff_sides() {
	/usr/bin/python3 - "$OUT/diff.json" <<'PY'
import json, os, re, sys
d = json.load(open(sys.argv[1]))
side = {l["memcg"].rsplit("/", 1)[-1]: l["side"] for l in d["lruvecs"]}
assert side.get("lrs-demo-shared") == "only_a", side
assert any(re.fullmatch(r"lrs-demo-c[0-9]+", m) and s == "only_b" for m, s in side.items()), side
w, c = d["totals"][0]["wait_ns_per_s"], d["totals"][0]["contended_per_s"]
others = ["%s@N%s %.3g s/s" % (l["memcg"], l.get("node"), l["wait_ns_per_s"]["b"] / 1e9)
          for l in d["lruvecs"] if not re.search(r"/lrs-demo-", l["memcg"])
          and (l["wait_ns_per_s"].get("b") or 0) > 0]
why = "wait %s, contended %s; isolated run's other lruvecs: %s" % (w, c, others or "none")
assert c["significant"] and c["ratio"] < 1 and w["ratio"] < 1, why
with open("/proc/cpuinfo") as f:
    virtual = os.environ.get("LRS_LAB_GUEST") == "1" or " hypervisor" in f.read()
assert w["significant"] or (virtual and w["ratio"] < 0.5), why
print("isolated/shared lruvec contentions %.3fx, p %.2g; wait %.2fx, p %.2g" %
      (c["ratio"], c["p"], w["ratio"], w["p"]))
PY
}
tap_check "demo: --record: the diff lists lrs-demo-shared only in A, lrs-demo-c* only in B, the lruvec contentions down significantly ($(diff_sides 2>&1 | tail -n1))" \
	diff_sides
"$LRS_BIN" demo --json "${SMALL[@]}" --duration 1 --runs 1 --record "$OUT/rec" >/dev/null 2>"$OUT/err3"
rc=$?
tap_check "demo: --record into a directory holding the recordings: refused, exit 1 ($rc: $(head -c 160 "$OUT/err3")), nothing created, the recording intact" \
	bash -c '[ "$1" = 1 ] && grep -q "shared.jsonl: exists" "$2" && [ -z "$3" ] && recording_ok "$4" "lrs-demo-shared$" >/dev/null' \
	_ "$rc" "$OUT/err3" "$(leftovers)" "$REC_A"

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
