#!/usr/bin/env bash
# Errors say what failed: a directory given as a recording, a full disk, a
# reader that closed the pipe (which a report takes quietly, as '| head'
# does); option values out of range are refused up front, and an output file
# that cannot be made is named before anything is collected.
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 18
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
