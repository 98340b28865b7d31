#!/usr/bin/env bash
# Memcg churn on the running kernel: memcgs that live a fraction of lruscope's interval
# keep their names. The cgroup iterator never walks a memcg created and removed between
# two reads, so the collector records each memcg's name when it is created.
# 1. While `lruscope record` runs, memcgs created (or renamed, v1) in the memory hierarchy
#    are in its memcg_names map (BPF, read with bpftool) with their id, parent and name,
#    and a cgroup of the same name in another v1 hierarchy is not (its id is another's).
# 2. Where lruvec waits are traced: `lruscope record -i 1` while memcgs are created one
#    after the other, loaded with readers that contend on their lruvec lock, and removed
#    about 0.4 s later. Every churned memcg the recording shows, as an lruvec or as a
#    waiter's memcg, has its path: none as cgroup-id:N, no waiter with a null memcg.
#    It needs traced lruvec-lock waits: where this host traces none, the runner runs this
#    file in the lab guest.
# live: traced
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 9	# 1. names: 4; 2. churn: 5
need_root "churn"

tmp=$(mktemp -d /tmp/lrs-test-churn.XXXXXX)
pfx=lrs-test-churn$$-
lrs_cleanup_on_exit "$tmp"
PY=/usr/bin/python3
export PYTHONPATH=$LRS_ROOT/tests/lib	# lrs_tap, lrs_churn
read -r cgv root < <(lrs_memcg_root)

# Wait (up to 30 s) until lruscope PID has attached its contention programs: it walked the
# memory cgroups and attached its mkdir hook before that.
wait_started() {
	local i
	for i in $(seq 1 120); do
		grep -qs $'^tp_name:\tcontention_end' /proc/"$1"/fdinfo/* && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.25
	done
	return 1
}

# --- 1. names recorded at mkdir, in the memory hierarchy only ---------------------------
"$LRS_BIN" record -i 60 -d 50 -o "$tmp/names.jsonl" 2>"$tmp/names.err" &
rec=$!
lrs_track_pid "$rec"
tap_check "names: record walked the memcgs and attached its programs ($(head -c 300 "$tmp/names.err"))" \
	wait_started "$rec"
# tracked before they exist: an interrupt between the two would leave them behind
lrs_track_cgroup "$root/${pfx}a"
lrs_track_cgroup "$root/${pfx}a/${pfx}b"
lrs_track_cgroup "$root/${pfx}a/${pfx}b2"
mkdir "$root/${pfx}a" "$root/${pfx}a/${pfx}b"
# v1 renames a cgroup in place (v2 refuses): the newer name is recorded
b=${pfx}b
mv "$root/${pfx}a/$b" "$root/${pfx}a/${pfx}b2" 2>/dev/null && b=${pfx}b2
# another v1 hierarchy numbers its cgroups on its own: the same name there is another cgroup
other=$(awk '$3 == "cgroup" && $4 !~ /(^|,)memory(,|$)/ && $4 !~ /name=/ {print $2; exit}' /proc/mounts)
if [ "$cgv" = v1 ] && [ -n "$other" ]; then
	lrs_track_cgroup "$other/${pfx}a"
	mkdir "$other/${pfx}a"
fi
map=$(lrs_map_of "$rec" memcg_names)
bpftool -j map dump id "${map:-0}" >"$tmp/names.json" 2>"$tmp/dump.err"
tap_python "names: the memcg_names map against the memcgs made" \
	$PY - "$tmp/names.json" "$pfx" "$(stat -c %i "$root")" "$(stat -c %i "$root/${pfx}a")" \
	"$(stat -c %i "$root/${pfx}a/$b")" "$b" "$( [ -d "$other/${pfx}a" ] && stat -c %i "$other/${pfx}a")" <<'EOF'
import json, sys
from lrs_tap import check
path, pfx, root, a, b, bname, other = sys.argv[1:8]
try:	# bpftool -j: raw bytes, and the BTF-formatted entry next to them
    names = {e["formatted"]["key"]: e["formatted"]["value"] for e in json.load(open(path))}
except (OSError, ValueError, KeyError, TypeError) as e:
    names = {}
    print("# memcg_names unreadable: %r" % e)
want = {int(a): (int(root), 1, pfx + "a"), int(b): (int(a), 2, bname)}
got = {k: (v["parent_cgid"], v["level"], v["name"]) for k, v in names.items() if k in want}
check("names: memcgs created while lruscope runs are recorded with parent, level and name%s"
      % (" (a rename too)" if bname.endswith("b2") else ""), got == want,
      "recorded %s, created %s" % (got, want))
mine = sorted(k for k, v in names.items() if v["name"] == pfx + "a")
check("names: only the memory hierarchy's cgroups (%s)" % (
      "another v1 hierarchy's %s of the same name is not" % other if other else "no other v1 hierarchy"),
      mine == [int(a)], "ids named %sa: %s (memory's %s)" % (pfx, mine, a))
EOF
rmdir "$root/${pfx}a/$b" "$root/${pfx}a"
[ -d "$other/${pfx}a" ] && rmdir "$other/${pfx}a"
kill -INT "$rec"
lrs_wait_for "$rec" 30
rc=$?
tap_check "names: record ended by SIGINT exits 0 (rc $rc)" [ "$rc" -eq 0 ]

# --- 2. churn: memcgs removed within an interval keep their names where seen -------------
{
	"$LRS_BIN" record -i 1 -d 60 -o "$tmp/churn.jsonl" 2>"$tmp/churn.err" &
	rec=$!
	lrs_track_pid "$rec"
	wait_started "$rec"
	: >"$tmp/loads.out"
	for i in $(seq 1 16); do
		"$LRS_BIN" workload --layout shared --readers 4 --duration 0.4 --size 64m --limit 16m \
			--cpu-shares 8192 --prefix "${pfx}$i-" >>"$tmp/loads.out" 2>>"$tmp/loads.err"
	done
	sleep 2.5	# two more reads: the last memcgs' waits are read after they are gone
	kill -INT "$rec"
	lrs_wait_for "$rec" 30
	rc=$?
	tap_check "churn: record ended by SIGINT exits 0 (rc $rc: $(head -c 300 "$tmp/churn.err"))" [ "$rc" -eq 0 ]
	"$LRS_BIN" report -i "$tmp/churn.jsonl" -f json >"$tmp/churn.json" 2>"$tmp/report.err"
	tap_python "churn: the recording's report against the churned memcgs" \
		$PY - "$tmp/churn.json" "$tmp/loads.out" <<'EOF'
import json, sys
from lrs_tap import check
import lrs_churn
snap = json.load(open(sys.argv[1]))
ids = lrs_churn.churned(open(sys.argv[2]))
print("# " + lrs_churn.summary(snap, ids))
shown = {s[0] for s in lrs_churn.shown(snap, ids)}
check("churn: 16 memcgs churned", len(ids) == 16, "%d workloads printed their memcg" % len(ids))
check("churn: churned memcgs are shown as lruvecs or waiters' memcgs (%d)" % len(shown),
      shown, "none: no lruvec wait of a churned memcg was traced")
bad = lrs_churn.misnamed(snap, ids)
check("churn: every churned memcg shown has its path", not bad,
      "; ".join("%s shown as %r, is %s" % (s[2], s[1], ids[s[0]]) for s in bad[:6]))
anon = lrs_churn.named_by_id(snap)
check("churn: no lruvec or waiter is named by id alone", not anon, ", ".join(anon[:6]))
EOF
}
