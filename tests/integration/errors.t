#!/usr/bin/env bash
# Errors say what failed: a directory given as a recording, a full disk, a
# reader that closed the pipe (which a report takes quietly, as '| head'
# does); option values out of range are refused up front, and an output file
# that cannot be made is named before anything is collected.
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 79
need_root "errors"

T=errors
SYNTH=$(dirname "$0")/synth_recording.py
dir=$(mktemp -d /tmp/lrs-test-errors.XXXXXX)
cleanup() {
	lrs_cleanup
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$SYNTH" --snapshots 5 --memcgs 40 >"$dir/r.jsonl"

# exited_saying STATUS FILE TEXT: $rc is STATUS, FILE has TEXT and no bare "Input/output error"
exited_saying() {
	[ "$rc" -eq "$1" ] && grep -qF -- "$3" "$2" && ! grep -q "Input/output error" "$2"
}
# run_rc NAME CMD...: run CMD (stdout dropped), its status in $rc, its stderr in $dir/NAME.err
run_rc() {
	local name=$1; shift
	"$@" >/dev/null 2>"$dir/$name.err"
	rc=$?
}
# closed_pipe NAME CMD...: CMD writing into a pipe whose reader has gone; status in $rc
# (-1 where the Python that runs it raised, which is a failure of its own)
closed_pipe() {
	local name=$1; shift
	tap_python "$T: $name: run into a closed pipe" \
		/usr/bin/python3 - "$dir/$name.err" "$dir/$name.rc" "$@" <<'PY'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
with open(sys.argv[1], "wb") as err:
    p = subprocess.run(sys.argv[3:], stdout=w, stderr=err, timeout=120)
with open(sys.argv[2], "w") as f:
    f.write("%d\n" % (p.returncode if p.returncode >= 0 else 128 - p.returncode))
PY
	rc=$(cat "$dir/$name.rc" 2>/dev/null)
	rc=${rc:--1}
}

# ---- what failed ------------------------------------------------------------------------
run_rc dir-report "$LRS_BIN" report -i "$dir"
tap_check "$T: report -i DIR: exit 1, 'is a directory' ($(cat "$dir/dir-report.err"))" \
	exited_saying 1 "$dir/dir-report.err" "is a directory"
run_rc dir-replay "$LRS_BIN" replay "$dir"
tap_check "$T: replay DIR: exit 1, 'is a directory'" \
	exited_saying 1 "$dir/dir-replay.err" "is a directory"
"$LRS_BIN" report -i "$dir/r.jsonl" -a >/dev/full 2>"$dir/full-report.err"
rc=$?
tap_check "$T: report >/dev/full: exit 1, the disk is full ($(cat "$dir/full-report.err"))" \
	exited_saying 1 "$dir/full-report.err" "no space left"
run_rc full-record "$LRS_BIN" record -o /dev/full -d 1
tap_check "$T: record -o /dev/full: exit 1, the disk is full ($(head -n1 "$dir/full-record.err"))" \
	exited_saying 1 "$dir/full-record.err" "no space left"
closed_pipe pipe-record "$LRS_BIN" record -o - -d 2
tap_check "$T: record -o - into a closed pipe: exit 1, the reader closed it ($(head -n1 "$dir/pipe-record.err"))" \
	exited_saying 1 "$dir/pipe-record.err" "the reader closed the pipe"

# ---- a report whose reader has gone: quiet -------------------------------------------------
closed_pipe pipe-report-i "$LRS_BIN" report -i "$dir/r.jsonl" -a
tap_check "$T: report -i into a closed pipe: exit 0, nothing said (rc $rc: $(cat "$dir/pipe-report-i.err"))" \
	test "$rc" -eq 0 -a ! -s "$dir/pipe-report-i.err"
closed_pipe pipe-report "$LRS_BIN" report -d 1 -a
tap_check "$T: report -d 1 into a closed pipe: exit 0, nothing said (rc $rc: $(cat "$dir/pipe-report.err"))" \
	test "$rc" -eq 0 -a ! -s "$dir/pipe-report.err"
# over 64 KiB of csv: more than the pipe holds, so the writes after head ends must fail
"$SYNTH" --snapshots 2 --memcgs 2000 >"$dir/big.jsonl"
"$LRS_BIN" report -i "$dir/big.jsonl" -a -f csv 2>"$dir/head.err" | head -n1 >/dev/null
tap_check "$T: report | head -1: exit 0, nothing said" \
	test "${PIPESTATUS[0]}" -eq 0 -a ! -s "$dir/head.err"

# ---- values out of range, refused up front -----------------------------------------------
run_rc n "$LRS_BIN" report -i "$dir/r.jsonl" -n -1
tap_check "$T: report -n -1: usage error naming the range" \
	exited_saying 2 "$dir/n.err" "from 0 to"
run_rc locks timeout 20 "$LRS_BIN" report -d 1 --max-locks 2000000
tap_check "$T: --max-locks 2000000: usage error naming the range, before loading ($(cat "$dir/locks.err"))" \
	exited_saying 2 "$dir/locks.err" "from 1 to 1048576"
run_rc locks-max "$LRS_BIN" report -d 0.5 --max-locks 1048576
tap_check "$T: --max-locks 1048576, the top of the range, loads (rc $rc: $(head -c 200 "$dir/locks-max.err"))" \
	test $rc -eq 0
for pct in 101 0.0001 -1 0.1x; do
	run_rc stackcpu timeout 20 "$LRS_BIN" report -d 1 --stack-cpu "$pct"
	tap_check "$T: --stack-cpu $pct: usage error naming the range, before loading ($(cat "$dir/stackcpu.err"))" \
		exited_saying 2 "$dir/stackcpu.err" "--stack-cpu '$pct': want a percentage of a CPU, 0.001 to 100, or 0"
done
for ns in 1000001 -1 50x; do
	run_rc stackcost timeout 20 "$LRS_BIN" report -d 1 --stack-cost "$ns"
	tap_check "$T: --stack-cost $ns: usage error naming the range, before loading ($(cat "$dir/stackcost.err"))" \
		exited_saying 2 "$dir/stackcost.err" "--stack-cost '$ns': want nanoseconds a wait, 0 to 1000000"
done
run_rc ready timeout 20 "$LRS_BIN" report -d 1 --ready-file "$dir/no-such-dir/ready"
tap_check "$T: --ready-file in a directory that does not exist: status 1, naming it ($(cat "$dir/ready.err"))" \
	exited_saying 1 "$dir/ready.err" "--ready-file $dir/no-such-dir/ready: cannot write it: No such file or directory"
run_rc spin timeout 20 "$LRS_BIN" report -d 1 --spin-source kprobe
tap_check "$T: --spin-source kprobe: usage error naming the choices, before loading ($(cat "$dir/spin.err"))" \
	exited_saying 2 "$dir/spin.err" "want auto, tracepoint or slowpath"
# --spin-source slowpath loads where fentry on the slow path does (bpftrace's kfunc probe is
# the independent judge), and elsewhere fails in one line saying why, status 1
if timeout 60 bpftrace -e 'kfunc:native_queued_spin_lock_slowpath, kfunc:__pv_queued_spin_lock_slowpath { } interval:ms:100 { exit(); }' >/dev/null 2>&1; then
	fentry_ok=1
else
	fentry_ok=0
fi
run_rc spin-slow timeout 120 "$LRS_BIN" report -d 0.5 -f json --spin-source slowpath
if [ $fentry_ok = 1 ]; then
	tap_check "$T: --spin-source slowpath loads where fentry does (rc $rc: $(head -c 200 "$dir/spin-slow.err"))" \
		test $rc -eq 0
else
	tap_check "$T: --spin-source slowpath where fentry is refused: status 1, one line saying why ($(cat "$dir/spin-slow.err"))" \
		eval '[ $rc -eq 1 ] && [ "$(wc -l <"$dir/spin-slow.err")" -eq 1 ] && grep -q "slowpath hooks cannot load here: fentry/fexit on the spinlock slow path refused" "$dir/spin-slow.err"'
fi
run_rc spin-tp timeout 60 "$LRS_BIN" report -d 0.5 --spin-source tracepoint
tap_check "$T: --spin-source tracepoint loads where the tracepoint exists (rc $rc: $(head -c 200 "$dir/spin-tp.err"))" \
	test $rc -eq 0
# demo --lab outside a build tree (an installed binary): no lab, one line saying where it is
mkdir -p "$dir/inst/bin" && cp "$LRS_BIN" "$dir/inst/bin/lruscope"
run_rc lab "$dir/inst/bin/lruscope" demo --lab --runs 1
tap_check "$T: demo --lab of an installed binary: exit 1, the lab is in the source tree ($(cat "$dir/lab.err"))" \
	exited_saying 1 "$dir/lab.err" "make lab-demo"
# gui's own options and the collector's are one set: --spin-source names the source, never
# the picture (a file named after the source, in the working directory)
(cd "$dir" && timeout 60 env -u DISPLAY "$LRS_BIN" gui --screenshot "$dir/spin.png" --spin-source tracepoint -d 1 \
	>"$dir/gui-spin.out" 2>"$dir/gui-spin.err")
rc=$?
tap_check "$T: gui --screenshot F --spin-source tracepoint: F drawn, no file named tracepoint (rc $rc)" \
	test $rc -eq 0 -a -s "$dir/spin.png" -a ! -e "$dir/tracepoint"
for speed in 0.1 200; do
	run_rc speed "$LRS_BIN" replay "$dir/r.jsonl" --speed $speed
	tap_check "$T: replay --speed $speed: usage error, the help's range 0.25 to 128" \
		exited_saying 2 "$dir/speed.err" "from 0.25 to 128"
done
for speed in 0.25 128; do
	run_rc speed "$LRS_BIN" replay "$dir/r.jsonl" --speed $speed --gui --screenshot "$dir/s.png"
	tap_check "$T: replay --speed $speed is taken (rc $rc)" test $rc -eq 0
done

# ---- an output that cannot be made: said before collecting --------------------------------
# each would collect for 60 s first: the timeout (status 124) shows it did
run_rc shot timeout 30 "$LRS_BIN" gui --screenshot "$dir/no-such-dir/x.png" -d 60
tap_check "$T: gui --screenshot into a missing directory: exit 1 at once, naming it ($(cat "$dir/shot.err"))" \
	exited_saying 1 "$dir/shot.err" "$dir/no-such-dir does not exist"
run_rc shot-dir timeout 30 "$LRS_BIN" gui --screenshot "$dir" -d 60
tap_check "$T: gui --screenshot DIR: exit 1 at once, 'is a directory'" \
	exited_saying 1 "$dir/shot-dir.err" "is a directory"
run_rc rec-out timeout 30 "$LRS_BIN" record -o "$dir/no-such-dir/r.jsonl" -d 60
tap_check "$T: record -o into a missing directory: exit 1 at once, naming it ($(cat "$dir/rec-out.err"))" \
	exited_saying 1 "$dir/rec-out.err" "$dir/no-such-dir does not exist"

# ---- a FIFO that no writer opens: a bounded wait, then a line naming it -------------------
# lrs_elapsed CMD...: run CMD (stdout dropped, stderr to $err), its status in $rc and
# its wall time in whole seconds in $secs; timeout bounds the check itself
lrs_elapsed() {
	local t0=$SECONDS
	timeout 40 "$@" >/dev/null 2>"$err"
	rc=$?
	secs=$((SECONDS - t0))
}
mkfifo "$dir/fifo"
# all three wait at once: the check takes the wait once, not three times
(err=$dir/fifo-report.err; lrs_elapsed "$LRS_BIN" report -i "$dir/fifo"; echo "$rc $secs" >"$dir/fifo-report.rc") &
(err=$dir/fifo-diff.err; lrs_elapsed "$LRS_BIN" diff "$dir/r.jsonl" "$dir/fifo"; echo "$rc $secs" >"$dir/fifo-diff.rc") &
(err=$dir/fifo-replay.err
 lrs_elapsed "$LRS_BIN" replay "$dir/fifo" --gui --screenshot "$dir/fifo.png"; echo "$rc $secs" >"$dir/fifo-replay.rc") &
wait
# waited_saying NAME TEXT: NAME.rc says exit 1 within 30 s, NAME.err has TEXT
waited_saying() {
	local rc secs
	read -r rc secs <"$dir/$1.rc"
	[ "$rc" -eq 1 ] && [ "$secs" -le 30 ] && grep -qF -- "$2" "$dir/$1.err"
}
for c in report diff replay; do
	echo "# $c: exit and seconds: $(cat "$dir/fifo-$c.rc"); $(cat "$dir/fifo-$c.err")"
	tap_check "$T: $c of a FIFO no writer opens: exit 1 within 30 s, naming it and what it waited for" \
		waited_saying "fifo-$c" "$dir/fifo: a FIFO that no writer opened in 10 s"
done
"$LRS_BIN" replay "$dir/fifo" --gui --screenshot "$dir/fifo.png" >/dev/null 2>"$dir/fifo-term.err" &
pid=$!
lrs_track_pid $pid
sleep 1
kill -TERM $pid
lrs_wait_for $pid 20
rc=$?
lrs_untrack_pid $pid
echo "# replay FIFO, SIGTERM after 1 s: rc $rc: $(cat "$dir/fifo-term.err")"
tap_check "$T: replay of a FIFO ended by SIGTERM while waiting: says it waited for a writer, no 'Interrupted system call'" \
	bash -c '[ "$1" -eq 1 ] && grep -q "interrupted while waiting for a writer" "$2" &&
		! grep -q "Interrupted system call" "$2"' _ "$rc" "$dir/fifo-term.err"
(sleep 1; cat "$dir/r.jsonl" >"$dir/fifo") &
run_rc fifo-late timeout 30 "$LRS_BIN" report -i "$dir/fifo"
wait
tap_check "$T: report -i FIFO whose writer comes a second later reads it (rc $rc: $(cat "$dir/fifo-late.err"))" \
	test "$rc" -eq 0
run_rc dev-null "$LRS_BIN" report -i /dev/null
tap_check "$T: report -i /dev/null: exit 1 at once, 'is a character device' ($(cat "$dir/dev-null.err"))" \
	exited_saying 1 "$dir/dev-null.err" "/dev/null: is a character device, not a recording"

# ---- options that were dropped, refused ----------------------------------------------------
run_rc d-and-i "$LRS_BIN" report -d 1 -i "$dir/r.jsonl"
tap_check "$T: report -d 1 -i FILE: usage error, choose one ($(cat "$dir/d-and-i.err"))" \
	exited_saying 2 "$dir/d-and-i.err" "-d and -i: choose one"
run_rc i-and-d "$LRS_BIN" report -i "$dir/r.jsonl" -d 1
tap_check "$T: report -i FILE -d 1: usage error, choose one" \
	exited_saying 2 "$dir/i-and-d.err" "-d and -i: choose one"
# export -d shorter than the interval: from its first page to its exit, the duration
mkdir "$dir/tf"
"$LRS_BIN" export --textfile "$dir/tf" -d 1 -i 10 -q >/dev/null 2>"$dir/export-d.err" &
pid=$!
lrs_track_pid $pid
for _ in $(seq 200); do [ -e "$dir/tf/lruscope.prom" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.1; done
t0=$(date +%s%N)
lrs_wait_for $pid 30
rc=$?
lrs_untrack_pid $pid
ms=$((($(date +%s%N) - t0) / 1000000))
echo "# export -d 1 -i 10: rc $rc, ran $ms ms after its first page; $(head -c 300 "$dir/export-d.err")"
tap_check "$T: export -d 1 -i 10 stops 1 s after its first page, not at the next interval" \
	test "$rc" -eq 0 -a -e "$dir/tf/lruscope.prom" -a "$ms" -lt 5000

# ---- the terminal, the cgroup mount ------------------------------------------------------
# on_tty NAME CMD: CMD on a terminal (script), its output in $dir/NAME.err, status in $rc
on_tty() {
	timeout 30 script -qec "$2" /dev/null >"$dir/$1.err" 2>&1 </dev/null
	rc=$?
}
on_tty dumb "TERM=dumb $LRS_BIN top -d 5"
tap_check "$T: TERM=dumb top: exit 1 before loading, it cannot move the cursor ($(tr -d '\r' <"$dir/dumb.err" | head -c 300))" \
	exited_saying 1 "$dir/dumb.err" "lruscope top: TERM=dumb cannot move the cursor"
on_tty unset "env -u TERM $LRS_BIN top -d 5"
tap_check "$T: top with TERM unset: exit 1, TERM is not set" \
	exited_saying 1 "$dir/unset.err" "lruscope top: TERM is not set"
on_tty dumb-replay "TERM=dumb $LRS_BIN replay $dir/r.jsonl -d 5"
tap_check "$T: TERM=dumb replay: exit 1, it cannot move the cursor" \
	exited_saying 1 "$dir/dumb-replay.err" "TERM=dumb cannot move the cursor"
run_rc cg-etc "$LRS_BIN" report -d 1 --cgroup-root /etc
tap_check "$T: --cgroup-root /etc: exit 1, not a cgroup mount, no 'Not a directory' ($(cat "$dir/cg-etc.err"))" \
	bash -c '[ "$1" -eq 1 ] && grep -q "/etc is not a cgroup mount: name the memory cgroup mount" "$2" &&
		! grep -q "Not a directory" "$2"' _ "$rc" "$dir/cg-etc.err"

# ---- write errors: the help and the tables say a full disk ---------------------------------
for args in "keys" "keys --man" "--help" "report --help" "diff $dir/r.jsonl $dir/r.jsonl"; do
	# shellcheck disable=SC2086
	"$LRS_BIN" $args >/dev/full 2>"$dir/full.err"
	rc=$?
	tap_check "$T: $args >/dev/full: exit 1, the disk is full ($(cat "$dir/full.err"))" \
		exited_saying 1 "$dir/full.err" "failed: no space left on the device"
done

# ---- recordings cut short, a schema version as a string ------------------------------------
run_rc rec-zst "$LRS_BIN" record -q -d 1 -o "$dir/rec.jsonl.zst"
tap_check "$T: record -d 1 -o FILE.zst (rc $rc: $(head -c 300 "$dir/rec-zst.err"))" test "$rc" -eq 0
head -c 40 "$dir/rec.jsonl.zst" >"$dir/cut40.zst"
run_rc cut40 "$LRS_BIN" report -i "$dir/cut40.zst"
tap_check "$T: the first 40 bytes of a .zst recording: truncated, at byte 40 ($(cat "$dir/cut40.err"))" \
	exited_saying 1 "$dir/cut40.err" "truncated or corrupt: the zstd stream ends at byte 40"
gzip -c "$dir/r.jsonl" | head -c 10 >"$dir/gz-header"
run_rc gz-header "$LRS_BIN" report -i - <"$dir/gz-header"
tap_check "$T: a lone gzip header on stdin: truncated, at byte 10 ($(cat "$dir/gz-header.err"))" \
	exited_saying 1 "$dir/gz-header.err" "(stdin): truncated or corrupt: the gzip stream ends at byte 10"
sed '1s/"schema":1,/"schema":"1",/' "$dir/r.jsonl" >"$dir/schema-string.jsonl"
run_rc schema-string "$LRS_BIN" report -i "$dir/schema-string.jsonl"
tap_check "$T: \"schema\":\"1\": exit 1, the schema is a string, not missing ($(cat "$dir/schema-string.err"))" \
	exited_saying 1 "$dir/schema-string.err" '"schema" is the string "1"'

# ---- record: a compression it does not write, a file that exists ---------------------------
run_rc rec-xz timeout 30 "$LRS_BIN" record -d 1 -o "$dir/r.xz"
tap_check "$T: record -o FILE.xz: usage error, it writes gzip and zstd only ($(cat "$dir/rec-xz.err"))" \
	bash -c '[ "$1" -eq 2 ] && grep -q "gzip (FILE.gz) and zstd (FILE.zst) only" "$2" && [ ! -e "$3" ]' \
	_ "$rc" "$dir/rec-xz.err" "$dir/r.xz"
cp "$dir/rec.jsonl.zst" "$dir/rec.before"
run_rc rec-exists timeout 30 "$LRS_BIN" record -q -d 1 -o "$dir/rec.jsonl.zst"
tap_check "$T: record -o an existing file: exit 1, --force overwrites, the file is untouched ($(cat "$dir/rec-exists.err"))" \
	bash -c '[ "$1" -eq 1 ] && grep -q "exists: give --force to overwrite it" "$2" && cmp -s "$3" "$4"' \
	_ "$rc" "$dir/rec-exists.err" "$dir/rec.jsonl.zst" "$dir/rec.before"
run_rc rec-force timeout 30 "$LRS_BIN" record -q -d 1 --force -o "$dir/rec.jsonl.zst"
tap_check "$T: record --force -o an existing file overwrites it (rc $rc)" \
	bash -c '[ "$1" -eq 0 ] && ! cmp -s "$2" "$3" && "$4" report -i "$2" >/dev/null' \
	_ "$rc" "$dir/rec.jsonl.zst" "$dir/rec.before" "$LRS_BIN"

# ---- usage errors exit 2: --listen, unknown options, limits ---------------------------------
for addr in bad 0.0.0.0:99999 127.0.0.1:0 999.1.1.1:9464; do
	run_rc listen timeout 30 "$LRS_BIN" export --listen "$addr" -d 1
	tap_check "$T: export --listen $addr: usage error naming it ($(cat "$dir/listen.err"))" \
		exited_saying 2 "$dir/listen.err" "--listen '$addr': want ADDR:PORT"
done
# one_line_naming NAME OPT: $rc is 2 and NAME.err is one line naming OPT and --help
one_line_naming() {
	[ "$rc" -eq 2 ] && [ "$(wc -l <"$dir/$1.err")" -eq 1 ] && grep -qF -- "'$2'" "$dir/$1.err" &&
		grep -qF -- "--help" "$dir/$1.err"
}
for cmd in keys report record replay diff top gui demo export walk workload; do
	run_rc bogus timeout 20 "$LRS_BIN" "$cmd" --bogus
	tap_check "$T: $cmd --bogus: usage error, one line naming it ($(head -n 3 "$dir/bogus.err"))" \
		one_line_naming bogus --bogus
done
run_rc missing-value "$LRS_BIN" report -d
tap_check "$T: report -d without a value: one line naming -d ($(cat "$dir/missing-value.err"))" \
	one_line_naming missing-value -d
"$LRS_BIN" demo --help >"$dir/demo.help"
run_rc readers timeout 20 "$LRS_BIN" demo --readers 300 --batch
tap_check "$T: demo --readers 300: usage error, the help's limit of 256 ($(cat "$dir/readers.err"))" \
	bash -c '[ "$1" -eq 2 ] && grep -q "from 1 to 256" "$2" && grep -q "at most 256" "$3"' \
	_ "$rc" "$dir/readers.err" "$dir/demo.help"
for opt in --size --limit; do
	run_rc zero timeout 20 "$LRS_BIN" demo $opt 0 --batch
	tap_check "$T: demo $opt 0: usage error ($(cat "$dir/zero.err"))" exited_saying 2 "$dir/zero.err" "$opt '0'"
done
run_rc size "$LRS_BIN" gui --size 100000x100000
tap_check "$T: gui --size 100000x100000: usage error naming the upper limit ($(cat "$dir/size.err"))" \
	exited_saying 2 "$dir/size.err" "to 16384x16384"

# ---- others' words first: SDL's, drgn's ------------------------------------------------------
# unset, libwayland's own line ("error: XDG_RUNTIME_DIR is invalid or not set") came first
run_rc xdg env -u DISPLAY -u WAYLAND_DISPLAY -u XDG_RUNTIME_DIR "$LRS_BIN" replay "$dir/r.jsonl" --gui
echo "# replay --gui, no display, XDG_RUNTIME_DIR unset: rc $rc:"
sed 's/^/#   /' "$dir/xdg.err"
tap_check "$T: replay --gui without a display or XDG_RUNTIME_DIR: lruscope's line alone, no XDG_RUNTIME_DIR error" \
	bash -c '[ "$1" -eq 1 ] && [ -s "$2" ] && ! grep -qv "^lruscope" "$2"' _ "$rc" "$dir/xdg.err"
echo "not a vmcore" >"$dir/not-a-core"
run_rc walk timeout 60 "$LRS_BIN" walk -c "$dir/not-a-core" -s "$dir/not-a-core"
tap_check "$T: walk -c NOT-A-CORE: exit 1, its error begins 'lruscope walk:' ($(cat "$dir/walk.err"))" \
	bash -c '[ "$1" -eq 1 ] && grep -q "^lruscope walk: " "$2" && ! grep -q "^error:" "$2"' _ "$rc" "$dir/walk.err"

# ---- a crash says so: the command, the signal, a backtrace addr2line reads; the signal's status
mkfifo "$dir/never"
exec {hold}<>"$dir/never" # a writer that never writes: diff waits in its read of A
"$LRS_BIN" diff "$dir/never" "$dir/r.jsonl" >/dev/null 2>"$dir/crash.err" {hold}>&- &
crash_pid=$!
for _ in $(seq 100); do # until it opened A: its handler is in place before the command runs
	find "/proc/$crash_pid/fd" -lname "$dir/never" 2>/dev/null | grep -q . && break
	sleep 0.1
done
kill -SEGV "$crash_pid"
wait "$crash_pid"
rc=$?
exec {hold}>&-
offset=$(grep -o -m1 "lruscope(+0x[0-9a-f]*)" "$dir/crash.err" | grep -o "0x[0-9a-f]*")
line=$([ -n "$offset" ] && addr2line -e "$LRS_BIN" "$offset")
echo "# a crashed diff (SIGSEGV sent while it read A): rc $rc, its first offset $offset at $line:"
head -n 4 "$dir/crash.err" | sed 's/^/#   /'
tap_check "$T: a crash (SIGSEGV): exit by the signal (139), 'lruscope diff: killed by SIGSEGV', a backtrace whose offsets addr2line places in the tree ($line)" \
	bash -c '[ "$1" -eq 139 ] && grep -q "^lruscope diff: killed by SIGSEGV, a bug in lruscope" "$2" &&
		[[ "$3" == *.c:[0-9]* ]]' _ "$rc" "$dir/crash.err" "$line"

