#!/usr/bin/env bash
# lruscope diff on recordings made up by tests/lib/lrs_recording.py (every
# rate known, noise from a seeded generator): two recordings of one
# distribution show no significant change, five times with other seeds (at
# most one false alarm); one memcg's wait 5x is significant and listed first;
# memcgs on one side only are listed as such; memcgs match by path across
# other cgroup ids; JSON parses and says what the text says; user nobody gets
# root's output; the causes of sampled stacks under an lruvec (one 5x significant and
# first, one sampled in B only, one unchanged, unclassified), in text and JSON; bad
# files and arguments; --tui in tmux: the 5x memcg first, its ratio red on the
# diverging scale, an unchanged one plain, q quits; the causes line, 5x red;
# --gui --screenshot: the same colours read back from the PNG; --tui with more memcgs
# than rows: Down, PgDn and PgUp scroll, the last row is reachable and the view stops
# there; --gui in a real window on Xvfb: it opens, its first line names the two
# recordings (as the headless frame draws them), q closes it. The live diff is
# diff_live.t's. See tests/PROTOCOL.md.
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 54

T=diff
need_root "$T"
[ -x "$LRS_BIN" ] || { tap_fail "$T: $LRS_BIN is missing (make)"; exit 1; }
WORK=$(mktemp -d /tmp/lrs-test-diff.XXXXXX)
chmod 755 "$WORK"		# user nobody reads the recordings too
SOCK=lrs-test-diff$$		# a tmux server of this test's own: kill-server touches nothing else
tm() { tmux -L "$SOCK" "$@"; }
trap 'lrs_tmux_end "$SOCK"; lrs_cleanup; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

# make NAME SEED WARM_FACTOR MEMCGS ID_OFFSET: 31 snapshots 1 s apart on nodes 0
# and 1; each interval's rate is the memcg's mean times lognormal noise
# (sigma 0.3): hot 3 ms/s on N0 and 1 ms/s on N1, warm 1 ms/s x WARM_FACTOR,
# new and gone 0.5 ms/s, idle never; one other lock, 0.4 ms/s.
make_rec() {
	PYTHONPATH=$LRS_ROOT/tests/lib /usr/bin/python3 - "$WORK/$1" "$2" "$3" "$4" "$5" <<'PY'
import random, sys
import lrs_recording
path, seed, warm, memcgs, offset = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4].split(","), int(sys.argv[5])
rnd = random.Random(seed)
mean = {("/lrs-d-hot", 0): 3e6, ("/lrs-d-hot", 1): 1e6, ("/lrs-d-warm", 0): 1e6 * warm,
        ("/lrs-d-new", 0): 5e5, ("/lrs-d-gone", 0): 5e5}
lrs_recording.write(path, memcgs, 31, lambda i, m, n: mean.get((m, n), 0) * rnd.lognormvariate(0, 0.3),
                    nodes=(0, 1), id_offset=offset,
                    others=lambda i: [("spinlock @ __remove_mapping", 4e5 * rnd.lognormvariate(0, 0.3))])
PY
	chmod 644 "$WORK/$1"
}
base=/lrs-d-hot,/lrs-d-warm,/lrs-d-gone,/lrs-d-idle
make_rec a.jsonl 1 1 "$base" 0
make_rec a2.jsonl 2 1 "$base" 40		# the same distribution, other cgroup ids
make_rec b.jsonl 3 5 /lrs-d-hot,/lrs-d-warm,/lrs-d-new,/lrs-d-idle 80

# diff NAME ARGS...: lruscope diff ARGS into $WORK/NAME, stderr and exit status beside it
diff_to() {
	local name=$1; shift
	"$LRS_BIN" diff "$@" >"$WORK/$name" 2>"$WORK/$name.err"
	echo $? >"$WORK/$name.rc"
}
rc() { cat "$WORK/$1.rc"; }
# the lruvec rows of a text diff, in order: "name*" when significant, "name" when not
rows() { sed -n '/lruvec (memcg@node)$/,/^$/p' "$1" | grep -E '@N[0-9]' |
	awk '{ sig = ($0 ~ /\*/) ? "*" : ""; for (i = 1; i <= NF; i++) if ($i ~ /@N[0-9]+$/) print $i sig }' | paste -sd' '; }

# ---- the same distribution -------------------------------------------------------------
cd "$WORK" || exit 1
diff_to same a.jsonl a2.jsonl
tap_check "$T: same distribution, other cgroup ids: exit 0 ($(rc same): $(head -c 200 "$WORK/same.err"))" \
	[ "$(rc same)" = 0 ]
tap_check "$T: same distribution: 'no significant change' ($(tail -n1 "$WORK/same"))" \
	grep -q '^no significant change (p < 0.01, at least 10%) among 1 memcg on several nodes, 4 lruvecs and 1 other lock' "$WORK/same"
