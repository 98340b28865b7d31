#!/usr/bin/env bash
# Recordings against the running kernel: record a real readtwice load in
# lrs-test-rec-* memcgs, report -i on it against a live report of the same
# time, gzip/zstd variants, a pipe, a recorder killed with SIGKILL, folded
# output, and a replay in the TUI driven through tmux.
# live: traced
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 37
need_root "record"

prefix=lrs-test-rec$$-
dir=$(mktemp -d /tmp/lrs-test-record.XXXXXX)
session=lrs-test-record-$$
cleanup() {
	lrs_tmux_end "$session"
	lrs_cleanup
	read -r _ cgroot < <(lrs_memcg_root)
	for cg in "$cgroot/$prefix"*; do
		[ -d "$cg" ] && rmdir "$cg" 2>/dev/null
	done
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# the load: 4 readers in one memcg until the cleanup stops it (SIGTERM); they
# contend every second (isolated memcgs' readers contend only while both run)
"$LRS_BIN" workload --layout shared --readers 4 --duration 0 --cpu-shares 8192 --prefix "$prefix" \
	>"$dir/workload.out" 2>"$dir/workload.err" &
lrs_track_pid $!
for _ in $(seq 50); do grep -q "$prefix" "$dir/workload.out" && break; sleep 0.2; done
if ! grep -q "$prefix" "$dir/workload.out"; then
	tap_fail "record: the workload did not start: $(head -c 300 "$dir/workload.err")"
	exit 1
fi

memcg=$(grep -m1 "^/$prefix" "$dir/workload.out")

workload_alive() {
	kill -0 "${LRS_PIDS[0]}" 2>/dev/null && return 0
	tap_fail "record: the workload ended early: $(tail -n 3 "$dir/workload.out" "$dir/workload.err" | tr "\n" " ")"
	exit 1
}

# a recording of 6 intervals and a live report over the same time. Where the test runs slower
# (the lab guest, LRS_TIME_SCALE) an interval is longer: there a snapshot of the maps under
# the readers' 8192 cpu shares can take over a second, and 1 s intervals would fall behind
ivl=$(lrs_secs 1)
"$LRS_BIN" record -o "$dir/r.jsonl.zst" -i "$ivl" -d $((6 * ivl)) 2>"$dir/record.err" &
rec_pid=$!
lrs_track_pid $rec_pid
"$LRS_BIN" report -d $((6 * ivl)) -f csv >"$dir/live.csv" 2>"$dir/live.err"
wait $rec_pid
rc=$?
if [ $rc -eq 0 ] && grep -qE "wrote [0-9]+ snapshots, [0-9]+ bytes to $dir/r.jsonl.zst" "$dir/record.err"; then
	tap_ok "record: -i $ivl -d $((6 * ivl)) to .zst exits 0 and says what it wrote ($(tail -n1 "$dir/record.err"))"
else
	tap_fail "record: exit $rc: $(cat "$dir/record.err")"
fi
tap_check "record: the .zst file is a complete zstd stream" zstd -tq "$dir/r.jsonl.zst"
said=$(sed -n 's/.*snapshots, \([0-9]*\) bytes to.*/\1/p' "$dir/record.err")
size=$(stat -c %s "$dir/r.jsonl.zst")
tap_check "record: the bytes it says it wrote ($said) are the file's size ($size)" [ "${said:-x}" = "$size" ]
zstdcat "$dir/r.jsonl.zst" > "$dir/r.jsonl"
lines=$(wc -l < "$dir/r.jsonl")
if [ "$lines" -ge 6 ] && head -n1 "$dir/r.jsonl" | grep -q '"lruscope_recording":1'; then
	tap_ok "record: a header and $((lines - 1)) snapshot lines"
else
	tap_fail "record: $lines lines, header: $(head -c 200 "$dir/r.jsonl")"
fi

workload_alive
# hot: the lrs-test lruvec with the most wait (csv rows are sorted by wait)
hot() { grep -m1 "^lruvec,\"/$prefix" "$1" | cut -d, -f2,3; }
"$LRS_BIN" report -i "$dir/r.jsonl.zst" -f csv >"$dir/rec.csv" 2>"$dir/rec.err"
rc=$?
live_hot=$(hot "$dir/live.csv")
rec_hot=$(hot "$dir/rec.csv")
# the workload's memcg in the recording's report: kind,name,node,lock,type,contended,wait_ns,...
rec_row=$(grep -m1 "^lruvec,\"$memcg\"," "$dir/rec.csv")
rec_contended=$(cut -d, -f6 <<<"$rec_row")
rec_wait=$(cut -d, -f7 <<<"$rec_row")
echo "# report -i (exit $rc), $memcg: ${rec_row:-no row} $(head -c 200 "$dir/rec.err")"
tap_check "report -i: the recording shows $memcg contended (${rec_contended:-no} waits, ${rec_wait:-no} ns)" \
	[ "$rc" -eq 0 -a "${rec_contended:-0}" -gt 0 -a "${rec_wait:-0}" -gt 0 ]
# the live hottest must be among the recording's contended ones, and the reverse
live_in_rec=$(grep -c "^lruvec,$(echo "$live_hot" | cut -d, -f1)," "$dir/rec.csv")
rec_in_live=$(grep -c "^lruvec,$(echo "$rec_hot" | cut -d, -f1)," "$dir/live.csv")
live_wait=$(grep "^lruvec,$(echo "$live_hot" | cut -d, -f1),$(echo "$live_hot" | cut -d, -f2)," "$dir/rec.csv" | cut -d, -f7)
if [ -n "$live_hot" ] && [ "$live_in_rec" -ge 1 ] && [ "$rec_in_live" -ge 1 ] && [ "${live_wait:-0}" -gt 0 ]; then
	tap_ok "report -i: live hottest $live_hot is contended in the recording too (wait ${live_wait} ns); recording hottest $rec_hot"
else
	tap_fail "report -i: live hottest '$live_hot', recording hottest '$rec_hot', live's wait in the recording '${live_wait:-}'"
fi
interval=$("$LRS_BIN" report -i "$dir/r.jsonl.zst" -f json | sed -n 's/.*"interval_ns":\([0-9]*\).*/\1/p' | head -n1)
if [ "${interval:-0}" -ge $((3500000000 * ivl)) ] && [ "${interval:-0}" -le $((6500000000 * ivl)) ]; then
	tap_ok "report -i -f json: interval_ns = last t_ns - first t_ns = $interval"
else
	tap_fail "report -i -f json: interval_ns '$interval' (want about $((5 * ivl)) s)"
fi

# folded: root frame first, the lruvec as the leaf, then the wait
"$LRS_BIN" report -i "$dir/r.jsonl.zst" -f folded >"$dir/folded" 2>&1
if grep -qE "^[^ ;]+(;[^;]+)*;/$prefix[^ ;@]+@N[0-9]+ [0-9]+$" "$dir/folded" &&
   ! grep -qvE ' [0-9]+$' "$dir/folded"; then
	tap_ok "report -f folded: $(grep -c "/$prefix" "$dir/folded") stacks end in a $prefix lruvec, every line ends in ns"
else
	tap_fail "report -f folded: no 'frames;/$prefix...@N0 ns' line: $(head -c 300 "$dir/folded")"
fi

# gzip, and a pipe
workload_alive
"$LRS_BIN" record -q -o "$dir/r.jsonl.gz" -d 3 2>"$dir/gz.err"
if gzip -t "$dir/r.jsonl.gz" && "$LRS_BIN" report -i "$dir/r.jsonl.gz" -f csv 2>&1 | grep -q "^lruvec,\"/$prefix"; then
	tap_ok "record .gz: gzip -t passes, report -i reads it"
else
	tap_fail "record .gz: $(cat "$dir/gz.err") $(tail -n 3 "$dir/workload.err")"
fi
if "$LRS_BIN" record -q -o - -d 3 2>"$dir/pipe.err" | "$LRS_BIN" report -i - -f csv >"$dir/pipe.csv" 2>&1 &&
   grep -q "^lruvec,\"/$prefix" "$dir/pipe.csv"; then
	tap_ok "record -o - | report -i -: a pipe works"
else
	tap_fail "record -o - | report -i -: $(head -c 300 "$dir/pipe.csv") $(cat "$dir/pipe.err")"
fi
# a pipe has no size to ask for: the count comes from the writer
"$LRS_BIN" record -o - -d 2 2>"$dir/pipe2.err" | wc -c >"$dir/pipe2.count"
said=$(sed -n 's/.*snapshots, \([0-9]*\) bytes to stdout.*/\1/p' "$dir/pipe2.err")
tap_check "record -o -: the bytes it says it wrote ($said) are the bytes the pipe carried ($(cat "$dir/pipe2.count"))" \
	[ "${said:-x}" = "$(cat "$dir/pipe2.count")" -a "${said:-0}" -gt 0 ]

# the GUI replays a recording headless: the frame is checked from its pixels
"$LRS_BIN" replay "$dir/r.jsonl.zst" --gui --screenshot "$dir/replay.png" >/dev/null 2>"$dir/replay-gui.err"
rc=$?
tap_check "replay --gui --screenshot: exit $rc ($(head -c 300 "$dir/replay-gui.err"))" [ "$rc" -eq 0 ]
# the last frame is the recording's last interval, which may be quiet: check the history
/usr/bin/python3 "$(dirname "$0")/gui_png.py" "replay --gui" "$dir/replay.png" 1280 800 --history

workload_alive
# a recorder killed with SIGKILL leaves a file readable up to its last snapshot
for ext in jsonl jsonl.gz jsonl.zst; do
	"$LRS_BIN" record -q -o "$dir/k.$ext" 2>"$dir/k-record.err" &
	pid=$!
	lrs_track_pid $pid
	# loading BPF on a busy machine takes a while: kill after two snapshots are out
	for _ in $(seq 300); do
		case $ext in
		*.gz) n=$(zcat "$dir/k.$ext" 2>/dev/null | wc -l) ;;
		*.zst) n=$(zstdcat "$dir/k.$ext" 2>/dev/null | wc -l) ;;
		*) n=$(cat "$dir/k.$ext" 2>/dev/null | wc -l) ;;
		esac
		[ "$n" -ge 3 ] && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.2
	done
	kill -KILL $pid
	wait $pid 2>/dev/null
	if "$LRS_BIN" report -i "$dir/k.$ext" -f csv >"$dir/k.csv" 2>"$dir/k.err" &&
	   grep -q "^lruvec,\"/$prefix" "$dir/k.csv"; then
		tap_ok "record killed with SIGKILL: the .$ext file reads ($(grep -c . "$dir/k.err") warning line(s))"
	else
		tap_fail "record killed with SIGKILL: .$ext unreadable: $(cat "$dir/k.err" "$dir/k-record.err")"
	fi
