#!/usr/bin/env bash
# lruscope diff of this machine, as root, under a readtwice load: a recording and a live run
# of the same seconds, piped into diff as side B (-), have contended lruvecs and no
# significant lruvec change. It needs traced lruvec-lock waits: where this host traces
# none, the runner runs it in the lab guest. See tests/PROTOCOL.md.
# live: traced
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 3

T=diff
need_root "$T"
[ -x "$LRS_BIN" ] || { tap_fail "$T: $LRS_BIN is missing (make)"; exit 1; }
WORK=$(mktemp -d /tmp/lrs-test-diff-live.XXXXXX)
trap 'lrs_cleanup; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
rc() { cat "$WORK/$1.rc"; }
cd "$WORK" || exit 1

# ---- live: a recording of this machine, and a live run piped against it ----------------
# Both of the same 6 s under one readtwice load (4 readers in one memcg): the lruvec
# waits the diff compares are there, and the same (recorded one after the other, a load's
# own drift over the seconds may part them completely). The live run's snapshots (some
# 100 KB, more than a pipe holds) are gathered whole, then piped to the diff once the
# recording is whole too: a full pipe would hold the live run back.
# the load runs until both runs are whole (their programs load slowly in the lab guest); the
# runs are stretched where the machine is slow (lrs_secs): a snapshot there can take seconds,
# and 6 s then held 2 of them, too few to compare
secs=$(lrs_secs 6)
"$LRS_BIN" workload --layout shared --readers 4 --duration 0 --size 256m --limit 48m \
	--cpu-shares 8192 --prefix "lrs-test-diff$$-" >"$WORK/load" 2>&1 &
load=$!
lrs_track_pid $load
sleep 2
{ "$LRS_BIN" record -q -o "$WORK/live-a.jsonl" -d "$secs" 2>"$WORK/live-a.err"; echo $? >"$WORK/live-a.rc"; } &
rec_a=$!
"$LRS_BIN" record -q -o - -d "$secs" 2>"$WORK/live-b.err" |
	/usr/bin/python3 -c 'import sys; sys.stdout.buffer.write(sys.stdin.buffer.read())' |
	{ for _ in $(seq 1 $(( $(lrs_secs 30) * 4 ))); do [ -s "$WORK/live-a.rc" ] && break; sleep 0.25; done
	  "$LRS_BIN" diff -f json live-a.jsonl - >"$WORK/live" 2>"$WORK/live.err"; }
rcs=("${PIPESTATUS[@]}")
rc_b=${rcs[0]}
echo "${rcs[2]}" >"$WORK/live.rc"
wait $rec_a
rc_a=$(cat "$WORK/live-a.rc")
chmod 644 "$WORK"/live-a.jsonl
tap_check "$T: live: the run read from standard input is side B (-), with its intervals" \
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["b"]["file"] == "-" and d["b"]["samples"] >= 4))' "$WORK/live"
tap_check "$T: live: a $secs s recording and a live run of the same $secs s ($rc_a $rc_b: $(head -c 200 "$WORK/live-a.err")) diff without error ($(rc live): $(head -c 200 "$WORK/live.err"))" \
	bash -c '[ "$1" = 0 ] && [ "$2" = 0 ] && [ "$3" = 0 ]' _ "$rc_a" "$rc_b" "$(rc live)"
kill -TERM $load
lrs_wait_for $load 30
lrs_untrack_pid $load
echo "# the load: $(tail -n 1 "$WORK/load" | head -c 300)"
# a diff with no contended lruvec has nothing to call changed: that fails too
tap_check "$T: live: one load, the same seconds: lruvecs contended, no significant lruvec change ($(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["lruvecs"]), "contended lruvecs,", d["a"]["samples"], "+", d["b"]["samples"], "samples")' "$WORK/live" 2>&1))" \
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not d["lruvecs"] or any(l["significant"] for l in d["lruvecs"]) or d["totals"][0]["significant"] or d["a"]["samples"] < 4)' "$WORK/live"
