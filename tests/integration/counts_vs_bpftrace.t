#!/usr/bin/env bash
# lruscope's counts against bpftrace's, both attached to the same waits at once: the
# per-CPU counters, merged, and the shared table count the waits of writers queued on
# one rwsem as bpftrace counts them; a mutex waiter that sleeps and spins again is one
# wait, as long as bpftrace times it. Every kernel traces these sleeping-lock waits; where
# spinlock waits are traced too, the waits on the rwsem's and the mutex's own spinlock
# nest inside them, the case this test must also pass: where this host traces no spinlock
# wait, the runner runs it in the lab guest, which does.
# live: traced
set -u
. "$(dirname "$0")/../lib.sh"
need_root "counts_vs_bpftrace"
need_contention_tracepoint "counts_vs_bpftrace"
# 1. rwsem writers: per-CPU counters and the shared table 17; 2. a mutex that spins again 3
tap_plan 20
if ! command -v bpftrace >/dev/null; then
	for i in $(seq 1 20); do tap_fail "check $i of 20: bpftrace is missing (make deps installs it)"; done
	exit 1
fi

tmp=$(mktemp -d /tmp/lrs-test-bpftrace.XXXXXX)
LRS_TRACEFS_MOUNTED=	# tracefs, if this test mounted it for bpftrace
cleanup() {
	lrs_cleanup
	[ -z "$LRS_TRACEFS_MOUNTED" ] || umount "$LRS_TRACEFS_MOUNTED"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
PY=/usr/bin/python3
export PYTHONPATH=$LRS_ROOT/tests/lib	# lrs_tap: the Python checks' TAP lines

# bpftrace reads the tracepoints' formats in tracefs: mounted here if the kernel has not,
# unmounted at the end
if ! [ -e /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing && LRS_TRACEFS_MOUNTED=/sys/kernel/tracing
fi

# start_bpftrace NAME PROGRAM: runs bpftrace in the background (output in $tmp/NAME.out,
# errors in $tmp/NAME.err, pid in BT_PID) and waits until its BEGIN has printed "ready",
# which it does once every probe is in. Fails if it never does.
start_bpftrace() {
	bpftrace -e "$2" >"$tmp/$1.out" 2>"$tmp/$1.err" &
	BT_PID=$!
	lrs_track_pid "$BT_PID"
	for _ in $(seq 1 $(( $(lrs_secs 30) * 4 ))); do
		grep -q ready "$tmp/$1.out" && return 0
		kill -0 "$BT_PID" 2>/dev/null || break
		sleep 0.25
	done
	return 1
}

# --- 1. the per-CPU counters, merged, count what an independent tracer counts --
# Four dd writers on one file queue on its inode's rwsem (a wait every kernel
# traces, this one too). bpftrace counts the same waits at the same time, by
# lock address; both are in place before the writers start and stay after
# they end, and nobody else takes that lock: the counts must be equal. A second report
# counts every lock in the shared table (--percpu-locks 0, the path of the locks past the
# per-CPU room of a many-CPU machine): its counts must be the same.
# until SIGINT, after the writers ended: a fixed -d would end before them where the
# programs load slowly (the lab guest)
# in check mode (LRS_CHECK_CLASSIFY=1), which counts the sleeping locks' misses of the
# classification cache: the rwsem's waits must be among them. --stack-cost 0: the writers
# make a few hundred waits, and after a stack the cost cap may skip more waits than that
LRS_CHECK_CLASSIFY=1 "$LRS_BIN" report -d 600 -f json --stack-cost 0 --ready-file "$tmp/percpu.ready" \
	>"$tmp/percpu.json" 2>"$tmp/percpu.err" &
rpid=$!
lrs_track_pid "$rpid"
"$LRS_BIN" report -d 600 -f json --percpu-locks 0 --ready-file "$tmp/shared.ready" \
	>"$tmp/shared.json" 2>"$tmp/shared.err" &
spid=$!
lrs_track_pid "$spid"
# bpftrace counts write waits on an rwsem only (flags LCB_F_WRITE alone), each
# keyed by task and lock: where spinlock waits are traced, the rwsem's own
# wait_lock is waited on inside the rwsem's wait, and a key of the task alone
# would let that inner wait overwrite the outer one's start.
start_bpftrace bt '
BEGIN { printf("ready\n"); }
tracepoint:lock:contention_begin /comm == "dd" && args->flags == 4 &&
		!@start[tid, (uint64)args->lock_addr]/ {
	@start[tid, (uint64)args->lock_addr] = nsecs;
}
tracepoint:lock:contention_end /@start[tid, (uint64)args->lock_addr]/ {
	@n[(uint64)args->lock_addr] = count();
	@cpus[cpu] = count();
	@w[(uint64)args->lock_addr] = sum(nsecs - @start[tid, (uint64)args->lock_addr]);
	delete(@start[tid, (uint64)args->lock_addr]);
}
END { clear(@start); }'
bt_ready=$?
# both reports count from here: bpftrace and they see the same waits
ids= sids=
lrs_ready "$tmp/percpu.ready" "$rpid" "$(lrs_secs 60)" && ids=$(lrs_wait_bpf_loaded "$rpid")
lrs_ready "$tmp/shared.ready" "$spid" "$(lrs_secs 60)" && sids=$(lrs_wait_bpf_loaded "$spid")
if [ -n "$ids" ] && [ -n "$sids" ] && [ "$bt_ready" = 0 ]; then
	: >"$tmp/samefile"
	ncpu=$(nproc); [ "$ncpu" -gt 2 ] && ncpu=2
	writers=()
	# two writers on each of two CPUs: waits end on both, so copies are merged
	for w in 0 1 2 3; do
		(end=$(($(date +%s) + 4))
		 while [ "$(date +%s)" -lt "$end" ]; do
			taskset -c $((w % ncpu)) \
				dd if=/dev/zero of="$tmp/samefile" bs=4k count=20000 conv=notrunc status=none
		 done) &
		writers+=($!)
	done
	for w in "${writers[@]}"; do lrs_wait_for "$w" 60; done
	sleep 1
	kill -INT "$BT_PID" "$rpid" "$spid"
	lrs_wait_for "$BT_PID" 30
	lrs_wait_for "$rpid" 30; rc=$?
	lrs_wait_for "$spid" 30; src=$?
	$PY - "$tmp/percpu.json" "$tmp/bt.out" "$rc" "$tmp/shared.json" "$src" "$tmp/shared.err" \
		"$tmp/percpu.err" <<'EOF'
import json, os, re, sys
from lrs_tap import check
snap = json.load(open(sys.argv[1]))
bt = {'n': {}, 'w': {}}
# bpftrace prints the keys as signed 64-bit numbers
for m in re.finditer(r'^@(n|w)\[(-?\d+)\]: (\d+)$', open(sys.argv[2]).read(), re.M):
    bt[m.group(1)][int(m.group(2)) & (2**64 - 1)] = int(m.group(3))
check('percpu: report exits 0', sys.argv[3] == '0', 'rc ' + sys.argv[3])
lock = max(bt['n'], key=bt['n'].get) if bt['n'] else None
n = bt['n'].get(lock, 0)
check('percpu: bpftrace saw the writers queue on one lock', n >= 20, str(bt['n']))
cpus = re.findall(r'^@cpus\[\d+\]: \d+$', open(sys.argv[2]).read(), re.M)
check('percpu: the waits ended on two CPUs (two copies to merge)', len(cpus) >= min(2, os.cpu_count()),
      str(cpus))
# a report's rows of bpftrace's lock; without one, a lock's checks fail on an empty row, each
# printed
def rows_of(report):
    return [o for o in report['other_locks'] if lock is not None and int(o['lock'], 16) == lock]
EMPTY = {'contended': 0, 'wait_ns': 0, 'hist': [], 'flags': 0, 'name': 'none', 'wait_max_ns': 0,
         'stacks': []}
row = rows_of(snap)
check('percpu: the report has that lock', len(row) == 1, f'{lock and hex(lock)} not in other_locks: '
      + ', '.join(f"{o['lock']} {o['name']} flags {o['flags']} {o['contended']}" for o in snap['other_locks']
                  if o['flags'] != 1)[:400] + f"; bpftrace {bt['n']}; drops {snap['drops']}")
r = row[0] if row else EMPTY
check(f'percpu: contended equals the independent count ({n})', n > 0 and r['contended'] == n,
      f"lruscope {r['contended']}, bpftrace {n}; drops {snap['drops']}")
w = bt['w'].get(lock, 0)
check('percpu: wait time within 10% of the independent sum', w > 0 and abs(r['wait_ns'] - w) <= 0.1 * w,
      f"lruscope {r['wait_ns']} ns, bpftrace {w} ns")
check('percpu: histogram counts every wait', sum(r['hist']) == r['contended'] > 0,
      f"{sum(r['hist'])} != {r['contended']}")
check('percpu: max wait is one wait of the total', 0 < r['wait_max_ns'] <= r['wait_ns'],
      f"{r['wait_max_ns']} of {r['wait_ns']}")
check('percpu: identity kept: a write wait on an rwsem (flags 4)',
      r['flags'] == 4 and r['name'].startswith('rwsem:W'), f"flags {r['flags']}, name {r['name']}")
check('percpu: sampled stacks count no more waits than the lock',
      0 < sum(s['contended'] for s in r['stacks']) <= r['contended'], json.dumps(r['stacks'])[:300])
d = snap['drops']
check('percpu: no map full, no negative time', d['stats_full'] == 0 and d['negative_time'] == 0, json.dumps(d))
# each CPU's first wait on the new file's rwsem finds no entry for it in that CPU's
# classification cache: a sleeping-lock miss, counted in check mode
m = re.search(r'sleeping locks: (\d+) misses, (\d+) of them took over', open(sys.argv[7]).read())
sm, se = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
check('percpu: check mode counts the sleeping locks\' misses of the classification cache '
      '(at least one, takeovers among them)',
      m is not None and sm >= 1 and se <= sm,
      f"{sm} misses, {se} takeovers, {n} waits on the rwsem"
      + ('' if m else '; no check line: ' + open(sys.argv[7]).read().strip()[-200:]))
print(f"# classification cache, rwsem writers: sleeping locks {sm} misses, {se} takeovers; "
      f"{n} waits on the rwsem")
# the same lock, counted in the shared table by the second report
err = open(sys.argv[6]).read().strip()[-300:]
try:
    shared = json.load(open(sys.argv[4]))
except ValueError:
    shared = {'other_locks': [], 'drops': {}}
check('shared table: report --percpu-locks 0 exits 0, no map full',
      sys.argv[5] == '0' and shared['drops'].get('stats_full') == 0,
      f"rc {sys.argv[5]}: {err}; drops {shared['drops']}")
srow = rows_of(shared)
s = srow[0] if srow else EMPTY
check(f'shared table: contended equals the independent count ({n})', n >= 20 and s['contended'] == n,
      f"shared {s['contended']}, bpftrace {n}; drops {shared['drops']}")
w = bt['w'].get(lock, 0)
check('shared table: wait time within 10% of the independent sum',
      w > 0 and abs(s['wait_ns'] - w) <= 0.1 * w, f"shared {s['wait_ns']} ns, bpftrace {w} ns")
check('shared table: histogram counts every wait, max wait one of the total',
      sum(s['hist']) == s['contended'] > 0 and 0 < s['wait_max_ns'] <= s['wait_ns'],
      f"{sum(s['hist'])} in the histogram, {s['contended']} contended, max {s['wait_max_ns']}")
check('shared table: identity kept: a write wait on an rwsem (flags 4)',
      s['flags'] == 4 and s['name'].startswith('rwsem:W'), f"flags {s['flags']}, name {s['name']}")
EOF
else
	why="lruscope ($ids, shared $sids) and bpftrace ($(head -c 200 "$tmp/bt.err")) loaded"
	for i in $(seq 1 17); do tap_fail "percpu, check $i of 17: not run: $why"; done
fi

# --- 2. a mutex waiter that sleeps and spins again is one wait ----------------
# Renames across two directories queue on the file system's rename mutex. A mutex
# waiter begins once to spin (LCB_F_MUTEX | LCB_F_SPIN), again to sleep (LCB_F_MUTEX),
# and again each time it wakes first and spins, with one end for all; a failed spin
# may schedule and move the task to another CPU. bpftrace keeps each task's first
# begin until its end, whatever task (another rename on this file system waits on the
# same mutex); the report must count the same waits, as long.
"$LRS_BIN" report -d 600 -f json --ready-file "$tmp/mutex.ready" >"$tmp/mutex.json" 2>"$tmp/mutex.err" &
rpid=$!
lrs_track_pid "$rpid"
start_bpftrace mbt '
BEGIN { printf("ready\n"); }
tracepoint:lock:contention_begin /args->flags & 32/ {
	if (@start[tid]) {
		if (args->flags & 1) { @respin[(uint64)args->lock_addr] = count(); }
	} else {
		@start[tid] = nsecs;
		@lk[tid] = (uint64)args->lock_addr;
	}
}
tracepoint:lock:contention_end /@start[tid] && @lk[tid] == (uint64)args->lock_addr/ {
	@n[(uint64)args->lock_addr] = count();
	@w[(uint64)args->lock_addr] = sum(nsecs - @start[tid]);
	@mx[(uint64)args->lock_addr] = max(nsecs - @start[tid]);
	delete(@start[tid]);
	delete(@lk[tid]);
}
END { clear(@start); clear(@lk); }'
bt_ready=$?
# the report counts every wait from here
ids=
lrs_ready "$tmp/mutex.ready" "$rpid" "$(lrs_secs 60)" && ids=$(lrs_wait_bpf_loaded "$rpid")
if [ -n "$ids" ] && [ "$bt_ready" = 0 ]; then
	$PY - "$tmp/rename" 8 "$(lrs_secs 4)" <<'EOF'
import os, sys, time
base, n, secs = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
for d in ('a', 'b'):
    os.makedirs(os.path.join(base, d), exist_ok=True)
kids = []
for i in range(n):
    pid = os.fork()
    if pid == 0:
        open('/proc/self/comm', 'w').write('lrs-rename')
        here, there = os.path.join(base, 'a', str(i)), os.path.join(base, 'b', str(i))
        open(here, 'w').close()
        end = time.time() + secs
        while time.time() < end:
            os.rename(here, there)
            here, there = there, here
        os._exit(0)
    kids.append(pid)
for k in kids:
    os.waitpid(k, 0)
EOF
	sleep 1
	kill -INT "$BT_PID" "$rpid"
	lrs_wait_for "$BT_PID" 30
	lrs_wait_for "$rpid" 30; rc=$?
	$PY - "$tmp/mutex.json" "$tmp/mbt.out" "$rc" "$tmp/mutex.err" <<'EOF'
import json, re, sys
from lrs_tap import check
bt = {}
for m in re.finditer(r'^@(n|w|mx|respin)\[(-?\d+)\]: (\d+)$', open(sys.argv[2]).read(), re.M):
    bt.setdefault(m.group(1), {})[int(m.group(2)) & (2**64 - 1)] = int(m.group(3))
try:
    snap = json.load(open(sys.argv[1]))
except ValueError:
    snap = {'other_locks': [], 'drops': {}}
n = bt.get('n', {})
lock = max(n, key=n.get) if n else None
respun = bt.get('respin', {}).get(lock, 0)
row = [o for o in snap['other_locks'] if lock is not None and int(o['lock'], 16) == lock]
r = row[0] if row else {'contended': 0, 'wait_ns': 0, 'wait_max_ns': 0, 'name': 'none', 'flags': 0}
w, mx = bt.get('w', {}).get(lock, 0), bt.get('mx', {}).get(lock, 0)
print(f"# rename mutex {lock and hex(lock)}: bpftrace {n.get(lock, 0)} waits, {respun} spun again, "
      f"{w} ns, max {mx} ns; lruscope {r['contended']} waits, {r['wait_ns']} ns, max {r['wait_max_ns']} ns "
      f"({r['name']}); drops {snap['drops']}")
check('mutex: report exits 0; bpftrace saw renamers sleep on one mutex and spin again',
      sys.argv[3] == '0' and n.get(lock, 0) >= 20 and respun >= 1,
      f"rc {sys.argv[3]}: {open(sys.argv[4]).read().strip()[-200:]}; bpftrace {n}, spun again {respun}")
check(f'mutex: the report counts each wait once ({n.get(lock, 0)}), none dropped for want of room',
      n.get(lock, 0) >= 20 and r['contended'] == n.get(lock, 0)
      and snap['drops'].get('task_no_room', 0) == 0,
      f"lruscope {r['contended']}, bpftrace {n.get(lock, 0)}; drops {snap['drops']}")
check('mutex: wait time and longest wait within 10% of bpftrace\'s, from the first begin',
      w > 0 and abs(r['wait_ns'] - w) <= 0.1 * w and abs(r['wait_max_ns'] - mx) <= 0.1 * mx,
      f"lruscope {r['wait_ns']} ns, max {r['wait_max_ns']}; bpftrace {w} ns, max {mx}")
EOF
else
	tap_fail "mutex: lruscope ($ids) and bpftrace ($(head -c 200 "$tmp/mbt.err")) loaded"
	tap_fail "mutex: the report counts each wait once"
	tap_fail "mutex: wait time and longest wait within 10% of bpftrace's"
fi