done

# a recorder ended by SIGINT or SIGTERM closes its file: complete, no warning on
# reading it, the summary line true to it, its BPF programs gone
workload_alive
for sig in INT TERM; do
	f=$dir/sig$sig.jsonl.zst
	"$LRS_BIN" record -o "$f" 2>"$dir/sig.err" &
	pid=$!
	lrs_track_pid $pid
	ids=$(lrs_wait_bpf_loaded $pid)
	for _ in $(seq 300); do	# three snapshots out (a header line, then one a second)
		[ "$(zstdcat "$f" 2>/dev/null | wc -l)" -ge 4 ] && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.2
	done
	kill -$sig $pid
	lrs_wait_for $pid 60	# not for ever: a recorder that does not end is one failed check
	rc=$?
	lrs_untrack_pid $pid
	left=$(lrs_progs_left $ids)
	said=$(sed -n "s|^lruscope record: wrote \([0-9]*\) snapshots, \([0-9]*\) bytes to $f\$|\1 \2|p" "$dir/sig.err")
	lines=$(zstdcat "$f" 2>/dev/null | tail -n +2 | wc -l)
	"$LRS_BIN" report -i "$f" -f csv >"$dir/sig.csv" 2>"$dir/sig-report.err"
	report_rc=$?
	tap_check "record ended by SIG$sig: exit 0, one summary line ($(tail -n1 "$dir/sig.err"))" \
		bash -c '[ "$1" = 0 ] && [ -n "$2" ] && [ "$(wc -l <"$3")" = 1 ]' _ "$rc" "$said" "$dir/sig.err"
	tap_check "record ended by SIG$sig: the file is a complete zstd stream" zstd -tq "$f"
	tap_check "record ended by SIG$sig: the summary's $said (snapshots bytes) are the file's ($lines $(stat -c %s "$f")), 3 or more" \
		[ "$said" = "$lines $(stat -c %s "$f")" -a "$lines" -ge 3 ]
	tap_check "record ended by SIG$sig: report -i reads it whole, with no warning ($(head -c 200 "$dir/sig-report.err"))" \
		bash -c '[ "$1" = 0 ] && [ ! -s "$2" ] && grep -q "^lruvec,\"/$3" "$4"' _ "$report_rc" \
		"$dir/sig-report.err" "$prefix" "$dir/sig.csv"
	tap_check "record ended by SIG$sig: none of its BPF programs is left ($left of $(echo $ids))" \
		[ -n "$ids" -a "$left" = 0 ]