tap_check "$T: same distribution: memcgs matched by path, none 'only in' ($(rows "$WORK/same"))" \
	bash -c '[ -n "$(grep "@N" "$1")" ] && ! grep -q "only in" "$1"' _ "$WORK/same"

# ---- one memcg's wait 5x, one memcg gone, one new ------------------------------------
diff_to shift a.jsonl b.jsonl
order=$(rows "$WORK/shift")
tap_check "$T: 5x: exit 0 ($(rc shift): $(head -c 200 "$WORK/shift.err"))" [ "$(rc shift)" = 0 ]
tap_check "$T: 5x: /lrs-d-warm@N0 is significant and first, the only one ($order)" \
	bash -c '[[ "$1" == "/lrs-d-warm@N0* "* ]] && [ "$(grep -o "\*" <<<"$1" | wc -l)" = 1 ]' _ "$order"
tap_check "$T: 5x: its ratio is about 5 ($(grep -m1 '/lrs-d-warm@N0' "$WORK/shift" | awk '{print $3}'))" \
	bash -c 'r=$(grep -m1 "/lrs-d-warm@N0" "$1" | awk "{print \$3}" | tr -d x); awk -v r="$r" "BEGIN { exit !(r > 3.5 && r < 7) }"' _ "$WORK/shift"
tap_check "$T: 5x: /lrs-d-new is listed as only in B, /lrs-d-gone as only in A" \
	bash -c 'grep -qE "/lrs-d-new@N0  \(only in B\)$" "$1" && grep -qE "/lrs-d-gone@N0  \(only in A\)$" "$1"' _ "$WORK/shift"
tap_check "$T: 5x: the summary says 1 significant change ($(tail -n1 "$WORK/shift"))" \
	grep -q '^1 significant change (p < 0.01, at least 10%)' "$WORK/shift"
tap_check "$T: 5x: the heading names the test, the interval and the samples" \
	bash -c 'grep -q "^A: a.jsonl, Linux 6.18.0-lrs-test, 30 intervals of 1.00 s$" "$1" &&
		grep -q "^test: Mann-Whitney U" "$1"' _ "$WORK/shift"

head -n 7 a.jsonl >"$WORK/short.jsonl"		# a header and 6 snapshots: 5 intervals
diff_to short short.jsonl b.jsonl
tap_check "$T: 5 intervals against 30: a note says their correlation cannot be judged; 30 against 30: none" \
	bash -c 'grep -q "^note: under 20 intervals on a side" "$1" && ! grep -q "^note:" "$2"' _ "$WORK/short" "$WORK/shift"

# ---- JSON: parses, and says what the text says ------------------------------------------
diff_to shift.json -f json a.jsonl b.jsonl
tap_check "$T: -f json: exit 0 and the JSON agrees with the text (rows, order, significance, ratios, sides)" \
	/usr/bin/python3 - "$WORK/shift.json" "$WORK/shift" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().splitlines()
rows = [l for l in text if re.search(r"@N\d+(  \(only in [AB]\))?$", l)]
want = []
for lv in doc["lruvecs"]:
    w = lv["wait_ns_per_s"]
    name = "%s@N%d" % (lv["memcg"], lv["node"])
    side = {"both": "", "only_a": "  (only in A)", "only_b": "  (only in B)"}[lv["side"]]
    ratio = "-" if w["ratio"] is None and w["a"] == 0 and w["b"] == 0 else \
        "new" if w["ratio"] is None else ("%.2fx" % w["ratio"] if w["ratio"] < 100 else "%.0fx" % w["ratio"])
    want.append((name + side, ratio, "*" if lv["significant"] else ""))
got = []
for l in rows:
    f = l.split()
    got.append((l.split("   ")[-1].strip() if "only in" not in l else
                re.search(r"(\S+@N\d+  \(only in [AB]\))$", l).group(1), f[2], "*" if "*" in l else ""))
assert doc["test"] == "mann-whitney-u" and doc["alpha"] == 0.01, doc["test"]
assert doc["a"]["samples"] == 30 and doc["b"]["interval_s"] == 1, doc["a"]
assert doc["significant"] == 1, doc["significant"]
assert want == got, (want, got)
PY

