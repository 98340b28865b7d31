#!/usr/bin/env bash
# lruscope report's text options on a recording made up by
# tests/lib/lrs_recording.py (report -i, every number known): -a lists the
# lruvecs that never waited too, -n N the N other locks with the most wait;
# report -i as user nobody. Live, as root: --stack-every 0 samples no stack
# of the same sleeping-lock waits that --stack-every 1 samples, --stack-rate 1,
# --stack-cpu 0.001 and --stack-cost 100 fewer than with no limit, --stack-cost 1 more than
# one a CPU (its cap lapses) and at most one in 64 waits beyond; a process's
# threads that queue on their own mm's mmap_lock have that lock named so; --ready-file and
# the scripts' lrs_ready, which waits for it to name the PID it was given. See
# tests/PROTOCOL.md.
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 22

T=report
need_root "$T"
[ -x "$LRS_BIN" ] || { tap_fail "$T: $LRS_BIN is missing (make)"; exit 1; }
WORK=$(mktemp -d /tmp/lrs-test-report.XXXXXX)
chmod 755 "$WORK"		# user nobody reads the recording too
trap 'lrs_cleanup; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

# Three seconds: hot waits 3 ms/s, warm 1 ms/s, idle and / never; other locks
# lrs-lock-01 .. -14, lock k waiting 1/k ms/s.
REC=$WORK/report.jsonl
PYTHONPATH=$LRS_ROOT/tests/lib tap_python "$T: the recording" /usr/bin/python3 - "$REC" <<'PY'
import sys
import lrs_recording
wait = {"/lrs-p-hot": 3e6, "/lrs-p-warm": 1e6}
lrs_recording.write(sys.argv[1], ["/lrs-p-hot", "/lrs-p-warm", "/lrs-p-idle"], 4,
                    lambda i, m, n: wait.get(m, 0),
                    others=lambda i: [("lrs-lock-%02d" % k, 1e6 / k) for k in range(1, 15)])
PY
chmod 644 "$REC"

# The lruvecs (memcg@node) and the other locks a text report lists, in order, on one line each.
lruvecs() { grep -oE ' /[^ ]*@N[0-9]+$' "$1" | tr -d ' ' | paste -sd' '; }
others() { grep -oE ' lrs-lock-[0-9]+ ' "$1" | tr -d ' ' | paste -sd' '; }
locks() { local k; for k in $(seq -f %02g 1 "$1"); do printf 'lrs-lock-%s ' "$k"; done | sed 's/ $//'; }
# report NAME ARGS...: report -i REC ARGS into $WORK/NAME, the exit status in $WORK/NAME.rc
report() {
	local name=$1; shift
	"$LRS_BIN" report -i "$REC" "$@" >"$WORK/$name" 2>"$WORK/$name.err"
	echo $? >"$WORK/$name.rc"
}
# listed NAME WANT LIST: report NAME exited 0 and LIST (lruvecs or others) of it is WANT
listed() { [ "$(cat "$WORK/$1.rc")" = 0 ] && [ "$("$3" "$WORK/$1")" = "$2" ]; }

report plain
tap_check "$T: without -a, only the lruvecs that waited, by wait ($(lruvecs "$WORK/plain"))" \
	listed plain "/lrs-p-hot@N0 /lrs-p-warm@N0" lruvecs
report all -a
tap_check "$T: -a lists those that never waited too ($(lruvecs "$WORK/all"))" \
	listed all "/lrs-p-hot@N0 /lrs-p-warm@N0 /@N0 /lrs-p-idle@N0" lruvecs
tap_check "$T: -a: an lruvec that never waited shows 0 contended, 0 wait" \
	grep -Eq '^ +0 +0 +0 +0 +spinlock +/lrs-p-idle@N0$' "$WORK/all"
tap_check "$T: other locks: the 10 with the most wait by default ($(others "$WORK/plain"))" \
	listed plain "$(locks 10)" others
report n3 -n 3
tap_check "$T: -n 3: the 3 with the most wait ($(others "$WORK/n3"))" listed n3 "$(locks 3)" others
report n0 -n 0
tap_check "$T: -n 0: none ($(others "$WORK/n0"))" listed n0 "" others
report n20 -n 20
tap_check "$T: -n 20: all 14 there are" listed n20 "$(locks 14)" others

# ---- report -i as user nobody ----------------------------------------------------------
setpriv --reuid=nobody --regid=nogroup --clear-groups "$LRS_BIN" report -i "$REC" -a \
	>"$WORK/nobody" 2>"$WORK/nobody.err"
