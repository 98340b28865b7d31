#!/usr/bin/env bash
# `lruscope walk` on the running kernel: drgn reads its memory through /proc/kcore, with the
# debug info from where drgn looks for it (no -c, no -s). Two test memcgs hold the file pages
# of fresh sparse files read by a reader pinned to the first node's CPUs (a) and to the last
# node's (b); the readers have ended, so the pages stay put. Then:
# 1. `walk --json --page-owner` runs and names this kernel;
# 2. each test memcg@node's LRU pages equal its memory.numa_stat (read just before or just
#    after the walk), the walked lists agree with the counters, and the locks are free;
# 3. the pages each test memcg owns (--page-owner) equal its charged anon+file pages;
# 4. the table (stdout not a terminal) has the memcgs' rows and the page owner section.
# It needs a kernel drgn can read: where this one cannot be (no /proc/kcore, no vmlinux
# with debug info), the runner runs this file in the lab guest, whose kernel can.
# live: kcore
# time-limit: 600  (drgn indexes the kernel's debug info at each walk: minutes in the lab guest)
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 4
need_root "walk_live"

tmp=$(mktemp -d /var/tmp/lrs-test-walk.XXXXXX)	# not tmpfs: the files' pages are page cache
pfx=lrs-test-walk$$-
lrs_cleanup_on_exit "$tmp"
export LRS_DRGN_SCRIPTS=$LRS_ROOT/drgn-scripts
read -r cgv root < <(lrs_memcg_root)
kcore=$(lrs_kcore_verdict)
echo "# $kcore"
case "$kcore" in
unreadable*)	# the runner sends this file where the kernel can be read
	tap_skip_each "this kernel cannot be read by drgn (${kcore#unreadable: })" \
		"walk live: runs" "walk live: LRU pages" "walk live: page owner" "walk live: table"
	exit 0 ;;
esac

nodes=$(ls -d /sys/devices/system/node/node[0-9]* | sed 's/.*node//' | sort -n)
first=$(echo "$nodes" | head -n 1) last=$(echo "$nodes" | tail -n 1)
# read_into MEMCG NODE MIB: a fresh sparse file of MIB read in MEMCG on NODE's CPUs
read_into() {
	local cg=$root/$pfx$1 cpus
	lrs_track_cgroup "$cg"
	mkdir "$cg"
	cpus=$(cat "/sys/devices/system/node/node$2/cpulist")
	truncate -s "${3}M" "$tmp/$1.data"
	taskset -c "$cpus" sh -c 'echo $$ >"$1/cgroup.procs" && exec dd if="$2" of=/dev/null bs=64k 2>/dev/null' \
		_ "$cg" "$tmp/$1.data"
}
read_into a "$first" 12
read_into b "$last" 20
# each memcg's numa_stat (and v1's memory.stat) as "PATH FILE LINE" lines
stats() {
	local m
	for m in a b; do
		sed "s|^|/$pfx$m numa_stat |" "$root/$pfx$m/memory.numa_stat"
		[ "$cgv" = v2 ] || sed "s|^|/$pfx$m stat |" "$root/$pfx$m/memory.stat"
	done
}
stats >"$tmp/before"
"$LRS_BIN" walk --json --page-owner >"$tmp/walk.json" 2>"$tmp/walk.err"
rc=$?
stats >"$tmp/after"
"$LRS_BIN" walk --page-owner </dev/null >"$tmp/walk.txt" 2>"$tmp/walk-table.err"
trc=$?
sed 's/^/# table: /' "$tmp/walk.txt" | grep -F -e "$pfx" -e 'page owner' | head -n 20

tap_python "walk live" /usr/bin/python3 - "$tmp" "$rc" "$trc" "$cgv" "$first" "$last" "$pfx" \
	"$(uname -r)" <<'EOF'
import json, os, re, sys

tmp, rc, trc, cgv, first, last, pfx, release = sys.argv[1:]
rc, trc, first, last = int(rc), int(trc), int(first), int(last)
PAGE = os.sysconf("SC_PAGE_SIZE")
LISTS = ["inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable"]
mine = {"/%sa" % pfx: first, "/%sb" % pfx: last}


def check(name, probs):
    print(("ok - %s" if not probs else "not ok - %s: " + "; ".join(probs[:6])) % name)


def parse_stats(path):
    """{memcg: {"lists": {node: {list: pages}}, "charged": {node: pages}, "total": pages}}"""
    out = {}
    for line in open(path):
        memcg, kind, rest = line.split(" ", 2)
        d = out.setdefault(memcg, {"lists": {}, "charged": {}, "total": 0})
        w = rest.split()
        if kind == "numa_stat" and cgv == "v2":	# "KEY N0=BYTES N1=BYTES"
            for kv in w[1:]:
                n, v = int(kv.split("=")[0][1:]), int(kv.split("=")[1]) // PAGE
                if w[0] in LISTS:
                    d["lists"].setdefault(n, {})[w[0]] = v
                if w[0] in ("anon", "file"):
                    d["charged"][n] = d["charged"].get(n, 0) + v
        elif kind == "numa_stat":	# v1: "file=PAGES N0=PAGES ..." (the LRU lists)
            key = w[0].split("=")[0]
            for kv in w[1:]:
                n, v = int(kv.split("=")[0][1:]), int(kv.split("=")[1])
                lists = d["lists"].setdefault(n, {})
                if key in ("file", "anon", "unevictable"):
                    lists[key] = v
        elif kind == "stat" and w[0] in ("cache", "rss"):	# v1: charged bytes
            d["total"] += int(w[1]) // PAGE
    for d in out.values():
        if cgv == "v2":
            d["total"] = sum(d["charged"].values())
    return out