# ---- causes: the kernel paths of the sampled stacks under each lruvec --------------------
# make_causes NAME SEED RECLAIM DRAIN: 31 snapshots of /lrs-d-warm (node 0) whose sampled
# stacks wait, in ns/s, RECLAIM in shrink_inactive_list, 1e5 in folio_mark_accessed
# (activation), DRAIN in lru_add_drain_cpu and 2e4 in a function no cause names; each
# lognormal (sigma 0.3) per interval. /lrs-d-hot waits without stacks.
make_causes() {
	PYTHONPATH=$LRS_ROOT/tests/lib /usr/bin/python3 - "$WORK/$1" "$2" "$3" "$4" <<'PY'
import random, sys
import lrs_recording
path, seed, reclaim, drain = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
rnd = random.Random(seed)
paths = [(["shrink_inactive_list+0x1a", "shrink_lruvec+0x40"], reclaim),
         (["folio_mark_accessed+0x10", "filemap_read+0x22"], 1e5),
         (["lru_add_drain_cpu+0x5", "lru_add_drain+0x9"], drain),
         (["lrs_test_mystery+0x1", "do_syscall_64+0x40"], 2e4)]
def stacks(i, m, n):
    return [(f, r * rnd.lognormvariate(0, 0.3)) for f, r in paths if m == "/lrs-d-warm" and r]
lrs_recording.write(path, ["/lrs-d-warm", "/lrs-d-hot"], 31,
                    lambda i, m, n: (1e6 if m == "/lrs-d-warm" else 5e5) * rnd.lognormvariate(0, 0.3),
                    stacks=stacks)
PY
}
make_causes ca.jsonl 21 2e5 0
make_causes cb.jsonl 22 1e6 1e5
diff_to causes ca.jsonl cb.jsonl
# the cause lines under the /lrs-d-warm@N0 row, up to the next lruvec row
cause_lines() { sed -n '/\/lrs-d-warm@N0$/,/@N[0-9]/p' "$1" | grep 'cause: '; }
tap_check "$T: causes: exit 0 ($(rc causes): $(head -c 200 "$WORK/causes.err")), four cause lines under /lrs-d-warm@N0 ($(cause_lines "$WORK/causes" | sed 's/.*cause: //' | paste -sd,))" \
	bash -c '[ "$1" = 0 ] && [ "$(grep -c "cause: " <<<"$2")" = 4 ]' _ "$(rc causes)" "$(cause_lines "$WORK/causes")"
tap_check "$T: causes: reclaim first, significant, about 5x; lru-add drain 'sampled only in B' and significant" \
	bash -c 'head -n1 <<<"$1" | grep -Eq "^ +[0-9.]+[mu]s/s +[0-9.]+[mu]s/s +[4-6]\.[0-9]{2}x +[<0-9.]+\* .* cause: reclaim$" &&
		sed -n 2p <<<"$1" | grep -Eq " new +[<0-9.]+\* .* cause: lru-add drain \(sampled only in B\)$"' _ "$(cause_lines "$WORK/causes")"
tap_check "$T: causes: activation (unchanged) and unclassified listed, not significant" \
	bash -c 'grep "cause: activation$" <<<"$1" | grep -vq "\*" && grep "cause: unclassified$" <<<"$1" | grep -vq "\*"' \
	_ "$(cause_lines "$WORK/causes")"
tap_check "$T: causes: /lrs-d-hot sampled no stack: no cause lines under it; the heading explains the columns" \
	bash -c 'grep -A1 "/lrs-d-hot@N0$" "$1" | tail -n1 | grep -Eq "@N[0-9]+$|^$" && grep -q "^causes: under an lruvec" "$1"' _ "$WORK/causes"
diff_to causes.json -f json ca.jsonl cb.jsonl
tap_check "$T: causes: -f json has a causes array per lruvec, in the text's order, sides and significance alike" \
	/usr/bin/python3 - "$WORK/causes.json" "$WORK/causes" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
lv = {l["memcg"]: l for l in doc["lruvecs"]}
warm, hot = lv["/lrs-d-warm"]["causes"], lv["/lrs-d-hot"]["causes"]
assert hot == [], hot
got = [(c["cause"], c["side"], c["sampled_wait_ns_per_s"]["significant"]) for c in warm]
assert got == [("reclaim", "both", True), ("lru_add_drain", "only_b", True),
               ("activation", "both", False), ("unclassified", "both", False)] or \
       got == [("reclaim", "both", True), ("lru_add_drain", "only_b", True),
               ("unclassified", "both", False), ("activation", "both", False)], got
titles = re.findall(r"cause: ([a-z -]+?)(?: \(sampled only in [AB]\))?$", text, re.M)
assert titles == [c["title"] for c in warm], (titles, warm)
r = warm[0]["sampled_wait_ns_per_s"]
assert 3.5 < r["ratio"] < 7 and r["p"] < 0.01, r
assert abs(sum(c["share_b"] for c in warm) - 1) < 1e-6, warm
PY

# ---- user nobody -----------------------------------------------------------------------
setpriv --reuid=nobody --regid=nogroup --clear-groups "$LRS_BIN" diff a.jsonl b.jsonl \
	>"$WORK/nobody" 2>"$WORK/nobody.err"