rc=$?
tap_check "$T: as nobody, report -i exits 0 ($rc: $(head -c 200 "$WORK/nobody.err")) with root's table" \
	bash -c '[ "$1" = 0 ] && [ -s "$2" ] && cmp -s "$2" "$3"' _ "$rc" "$WORK/nobody" "$WORK/all"

# ---- --stack-every 0, live -------------------------------------------------------------
# six reports of the same sleeping-lock waits at once, sampling every wait's stack, none,
# every wait's but at most one a second per CPU, every wait's but at most 0.001% of a CPU's
# time unwinding them, every wait's but at most 100 ns of unwinding a wait, or every wait's
# but at most 1 ns of unwinding a wait: after a CPU's first stack, its next only once its
# last is 100 us old (100 gaps of --stack-rate 1000000), on 1 in 64 waits
"$LRS_BIN" report -d 5 -f json --stack-every 1 --stack-rate 1000000 --stack-cpu 0 --stack-cost 0 \
	--ready-file "$WORK/every1.ready" >"$WORK/every1.json" 2>"$WORK/every1.err" &
every1=$!
lrs_track_pid $every1
"$LRS_BIN" report -d 5 -f json --stack-every 1 --stack-rate 1000000 --stack-cpu 0.001 --stack-cost 0 \
	--ready-file "$WORK/cpu.ready" >"$WORK/cpu.json" 2>"$WORK/cpu.err" &
cpu=$!
lrs_track_pid $cpu
"$LRS_BIN" report -d 5 -f json --stack-every 1 --stack-rate 1000000 --stack-cpu 0 --stack-cost 100 \
	--ready-file "$WORK/cost.ready" >"$WORK/cost.json" 2>"$WORK/cost.err" &
cost=$!
lrs_track_pid $cost
"$LRS_BIN" report -d 5 -f json --stack-every 1 --stack-rate 1000000 --stack-cpu 0 --stack-cost 1 \
	--ready-file "$WORK/lapse.ready" >"$WORK/lapse.json" 2>"$WORK/lapse.err" &
lapse=$!
lrs_track_pid $lapse
"$LRS_BIN" report -d 5 -f json --stack-every 1 --stack-rate 1 --stack-cost 0 \
	--ready-file "$WORK/rate1.ready" >"$WORK/rate1.json" 2>"$WORK/rate1.err" &
rate1=$!
lrs_track_pid $rate1
"$LRS_BIN" report -d 5 -f json --stack-every 0 --ready-file "$WORK/every0.ready" >"$WORK/every0.json" 2>"$WORK/every0.err" &
every0=$!
lrs_track_pid $every0
# the writers start once the six count
ids1= ids0= idsr= idsc= idsn= idsl=
lrs_ready "$WORK/every1.ready" $every1 60 && ids1=$(lrs_wait_bpf_loaded $every1)
lrs_ready "$WORK/every0.ready" $every0 60 && ids0=$(lrs_wait_bpf_loaded $every0)
lrs_ready "$WORK/rate1.ready" $rate1 60 && idsr=$(lrs_wait_bpf_loaded $rate1)
lrs_ready "$WORK/cpu.ready" $cpu 60 && idsc=$(lrs_wait_bpf_loaded $cpu)
lrs_ready "$WORK/cost.ready" $cost 60 && idsn=$(lrs_wait_bpf_loaded $cost)
lrs_ready "$WORK/lapse.ready" $lapse 60 && idsl=$(lrs_wait_bpf_loaded $lapse)
tap_check "$T: the reports count (--ready-file) with their BPF programs ($ids1 / $ids0 / $idsr / $idsc / $idsn / $idsl)" \
	[ -n "$ids1" -a -n "$ids0" -a -n "$idsr" -a -n "$idsc" -a -n "$idsn" -a -n "$idsl" ]
lrs_rewriters "$WORK/rewritten" 3
lrs_track_pid "$LRS_REWRITERS"
wait $every1; rc1=$?
wait $every0; rc0=$?
wait $rate1; rcr=$?
wait $cpu; rcc=$?
wait $cost; rcn=$?
wait $lapse; rcl=$?
lrs_untrack_pid $every1
lrs_untrack_pid $every0
lrs_untrack_pid $rate1
lrs_untrack_pid $cpu
lrs_untrack_pid $cost
lrs_untrack_pid $lapse
wait "$LRS_REWRITERS"
lrs_untrack_pid "$LRS_REWRITERS"
tap_check "$T: all exit 0 ($rc1 $rc0 $rcr $rcc $rcn $rcl: $(cat "$WORK"/{every1,every0,rate1,cpu,cost,lapse}.err | head -c 300))" \
	[ "$rc1" = 0 -a "$rc0" = 0 -a "$rcr" = 0 -a "$rcc" = 0 -a "$rcn" = 0 -a "$rcl" = 0 ]