done

# replay in the TUI: the memcg's row shows, keys step and quit
hot_memcg=$(echo "$rec_hot" | cut -d, -f1 | tr -d '"')
SOCK=$session		# a tmux server of our own
tmux -L "$SOCK" new-session -d -s replay -x 200 -y 50 \
	"env TERM=xterm-256color $LRS_BIN replay --speed 2 $dir/r.jsonl.zst; echo replay-exit-\$?; sleep 30"
replay_check() { lrs_screen_check "$1" replay "${@:2}"; }
replay_check "replay: the TUI shows ${hot_memcg}'s row" "${hot_memcg##*/}" 5
# held paused on the last snapshot at the end: the position only moves with the keys
snaps=$(($(zstdcat "$dir/r.jsonl.zst" | wc -l) - 1))
replay_check "replay: at the end it holds the last snapshot, paused ($snaps/$snaps)" \
	"replay [0-9.]+x $snaps/$snaps .*PAUSED" 20
tmux -L "$SOCK" send-keys -t replay '<'
replay_check "replay: '<' jumps to the start (header says 2/$snaps)" "replay [0-9.]+x 2/$snaps " 5
tmux -L "$SOCK" send-keys -t replay '>'
replay_check "replay: '>' jumps to the end" "replay [0-9.]+x $snaps/$snaps " 5
tmux -L "$SOCK" send-keys -t replay q
replay_check "replay: q quits with status 0" "replay-exit-0" 5

# usage and bad input
"$LRS_BIN" record >/dev/null 2>&1
tap_check "record: no -o is a usage error (exit 2)" test $? -eq 2
printf 'hello\n' > "$dir/not-a-recording"
"$LRS_BIN" report -i "$dir/not-a-recording" >/dev/null 2>"$dir/bad.err"
rc=$?
if [ $rc -eq 1 ] && grep -q "not-a-recording:1: not an lruscope recording" "$dir/bad.err"; then
	tap_ok "report -i: not a recording: exit 1 naming file and line"
else
	tap_fail "report -i on garbage: exit $rc: $(cat "$dir/bad.err")"
fi
