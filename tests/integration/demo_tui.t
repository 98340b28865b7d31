#!/usr/bin/env bash
# 'lruscope demo' as a person runs it, without --batch, in tmux: the live
# heatmap of each layout's run (a banner naming the run, the demo's memcgs
# with a rate), then, by itself, the terminal back and the summary printed.
# Small sizes and one short run per layout. Needs root. See tests/PROTOCOL.md.
# live: traced
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 8
need_root "demo tui"
lrs_tmux_test demo_tui

# A demo of someone else (make demo) holds the lock: our checks would race it.
read -r _ cgroot < <(lrs_memcg_root) || { tap_fail "demo tui: no memory cgroup hierarchy"; exit 1; }
if ls -d "$cgroot"/lrs-demo-* >/dev/null 2>&1; then
	tap_fail "demo tui: lrs-demo-* cgroups exist before the test: another demo runs (or a killed one left them); run the test alone"
	exit 1
fi

# 8 readers in 4 containers: the shared memcg contends every second, an
# isolated container's two readers while both run. 6 s a layout, stretched in the lab
# guest: there, under the readers, one capture can take seconds, and a 6 s run was once
# over before a screen of it was captured
tm new-session -d -s demo -x 160 -y 50 \
	"env -i PATH=$PATH HOME=/root TERM=xterm-256color LC_ALL=C $LRS_BIN demo --readers 8 --size 256m --limit 64m --duration $(lrs_secs 6) --runs 1 -i 1 2>$WORK/err; echo demo-exit-\$?; sleep 60"
# the screens, every 0.25 s, until the demo ended (loading, 2 runs of 6 s, the summary). A
# deadline, not a count of captures: on a busy machine (the lab guest beside a build) each
# capture is slower, and loading the BPF takes longer, than on a quiet one.
n=0 start=$SECONDS
while [ $((SECONDS - start)) -lt 480 ]; do
	tm capture-pane -p -t demo >"$WORK/screen.$n" 2>/dev/null
	grep -q 'demo-exit-' "$WORK/screen.$n" && break
	n=$((n + 1))
	sleep 0.25
done
ended=$((SECONDS - start))
tm capture-pane -p -S -200 -t demo >"$WORK/end.txt"

# rate_rows LAYOUT: the demo memcgs whose heatmap row (">/path" selected, " /path"
# not) has a rate on the screens of LAYOUT's run (its banner at the top), one per line
rate_rows() {
	grep -l "demo [0-9]/2  $1 layout: " "$WORK"/screen.* 2>/dev/null | xargs -r cat |
		grep -oE '^[ >]/lrs-demo-[^ @]+ +.*[0-9.]+[mun]?s/s' | sed 's|^[ >]/||' | awk '{print $1}' | sort -u
}
banner() { grep -h -m1 -o "demo [0-9]/2  $1 layout: .*" "$WORK"/screen.* 2>/dev/null | head -1; }
for layout in shared isolated; do
	b=$(banner $layout)
	tap_check "demo tui: the $layout run's banner names it (${b:-none seen})" [ -n "$b" ]
	rows=$(rate_rows $layout)
	echo "# $layout: demo memcgs with a rate: $(echo $rows)"
	if [ $layout = shared ]; then
		memcg=$(sed -n 's|^demo [0-9]/2  shared layout: /\([^ ]*\) .*|\1|p' <<<"$b")
		tap_check "demo tui: the shared run's heatmap shows its memcg ${memcg:-?} with a rate" \
			grep -qxF -- "${memcg:-none}" <<<"$rows"
	else
		# its 4 containers' rows. With 2 readers each, a container's lock has one
		# waiter at a time: the first waiter, which the contention tracepoint never
		# sees under native qspinlock (the lab guest), so a rate is not asked for.
		shown=$(grep -l "demo [0-9]/2  isolated layout: " "$WORK"/screen.* 2>/dev/null | xargs -r cat |
			grep -oE '^[ >]/lrs-demo-c[0-9]+ ' | sed 's|^[ >]/||' | sort -u)
		tap_check "demo tui: the isolated run's heatmap shows its 4 memcgs ($(echo $shown); with a rate: $(echo $rows))" \
			[ "$(grep -c . <<<"$shown")" -eq 4 ]
	fi
done
if [ -z "$(banner shared)" ] || [ -z "$(banner isolated)" ]; then
	echo "# the last screen:"; sed 's/^/#   /' "$WORK/screen.$n"
	echo "# the demo's messages:"; sed 's/^/#   /' "$WORK/err"
fi

tap_check "demo tui: it ends by itself with status 0 (after ${ended} s, $n screens: $(tail -n 1 "$WORK/err" | head -c 200))" \
	grep -q 'demo-exit-0' "$WORK/end.txt"
tap_check "demo tui: the terminal is back (no alternate screen)" \
	[ "$(tm display -p -t demo '#{alternate_on}')" = 0 ]
# the summary: its heading, both layouts' columns, the lock wait ratio, a verdict
summary_ok() {
	grep -Eq '^lruscope demo: readtwice, 8 readers in 4 containers' "$1" &&
		grep -Eq '^ +shared \(1 run\) +isolated \(1 run\)' "$1" &&
		grep -Eq '^lruvec-lock wait: shared/isolated ' "$1" &&
		grep -Eq '^throughput isolated vs shared: ' "$1"
}
tap_check "demo tui: the summary follows on the terminal" summary_ok "$WORK/end.txt"
summary_ok "$WORK/end.txt" || sed 's/^/#   /' "$WORK/end.txt"
left=$(ls -d "$cgroot"/lrs-demo-* 2>/dev/null | wc -l)
tap_check "demo tui: no lrs-demo-* cgroups left ($left)" [ "$left" -eq 0 ]