PYTHONPATH=$LRS_ROOT/tests/lib tap_python "$T: --stack-every's, --stack-rate's, --stack-cpu's and --stack-cost's reports" \
	/usr/bin/python3 - "$WORK/every1.json" "$WORK/every0.json" "$WORK/rate1.json" "$WORK/cpu.json" \
	"$WORK/cost.json" "$WORK/lapse.json" <<'PY'
import json, os, sys
from lrs_tap import check
def count(path):
    s = json.load(open(path))
    locks = s["lruvecs"] + s["other_locks"]
    return sum(l["contended"] for l in locks), sum(len(l["stacks"]) for l in locks), len(s["stacks"])
def sampled(path):
    s = json.load(open(path))
    return sum(u["contended"] for l in s["lruvecs"] + s["other_locks"] for u in l["stacks"])
w1, uses1, table1 = count(sys.argv[1])
w0, uses0, table0 = count(sys.argv[2])
# -d 5 from its load: at most 6 seconds of waits on each CPU
cap = 6 * os.cpu_count()
s1, sr, sc, sn = (sampled(sys.argv[i]) for i in (1, 3, 4, 5))
wn = count(sys.argv[5])[0]
check("report: --stack-rate 1 samples at most one wait's stack a second per CPU (%d sampled, at most %d; "
      "%d with no limit)" % (sr, cap, s1), 0 < sr <= cap < s1, "%d, %d" % (sr, s1))
# a stack takes microseconds to unwind (tens to hundreds under emulation): 0.001% of a CPU
# leaves a few each second per CPU at most, where the unlimited report takes one every wait
check("report: --stack-cpu 0.001 samples stacks, under half as many as with no limit (%d; %d)"
      % (sc, s1), 0 < sc < s1 / 2, "%d, %d" % (sc, s1))
# a stack that took t to unwind is followed by t / 100 ns waits without one; no stack unwinds in
# under 200 ns, so at most one wait in three has its stack taken
check("report: --stack-cost 100 samples stacks, of at most a third of its waits (%d of %d; %d with "
      "no limit)" % (sn, wn, s1), 0 < sn and 3 * sn <= wn + 3 * os.cpu_count(),
      "%d of %d" % (sn, wn))