rc_nobody=$?
tap_check "$T: as nobody: exit 0 ($rc_nobody: $(head -c 200 "$WORK/nobody.err")) with root's text" \
	bash -c '[ "$1" = 0 ] && cmp -s "$2" "$3"' _ "$rc_nobody" "$WORK/nobody" "$WORK/shift"

# ---- five pairs of one distribution, other seeds: false alarms --------------------------
alarms=0 seen=""
for seed in 11 12 13 14 15; do
	make_rec "s$seed-a.jsonl" "$seed" 1 "$base" 0
	make_rec "s$seed-b.jsonl" "$((seed + 100))" 1 "$base" 0
	diff_to "s$seed" -f json "s$seed-a.jsonl" "s$seed-b.jsonl"
	n=$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["significant"] + sum(t["significant"] for t in d["totals"]))' "$WORK/s$seed")
	seen="$seen $seed:${n:-?}"
	[ "${n:-1}" = 0 ] || alarms=$((alarms + 1))
done
tap_check "$T: 5 diffs of one distribution (seeds$seen): $alarms with a false alarm, at most 1 allowed" \
	[ "$alarms" -le 1 ]

# ---- steady rates: a change the test resolves, under the least change ------------------
# make_steady NAME SEED FACTOR: /lrs-d-hot at 3 ms/s x FACTOR, each interval within 0.5%
make_steady() {
	PYTHONPATH=$LRS_ROOT/tests/lib /usr/bin/python3 - "$WORK/$1" "$2" "$3" <<'PY'
import random, sys
import lrs_recording
path, seed, factor = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
rnd = random.Random(seed)
lrs_recording.write(path, ["/lrs-d-hot"], 31, lambda i, m, n: 3e6 * factor * rnd.uniform(0.995, 1.005),
                    nodes=(0,))
PY
}
make_steady st-a.jsonl 31 1
make_steady st-up5.jsonl 32 1.05
make_steady st-up20.jsonl 33 1.2
# p and significant of /lrs-d-hot@N0's wait/s in a -f json diff
hot() { /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=[r for r in d["lruvecs"] if r["memcg"]=="/lrs-d-hot"][0]["wait_ns_per_s"]; print(r["p"] < 0.001, r["significant"], d["min_change"])' "$WORK/$1"; }
diff_to up5 -f json st-a.jsonl st-up5.jsonl
diff_to up5.0 -f json --min-change 2 st-a.jsonl st-up5.jsonl
diff_to up20 -f json st-a.jsonl st-up20.jsonl
diff_to up5.text st-a.jsonl st-up5.jsonl
tap_check "$T: steady rates 5% up: p < 0.001, not significant under the default 10% ($(hot up5)); --min-change 2: significant ($(hot up5.0)); 20% up: significant ($(hot up20))" \
	bash -c '[ "$1" = "True False 0.1" ] && [ "$2" = "True True 0.02" ] && [ "$3" = "True True 0.1" ]' \
	_ "$(hot up5)" "$(hot up5.0)" "$(hot up20)"
tap_check "$T: steady rates 5% up: the text says what significant means and finds no change ($(tail -n1 "$WORK/up5.text"))" \
	bash -c 'grep -q "^test: .*\* significant: p < 0.01 and a change of at least 10%" "$1" &&
		grep -q "^no significant change (p < 0.01, at least 10%)" "$1"' _ "$WORK/up5.text"
diff_to mc-bad --min-change 5x st-a.jsonl st-up5.jsonl
diff_to mc-neg --min-change -1 st-a.jsonl st-up5.jsonl
tap_check "$T: --min-change 5x or -1: usage error, exit 2 ($(cat "$WORK/mc-bad.err"))" \
	bash -c '[ "$1" = 2 ] && [ "$2" = 2 ] && grep -q "^lruscope diff: --min-change .5x.: want a percentage, 0 to 1000$" "$3"' \
	_ "$(rc mc-bad)" "$(rc mc-neg)" "$WORK/mc-bad.err"

# ---- a memcg on two nodes: its wait moves between them, its sum holds ----------------------
# make_split NAME SEED N0 N1: /lrs-d-split at N0 and N1 ms/s on nodes 0 and 1, /lrs-d-one at
# 1 ms/s on node 0 only; each interval within 5%
make_split() {
	PYTHONPATH=$LRS_ROOT/tests/lib /usr/bin/python3 - "$WORK/$1" "$2" "$3" "$4" <<'PY'
import random, sys
import lrs_recording
path, seed, n0, n1 = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
rnd = random.Random(seed)
mean = {("/lrs-d-split", 0): n0 * 1e6, ("/lrs-d-split", 1): n1 * 1e6, ("/lrs-d-one", 0): 1e6}
lrs_recording.write(path, ["/lrs-d-split", "/lrs-d-one"], 31,
                    lambda i, m, n: mean.get((m, n), 0) * rnd.uniform(0.95, 1.05), nodes=(0, 1))
PY
}
make_split split-a.jsonl 41 2 2
make_split split-b.jsonl 42 1 3
diff_to split split-a.jsonl split-b.jsonl
diff_to split.json -f json split-a.jsonl split-b.jsonl
# "memcg significant ratio; lruvec@N0 significant; lruvec@N1 significant; memcgs listed"
split_rows() { /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
m={r["memcg"]: r for r in d["memcgs"]}; s=m["/lrs-d-split"]["wait_ns_per_s"]
lv={(r["memcg"], r["node"]): r["wait_ns_per_s"]["significant"] for r in d["lruvecs"]}
print(s["significant"], round(s["ratio"], 1), lv[("/lrs-d-split", 0)], lv[("/lrs-d-split", 1)], ",".join(sorted(m)))' "$WORK/$1" 2>&1; }
tap_check "$T: a memcg on two nodes, its wait moved from N0 to N1: its sum over the nodes is a row, not significant at about 1x, both lruvecs significant; a memcg on one node has no sum ($(split_rows split.json))" \
	[ "$(split_rows split.json)" = "False 1.0 True True /lrs-d-split" ]
tap_check "$T: the text lists the memcg sum in a section of its own, and counts it in the summary ($(tail -n1 "$WORK/split"))" \
	bash -c 'grep -A1 "memcg (its lruvecs on all nodes)\$" "$1" | grep -qE "(0\.9[0-9]|1\.0[0-9])x .*/lrs-d-split\$" &&
		grep -q "^2 significant changes (p < 0.01, at least 10%) among 1 memcg on several nodes, 3 lruvecs" "$1"' \
	_ "$WORK/split"

# ---- errors ------------------------------------------------------------------------------
diff_to missing a.jsonl nope.jsonl
tap_check "$T: a missing file: exit 1, one line naming it ($(cat "$WORK/missing.err"))" \
	bash -c '[ "$1" = 1 ] && [ "$(wc -l <"$2")" = 1 ] && grep -q "nope.jsonl: cannot open" "$2" && [ ! -s "$3" ]' \
	_ "$(rc missing)" "$WORK/missing.err" "$WORK/missing"
echo "not a recording" >"$WORK/bad.jsonl"
diff_to bad bad.jsonl a.jsonl
tap_check "$T: not a recording: exit 1, one line naming it ($(cat "$WORK/bad.err"))" \
	bash -c '[ "$1" = 1 ] && [ "$(wc -l <"$2")" = 1 ] && grep -q "bad.jsonl:1: not an lruscope recording" "$2"' \
	_ "$(rc bad)" "$WORK/bad.err"
head -n 2 a.jsonl >"$WORK/one.jsonl"
diff_to one a.jsonl one.jsonl
tap_check "$T: one snapshot: exit 1, 'needs at least two' ($(cat "$WORK/one.err"))" \
	bash -c '[ "$1" = 1 ] && grep -q "one.jsonl: 1 snapshot: diff needs at least two" "$2"' _ "$(rc one)" "$WORK/one.err"
diff_to onearg a.jsonl
diff_to fmt -f csv a.jsonl b.jsonl
tap_check "$T: one recording, or -f csv: usage errors, exit 2 ($(cat "$WORK/onearg.err") / $(cat "$WORK/fmt.err"))" \
	bash -c '[ "$1" = 2 ] && [ "$2" = 2 ] && grep -q "want two recordings" "$3"' _ "$(rc onearg)" "$(rc fmt)" "$WORK/onearg.err"
diff_to help --help
tap_check "$T: --help: exit 0, names the test, the level and --min-change" \
	bash -c '[ "$1" = 0 ] && grep -q "Mann-Whitney" "$2" && grep -q "p < 0.01" "$2" && grep -q -- "--min-change PCT" "$2"' _ "$(rc help)" "$WORK/help"

# ---- the TUI: side by side, the ratio on the diverging scale ----------------------------
# tui_open SESSION COLS LINES A B: diff --tui A B in a tmux window of that size
tui_open() {
	tm new-session -d -x "$2" -y "$3" -s "$1" -c "$WORK" \
		"env TERM=xterm-256color '$LRS_BIN' diff --tui $4 $5; echo EXIT=\$?; sleep 60"
}
# tui_quit SESSION WHAT: q, and the check that it quit with exit 0
tui_quit() {
	tm send-keys -t "$1" q
	lrs_screen_check "$T: --tui$2: q quits with exit 0" "$1" '^EXIT=0$' 10
}
tui_open tui 120 20 a.jsonl b.jsonl
# the row under the heading, from the screen lrs_screen_check waited for
warm_first() {
	grep -A1 "^ memcg (4)" <<<"$LRS_SCREEN" | tail -n1 |
		grep -Eq "^ /lrs-d-warm +([89][0-9]{2}us|1\.[0-9]ms)/s +[4-6]\.[0-9]ms/s +[4-6]\.[0-9]{2}x"
}
lrs_screen_check "$T: --tui: the first memcg row is /lrs-d-warm, about 1ms/s in A and 5ms/s in B, ratio about 5" tui \
	'^ memcg \(4\) +N0 +A +B +B/A' 20 warm_first
tap_check "$T: --tui: /lrs-d-new shows 'only B', /lrs-d-gone 'only A', the status 1 significant change, the legend what significant means" \
	bash -c 'grep -Eq "^ /lrs-d-new .* only B" <<<"$1" && grep -Eq "^ /lrs-d-gone .* only A" <<<"$1" &&
		grep -q "1 significant change" <<<"$1" && grep -q "(p < 0.01, >= 10%)" <<<"$1"' _ "$LRS_SCREEN"
colours=$(tm capture-pane -e -p -t tui)
# 5.xx is level 3 (4x to 8x): xterm colour 160 behind it; /lrs-d-hot (not significant): no background
tap_check "$T: --tui: the 5x ratio is red (256-colour background 160), the unchanged one has no colour" \
	bash -c 'grep "/lrs-d-warm" <<<"$1" | grep -q "48;5;160m *[4-6]\.[0-9][0-9]x" &&
		! grep "/lrs-d-hot" <<<"$1" | grep -q "48;5;"' _ "$colours"
tui_quit tui ""

# the causes line: those of the first lruvec with sampled stacks, the 5x one red
tui_open tuic 120 16 ca.jsonl cb.jsonl
lrs_screen_check "$T: --tui: a line names /lrs-d-warm@N0's causes: reclaim about 5x significant first, lru-add drain new, unclassified" tuic \
	'^ causes /lrs-d-warm@N0 sampled B/A: reclaim [4-6]\.[0-9]{2}x\*  lru-add drain new\*  .*unclassified' 20
colours=$(tm capture-pane -e -p -t tuic)
tap_check "$T: --tui: the causes line colours reclaim's 5x red (background 160), activation's not at all" \
	bash -c 'grep " causes /lrs-d-warm" <<<"$1" | grep -q "reclaim .*48;5;160m[4-6]\.[0-9][0-9]x\*" &&
		! grep " causes /lrs-d-warm" <<<"$1" | grep -Eq "activation [^ ]*48;5;"' _ "$colours"
tui_quit tuic " (causes)"

# a memcg on two nodes: an "all" column past the nodes holds its sum, plain while both nodes are coloured
tui_open tuis 120 12 split-a.jsonl split-b.jsonl
lrs_screen_check "$T: --tui: past one node, a column 'all' after N0 and N1" tuis \
	'^ memcg \(2\) +N0 +A +B +B/A +N1 +A +B +B/A +all +A +B +B/A' 20
colours=$(tm capture-pane -e -p -t tuis)
split_line=$(grep "/lrs-d-split" <<<"$colours" | head -n 1)
# N0's 0.50x is level -1 (xterm 153), N1's 1.47x level 1 (224); then the sum, about 1x, with no colour
tap_check "$T: --tui: /lrs-d-split's N0 and N1 ratios coloured, its sum over both in 'all' about 1x and plain ($(sed 's/\x1b\[[0-9;]*m//g' <<<"$split_line"))" \
	bash -c 'grep -q "48;5;153m *0\.[45][0-9]x.*48;5;224m *1\.[45][0-9]x" <<<"$1" &&
		sed "s/.*48;5;224m *1\.[45][0-9]x//" <<<"$1" | sed "s/\x1b\[[0-9;]*m//g" |
		grep -Eq "^ +4\.[0-9]ms/s +4\.[0-9]ms/s +(0\.9[0-9]|1\.0[0-9])x *\$" &&
		! sed "s/.*48;5;224m *1\.[45][0-9]x//" <<<"$1" | grep -q "48;5;"' _ "$split_line"
tui_quit tuis " (two nodes)"
# at 80 columns "all" does not fit next to the two nodes and a name of the least width: left out
tui_open tuin 80 12 split-a.jsonl split-b.jsonl
lrs_screen_check "$T: --tui at 80 columns: N0 and N1 whole, no 'all' column" tuin \
	'^ memcg \(2\) +N0 +A +B +B/A +N1 +A +B +B/A *$' 20
tui_quit tuin " at 80 columns"

# ---- the TUI: more memcgs than rows, scrolled ---------------------------------------------
# make_many NAME SEED: 30 memcgs on two nodes, /lrs-d-mK at (30 - K) x 0.1 ms/s, within 5%
make_many() {
	PYTHONPATH=$LRS_ROOT/tests/lib /usr/bin/python3 - "$WORK/$1" "$2" <<'PY'
import random, sys
import lrs_recording
path, seed = sys.argv[1], int(sys.argv[2])
rnd = random.Random(seed)
M = ["/lrs-d-m%02d" % k for k in range(30)]
lrs_recording.write(path, M, 11, lambda i, m, n: (30 - M.index(m)) * 1e5 * rnd.uniform(0.95, 1.05), nodes=(0, 1))
PY
	chmod 644 "$WORK/$1"
}
make_many many-a.jsonl 51
make_many many-b.jsonl 52
# 20 lines: 13 memcg rows (title, legend, headings; causes, two totals, status)
tui_open tuiv 120 20 many-a.jsonl many-b.jsonl
# view: the memcgs the pane shows now, in order, on one line (after the screen settled)
view() { lrs_screen_wait "$SOCK" tuiv '^ memcg \(30\)' 5; grep -oE '^ /lrs-d-m[0-9]{2} ' <<<"$LRS_SCREEN" | tr -d ' ' | paste -sd' '; }
# press KEY: KEY, then the view once it is no longer $V (or 5 s on), into V
press() {
	local before=$V i
	tm send-keys -t tuiv "$1"
	for ((i = 0; i < 20; i++)); do V=$(view); [ "$V" != "$before" ] && break; sleep 0.25; done
}
nth() { cut -d' ' -f"$1" <<<"$2"; }
count() { wc -w <<<"$1"; }
lrs_screen_wait "$SOCK" tuiv '^ memcg \(30\)' 20
V=$(view) V0=$(view)
echo "# first view: $V0"
tap_check "$T: --tui: 30 memcgs in a pane of 20 lines: 13 rows shown" [ "$(count "$V0")" = 13 ]
press Down
V1=$V
echo "# after Down: $V1"
tap_check "$T: --tui: Down scrolls one row: the second row is first, 13 rows shown" \
	[ "$(nth 1 "$V1")" = "$(nth 2 "$V0")" -a "$(count "$V1")" = 13 ]
press PgDn
V2=$V
echo "# after PgDn: $V2"
disjoint() { [ -n "$2" ] && ! grep -qxF -f <(tr ' ' '\n' <<<"$1") <(tr ' ' '\n' <<<"$2"); }
tap_check "$T: --tui: PgDn scrolls a page: none of the 13 rows shown before is shown now" disjoint "$V1" "$V2"
press PgDn
V3=$V
echo "# after PgDn again: $V3"
all_seen=$(tr ' ' '\n' <<<"$V0 $V1 $V2 $V3" | sort -u | wc -l)
tap_check "$T: --tui: PgDn again reaches the end: 13 rows, and every one of the 30 memcgs was on screen ($all_seen)" \
	[ "$all_seen" = 30 -a "$(count "$V3")" = 13 ]
tm send-keys -t tuiv PgDn Down
sleep 1
V4=$(view)
tap_check "$T: --tui: past the end, PgDn and Down leave the last rows shown" [ "$V4" = "$V3" ]
press PgUp
echo "# after PgUp: $V"
tap_check "$T: --tui: PgUp scrolls a page back: the first row is the first view's fifth (30 - 13 - 13)" \
	[ "$(nth 1 "$V")" = "$(nth 5 "$V0")" ]
tui_quit tuiv " (scrolled)"

# ---- the GUI: a headless frame, its colours read back -----------------------------------
# diverging FILE.png WANT [CELLS]: the diverging colours below the legend are WANT (a
# comma list of xterm numbers, or "none"), the first sits in the first memcg row, and
# that row has CELLS coloured ratio cells (runs of those colours along its top pixel row)
diverging() {
	/usr/bin/python3 - "$LRS_ROOT/tests/integration" "$@" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from gui_png import read_png
w, h, rows = read_png(sys.argv[2])
want = [] if sys.argv[3] == "none" else [int(c) for c in sys.argv[3].split(",")]
def xterm(i):
    cube = [0, 95, 135, 175, 215, 255]
    i -= 16
    return (cube[i // 36], cube[(i // 6) % 6], cube[i % 6])
levels = {n: xterm(n) for n in (19, 26, 69, 153, 224, 210, 160, 88)}
colours = [set(zip(r[0::3], r[1::3], r[2::3])) for r in rows]
ys = {n: [y for y in range(h) if c in colours[y]] for n, c in levels.items()}
# the legend shows every level: its band is where the darkest blue (19) is
legend = max(ys[19])
line = legend - min(ys[19]) + 1
below = {n: [y for y in v if y > legend] for n, v in ys.items()}
seen = sorted(n for n, v in below.items() if v)
assert seen == sorted(want), ("colours below the legend", seen, "want", want)
if want:
    top = min(below[want[0]])
    assert top - legend < 3 * line, ("the coloured cell is not in the first row", top, legend, line)
    if len(sys.argv) > 4:
        pix = rows[top]
        lit = [x for x in range(w) if tuple(pix[3 * x:3 * x + 3]) in levels.values()]
        cells = sum(1 for i, x in enumerate(lit) if i == 0 or x - lit[i - 1] > 1)
        assert cells == int(sys.argv[4]), ("coloured cells in the first row", cells, "want", sys.argv[4])
print("# diverging colours below the legend:", seen, "legend at y", legend)
PY
}
"$LRS_BIN" diff --gui --screenshot "$WORK/shift.png" a.jsonl b.jsonl >"$WORK/gui.out" 2>&1
rc_gui=$?
tap_check "$T: --gui --screenshot: 5x: exit 0 ($rc_gui: $(head -c 200 "$WORK/gui.out"))" \
	bash -c '[ "$1" = 0 ]' _ "$rc_gui"
tap_check "$T: --gui --screenshot: 5x: the one coloured ratio is red (xterm 160), in the first memcg row, on N0 and in 'all' (its one node)" \
	diverging "$WORK/shift.png" 160 2
"$LRS_BIN" diff --gui --screenshot "$WORK/same.png" a.jsonl a2.jsonl >"$WORK/gui-same.out" 2>&1
tap_check "$T: --gui --screenshot: same distribution: no ratio coloured" diverging "$WORK/same.png" none
"$LRS_BIN" diff --gui --screenshot "$WORK/split.png" split-a.jsonl split-b.jsonl >"$WORK/gui-split.out" 2>&1
tap_check "$T: --gui --screenshot: a memcg's wait moved from N0 to N1: those two ratios coloured (xterm 153, 224), its sum over both in 'all' not" \
	diverging "$WORK/split.png" 153,224 2

# ---- the GUI: a real window ------------------------------------------------------------
# The window (under Xvfb) and a headless frame of the same comparison draw the same first
# line, the two recordings' names on it, to within rounding; under other names it differs.
lrs_xvfb "$T: --gui" "$WORK"
cp many-a.jsonl "$WORK/renamed-first.jsonl"
cp many-b.jsonl "$WORK/renamed-second.jsonl"
"$LRS_BIN" diff --gui --screenshot "$WORK/win-ref.png" many-a.jsonl many-b.jsonl >/dev/null 2>&1
"$LRS_BIN" diff --gui --screenshot "$WORK/win-other.png" renamed-first.jsonl renamed-second.jsonl >/dev/null 2>&1
"$LRS_BIN" diff --gui many-a.jsonl many-b.jsonl >"$WORK/win.out" 2>&1 &
win_pid=$!
lrs_track_pid $win_pid
win=$(timeout "$(lrs_secs 20)" xdotool search --sync --onlyvisible --name '^lruscope diff$' 2>/dev/null | head -n 1)
tap_check "$T: --gui: a window 'lruscope diff' opens ($(head -c 200 "$WORK/win.out"))" [ -n "$win" ]
sleep 1
# first_line WINDOW: the largest difference of the window's first text line from the headless
# frame of the same recordings, then from the one of the renamed copies
first_line() {
	/usr/bin/python3 - "$LRS_ROOT" "$1" "$WORK/win-ref.png" "$WORK/win-other.png" "$WORK/win.png" <<'PY'
import sys
sys.path.insert(0, sys.argv[1] + "/tests/lib")
sys.path.insert(0, sys.argv[1] + "/tests/integration")
import lrs_x11
from gui_png import read_png
img = lrs_x11.grab(int(sys.argv[2]))
img.save_png(sys.argv[5])
def most(path):
    w, h, rows = read_png(path)
    assert (w, h) == (img.w, img.h), (path, w, h, "window", img.w, img.h)
    return max(abs(a - b) for y in range(0, 26) for a, b in zip(img.rows[y], rows[y]))
print(most(sys.argv[3]), most(sys.argv[4]))
PY
}
diffs=$([ -n "$win" ] && first_line "$win" 2>&1)
echo "# the window's first line differs from the headless frame by at most ${diffs% *}, from the renamed one's by ${diffs#* }"
tap_check "$T: --gui: the window's first line names the two recordings as the headless frame does (within 8 levels; under other names over 100)" \
	bash -c '[ "$1" -le 8 ] && [ "$2" -gt 100 ]' _ ${diffs:-999 0}
[ -n "$win" ] && xdotool key --window "$win" q 2>/dev/null
lrs_wait_for $win_pid 10
rc_win=$?
lrs_untrack_pid $win_pid
tap_check "$T: --gui: q closes the window, exit 0 ($rc_win)" [ "$rc_win" = 0 ]