def lists_of(lv):
    """The walk's LRU pages of an lruvec, in the form numa_stat gives them."""
    p = lv.get("lru_pages") or {}
    if cgv == "v2":
        return {n: p.get(n, 0) for n in LISTS}
    return {"file": p.get("inactive_file", 0) + p.get("active_file", 0),
            "anon": p.get("inactive_anon", 0) + p.get("active_anon", 0),
            "unevictable": p.get("unevictable", 0)}


before, after = parse_stats(tmp + "/before"), parse_stats(tmp + "/after")
err = open(tmp + "/walk.err").read().strip()
snap = None
try:
    snap = json.loads(open(tmp + "/walk.json").read())
except ValueError:
    pass
probs = [] if rc == 0 and snap else ["exit %d, JSON %s: %s" % (rc, "ok" if snap else "unreadable",
                                                               err[-300:])]
if snap and (snap.get("source") != "drgn" or snap.get("kernel") != release):
    probs.append("source %r, kernel %r (running: %s)" % (snap.get("source"), snap.get("kernel"),
                                                         release))
check("walk live: --json --page-owner reads the running kernel (/proc/kcore, its debug info "
      "found), rc 0", probs)
snap = snap or {}

# 2. LRU pages per test memcg@node against numa_stat, the walk against the counters
rows = {(lv["memcg"], lv["node"]): lv for lv in snap.get("lruvecs", []) if lv["memcg"] in mine}
probs = []
for memcg, home in sorted(mine.items()):
    for node in sorted({first, last}):
        lv = rows.get((memcg, node))
        if lv is None:
            probs.append("no lruvec %s@N%d" % (memcg, node))
            continue
        got = lists_of(lv)
        want = [s.get(memcg, {}).get("lists", {}).get(node) for s in (before, after)]
        if got not in want:
            probs.append("%s@N%d: walk %s, numa_stat before %s, after %s" % (
                memcg, node, got, want[0], want[1]))
        if lv.get("mismatch"):
            probs.append("%s@N%d: walked lists differ from the counters: %s" % (
                memcg, node, lv["mismatch"]))
        if lv.get("locked") or (lv.get("lock_state") or {}).get("raw"):
            probs.append("%s@N%d: lock %r while idle" % (memcg, node, lv.get("lock_state")))
    home_lv = rows.get((memcg, home))
    file_pages = home_lv and home_lv["lru_pages"]["inactive_file"] + \
        home_lv["lru_pages"]["active_file"]
    if not file_pages:	# no vacuous pass: the reader's pages are there
        probs.append("%s@N%d has no file pages" % (memcg, home))
print("# walk: %s" % {"%s@N%d" % k: lists_of(v) for k, v in sorted(rows.items())})
check("walk live: each test memcg@node's LRU pages equal its memory.numa_stat, the walked "
      "lists agree, locks free", probs)

# 3. page ownership
po = snap.get("page_owner") or {}
owned = {m["memcg"]: m for m in po.get("memcgs", [])}
probs = [] if po.get("method") else ["no page_owner in the JSON: %r" % sorted(snap)[:12]]
for memcg in sorted(mine):
    m = owned.get(memcg)
    if m is None:
        probs.append("%s owns nothing" % memcg)
        continue
    if cgv == "v2":
        got = {int(n): v for n, v in m.get("pages_by_node", {}).items() if v}
        want = [{n: v for n, v in s.get(memcg, {}).get("charged", {}).items() if v}
                for s in (before, after)]
    else:
        got, want = m.get("pages"), [s.get(memcg, {}).get("total") for s in (before, after)]
    if got not in want:
        probs.append("%s: owns %s, charged before %s, after %s" % (memcg, got, want[0], want[1]))
print("# page owner (%s): %s" % (po.get("method"), {k: owned[k].get("pages") for k in owned
                                                     if k in mine}))
check("walk live --page-owner: the pages each test memcg owns equal its charged anon+file "
      "pages", probs)

# 4. the table
text = open(tmp + "/walk.txt").read()
probs = [] if trc == 0 else ["exit %d: %s" % (trc, open(tmp + "/walk-table.err").read()[-300:])]
for memcg, home in sorted(mine.items()):
    lv = rows.get((memcg, home))
    row = re.search(r"^%s@N%d\s+0x[0-9a-f]+\s+free\s+(\d+)" % (re.escape(memcg), home), text,
                    re.M)
    if not row:
        probs.append("no row %s@N%d with a free lock" % (memcg, home))
    elif lv and abs(int(row.group(1)) - sum(lv["lru_pages"].values())) > 64:
        probs.append("%s@N%d: table %s pages, the JSON walk %d" % (
            memcg, home, row.group(1), sum(lv["lru_pages"].values())))
    if not re.search(r"^\s+%s\s+\d+ pages$" % re.escape(memcg), text, re.M):
        probs.append("no page owner line for %s" % memcg)
if not re.search(r"^page owner \(\w+\):$", text, re.M):
    probs.append("no page owner section")
check("walk live table: the test memcgs' rows with free locks and their pages, and the page "
      "owner section", probs)
EOF