# --stack-cost 1: a stack of t (over 1 us) holds its CPU's next back for t waits, more than
# a CPU sees here, so without the lapse each CPU takes one stack at most; with it, a CPU takes
# one on every 64th wait after its last (they are more than 100 us apart), so one with 65
# waits or more (the waits are more than 64 a CPU) takes two
sl, wl, ncpu = sampled(sys.argv[6]), count(sys.argv[6])[0], os.cpu_count()
check("report: --stack-cost 1's cap lapses: more stacks than CPUs, at most one in 64 waits beyond "
      "each CPU's first (%d sampled of %d waits, %d CPUs)" % (sl, wl, ncpu),
      wl > 64 * ncpu and ncpu < sl <= ncpu + wl // 64, "%d of %d" % (sl, wl))
check("report: --stack-every 1 samples stacks of the writers' waits (%d waits, %d stacks)" % (w1, table1),
      w1 > 0 and uses1 > 0 and table1 > 0, "%d waits, %d stack uses, %d stacks" % (w1, uses1, table1))
check("report: --stack-every 0 samples none of the same waits (%d waits, %d stacks)" % (w0, table0),
      w0 > 0 and uses0 == 0 and table0 == 0, "%d waits, %d stack uses, %d stacks" % (w0, uses0, table0))
PY

# ---- mmap_lock, live -------------------------------------------------------------------
# Threads of one process that map and unmap in a loop queue on their mm's mmap_lock (an
# rwsem): the report names it as the waiters' own, and no lock whose waits are not an
# rwsem's (read or write) is taken for one.
cc -O2 -Wall -pthread -o "$WORK/lrs-mmap-load" "$LRS_ROOT/tests/lib/lrs-mmap-load.c" 2>"$WORK/mmcc.err"
"$LRS_BIN" report -d 5 -f json --ready-file "$WORK/mmap.ready" >"$WORK/mmap.json" 2>"$WORK/mmap.err" &
mrep=$!
lrs_track_pid $mrep
# the load starts once the report's hooks are in (its 5 s window has then begun)
lrs_ready "$WORK/mmap.ready" $mrep 60; att=$?
"$WORK/lrs-mmap-load" 4 3 >"$WORK/mmload.out" 2>&1
mload=$?
wait $mrep; rcm=$?
lrs_untrack_pid $mrep
tap_check "$T: mmap_lock: the load ran ($mload: $(cat "$WORK/mmcc.err" "$WORK/mmload.out" | head -c 200)) under a report that attached ($att) and exits 0 ($rcm: $(head -c 200 "$WORK/mmap.err"))" \
	[ "$mload" = 0 -a "$att" = 0 -a "$rcm" = 0 ]
PYTHONPATH=$LRS_ROOT/tests/lib tap_python "$T: mmap_lock's report" /usr/bin/python3 - "$WORK/mmap.json" <<'PY'
import json, sys
from lrs_tap import check
OWN, RWSEM = "mmap_lock (the waiter's own mm)", 2 | 4  # LCB_F_READ | LCB_F_WRITE
others = json.load(open(sys.argv[1]))["other_locks"]
own = [o for o in others if o["name"] == OWN]
check("report: the threads' waits on their own mmap_lock are named so (%s)"
      % ", ".join("%d waits, flags %d" % (o["contended"], o["flags"]) for o in own),
      sum(o["contended"] for o in own) > 0 and all(o["flags"] & RWSEM for o in own),
      "locks: " + "; ".join("%s flags %d: %d" % (o["name"], o["flags"], o["contended"])
                            for o in others[:8]))
PY

# ---- --ready-file ------------------------------------------------------------------------
# A script starts its load once lruscope says it counts: an old file is emptied before the
# first program loads, and the file names lruscope's PID only once every lock program it
# loaded (the tracepoints' or the slow path's) is attached.
echo stale >"$WORK/ready"
"$LRS_BIN" report -d 60 -f json --ready-file "$WORK/ready" >"$WORK/ready.json" 2>"$WORK/ready.err" &
rrep=$!
lrs_track_pid $rrep
first=$(lrs_wait_bpf_loaded $rrep)
early=$(cat "$WORK/ready" 2>/dev/null)
lrs_ready "$WORK/ready" $rrep 60; att=$?
# the report's program and link fds at the time it said ready, the programs by name
for fd in /proc/$rrep/fdinfo/*; do
	sed -n 's/^prog_id:[[:space:]]*/'"$(grep -q '^link_type:' "$fd" 2>/dev/null && echo link || echo prog)"' /p' "$fd" 2>/dev/null
done >"$WORK/ready.fds"
bpftool -j prog show >"$WORK/ready.progs" 2>/dev/null
kill -INT $rrep
wait $rrep; rcr=$?
lrs_untrack_pid $rrep
tap_check "$T: --ready-file: the old file is emptied before the first program loads (it said '$early' then; programs $(echo $first))" \
	[ -n "$first" -a "$early" != stale ]
# the scripts' lrs_ready waits until the file names the PID it was given: an earlier run's file,
# which the new run has not emptied yet, is no sign that the new one counts
sleep 60 &
other=$!
lrs_track_pid $other
echo $$ >"$WORK/other.ready"
lrs_ready "$WORK/other.ready" $other 1; stale_rc=$?
echo $other >"$WORK/other.ready"
lrs_ready "$WORK/other.ready" $other 1; own_rc=$?
kill $other
wait $other 2>/dev/null
lrs_untrack_pid $other
tap_check "$T: lrs_ready: not ready while the file names another PID ($stale_rc), ready once it names its own ($own_rc)" \
	[ $stale_rc -ne 0 -a $own_rc -eq 0 ]
PYTHONPATH=$LRS_ROOT/tests/lib tap_python "$T: --ready-file's report" /usr/bin/python3 - "$WORK" "$att" "$rcr" "$rrep" <<'PY'
import json, os, sys
from lrs_tap import check
work, att, rc, pid = sys.argv[1:5]
held = {"prog": set(), "link": set()}
for line in open(os.path.join(work, "ready.fds")):
    kind, pid_ = line.split()
    held[kind].add(int(pid_))
names = {p["id"]: p.get("name", "?") for p in json.load(open(os.path.join(work, "ready.progs")))}
lock = {i: names.get(i, "?") for i in held["prog"]
        if names.get(i, "").startswith(("contention_", "slowpath_"))}
unlinked = sorted(n for i, n in lock.items() if i not in held["link"])
check("report --ready-file: written once every lock program is attached (%s)"
      % ", ".join(sorted(lock.values())),
      att == "0" and lock and not unlinked,
      "ready %s; lock programs %r, without a link then %r" % (att, sorted(lock.values()), unlinked))
text = open(os.path.join(work, "ready")).read() if os.path.exists(os.path.join(work, "ready")) else ""
err = open(os.path.join(work, "ready.err")).read().strip()[-200:]
check("report --ready-file: it holds the report's PID and a newline; the report exits 0",
      text == pid + "\n" and rc == "0", "file %r, PID %s, rc %s: %s" % (text, pid, rc, err))
PY
