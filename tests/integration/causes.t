#!/usr/bin/env bash
# Causes: the kernel path behind each sampled lruvec-lock stack, on a recording
# made up by tests/lib/lrs_recording.py whose stacks are known: /lrs-k-hot
# waits 62% in reclaim (shrink_active_list), 30% in an LRU add drain
# (folio_batch_move_lru < lru_add_drain_cpu) and 8% on a path no table entry
# names; /lrs-k-page waits only in activation, page spelling (activate_page);
# its holders held the lock 75% in reclaim and 25% unknown. Checked through
# the real program: report text, JSON and CSV, the TUI's detail pane in tmux
# and the GUI's side panel in a --screenshot PNG. No root needed: it reads a
# made-up recording; live causes are the lab's (tests/lab/causes.t). See
# tests/PROTOCOL.md.
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 13
lrs_tmux_test causes

REC=$WORK/causes.jsonl
PYTHONPATH=$LRS_ROOT/tests/lib tap_python "$T: the recording with known stacks" /usr/bin/python3 - "$REC" <<'PY'
import sys
import lrs_recording
LOCK = ("_raw_spin_lock_irq+0x2a", "folio_lruvec_lock_irq+0x3d")
RECLAIM = LOCK + ("shrink_active_list+0x9c", "shrink_lruvec+0x3f0", "shrink_node+0x2b1")
DRAIN = ("_raw_spin_lock_irqsave+0x30", "folio_lruvec_lock_irqsave+0x4f", "folio_batch_move_lru+0x7c",
         "lru_add_drain_cpu+0x9e", "lru_add_drain+0x21")
NOWHERE = LOCK + ("lrs_made_up_path+0x10", "do_syscall_64+0x5b")
ACTIVATE = ("_raw_spin_lock_irq+0x2a", "lock_page_lruvec_irq+0x3d", "pagevec_lru_move_fn+0x1b0",
            "activate_page+0x10d", "generic_file_buffered_read+0x3c1")
STACKS = {"/lrs-k-hot": [(RECLAIM, 1.86e6), (DRAIN, 0.9e6), (NOWHERE, 0.24e6)],
          "/lrs-k-page": [(ACTIVATE, 1e6)]}
ids = {p: v[0] for p, v in lrs_recording._memcg_tree(list(STACKS)).items()}
def holders(i):
    row = lambda pid, comm, memcg, ns, stack: {
        "lruvec": "/lrs-k-hot", "lruvec_memcg_id": ids["/lrs-k-hot"], "node": 0, "pid": pid, "comm": comm,
        "memcg": memcg, "memcg_id": ids.get(memcg, 0), "holds": 10 * i, "hold_ns": ns * i, "imposed_ns": ns * i,
        "waiters": 10 * i, "probable_ns": 0, "stack": stack}
    # stack 1 is RECLAIM: ids go by first use
    return {"mode": "estimated", "rows": [row(4242, "dd", "/lrs-k-hot", 300000, 1), row(0, "", None, 100000, -1)],
            "matrix": [], "counters": {"unknown": i, "probable": 0, "running": 0, "drop_full": 0}}
lrs_recording.write(sys.argv[1], list(STACKS), 4, lambda i, m, n: {"/lrs-k-hot": 3e6, "/lrs-k-page": 1e6}[m],
                    stacks=lambda i, m, n: STACKS.get(m, []), holders=holders)
PY

# ---- report: text, JSON, CSV ---------------------------------------------------------
"$LRS_BIN" report -i "$REC" >"$WORK/text" 2>&1
# under FILE MEMCG: the line under MEMCG@N0's row of a text report
under() { grep -A1 -E "spinlock +$2@N0\$" "$1" | sed -n 2p | sed 's/^ *//'; }
tap_check "$T: report text: /lrs-k-hot's causes under its row, largest first, unclassified shown ($(under "$WORK/text" /lrs-k-hot))" \
	test "$(under "$WORK/text" /lrs-k-hot)" = 'causes: 62% reclaim, 30% lru-add drain, 8% unclassified'
tap_check "$T: report text: the page spelling (activate_page) is activation ($(under "$WORK/text" /lrs-k-page))" \
	test "$(under "$WORK/text" /lrs-k-page)" = 'causes: 100% activation'
"$LRS_BIN" report -i "$REC" --holders >"$WORK/holders" 2>&1
tap_check "$T: report --holders: what the holders held the lock for (held for: 75% reclaim, 25% unclassified)" \
	grep -qx ' *held for: 75% reclaim, 25% unclassified' "$WORK/holders"

"$LRS_BIN" report -i "$REC" -f json --holders >"$WORK/json" 2>"$WORK/json.err"
# json_causes KEY MEMCG: KEY's causes of MEMCG@N0 as "cause:wait_ns:share ..."
json_causes() {
	/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
lv = next(l for l in d["lruvecs"] if l["memcg"] == sys.argv[3] and l["node"] == 0)
print(" ".join("%s:%d:%.2f" % (c["cause"], c["wait_ns"], c["share"]) for c in lv.get(sys.argv[2], [])))
' "$WORK/json" "$@"
}
tap_check "$T: report JSON: causes of /lrs-k-hot ($(json_causes causes /lrs-k-hot))" \
	test "$(json_causes causes /lrs-k-hot)" = "reclaim:5580000:0.62 lru_add_drain:2700000:0.30 unclassified:720000:0.08"
tap_check "$T: report JSON: holder_causes of /lrs-k-hot ($(json_causes holder_causes /lrs-k-hot))" \
	test "$(json_causes holder_causes /lrs-k-hot)" = "reclaim:900000:0.75 unclassified:300000:0.25"
tap_check "$T: report JSON: an lruvec with no sampled stack has an empty causes array" \
	test "$(json_causes causes /)" = ""

"$LRS_BIN" report -i "$REC" -f csv >"$WORK/csv" 2>&1
tap_check "$T: report CSV: one lruvec-cause row per cause after the lruvec's row" \
	test "$(grep -A3 '^lruvec,"/lrs-k-hot"' "$WORK/csv" | cut -d, -f1,2,5,6,7 | paste -sd' ')" = \
	'lruvec,"/lrs-k-hot",spinlock,4500,9000000 lruvec-cause,"/lrs-k-hot",reclaim,2790,5580000 lruvec-cause,"/lrs-k-hot",lru_add_drain,1350,2700000 lruvec-cause,"/lrs-k-hot",unclassified,360,720000'

# ---- the TUI's detail pane -----------------------------------------------------------
tm new-session -d -s tui -x 160 -y 50 \
	"env -i PATH=$PATH HOME=/ TERM=xterm-256color $LRS_BIN replay $REC; echo lrs-exit=\$?; sleep 60"
lrs_screen_check "$T: TUI: the hottest lruvec, /lrs-k-hot@N0, is selected" \
	tui ' /lrs-k-hot@N0  lock 0x' 10
lrs_screen_check "$T: TUI: causes: 62% reclaim, 30% lru-add drain, 8% unclassified" \
	tui 'causes: 62% reclaim, 30% lru-add drain, 8% unclassified' 10
lrs_screen_check "$T: TUI: held for: 75% reclaim, 25% unclassified" \
	tui 'held for: 75% reclaim, 25% unclassified' 10
# on_screen TEXT: the pane captured last shows TEXT
on_screen() { grep -qF -- "$1" <<<"$LRS_SCREEN"; }
tm send-keys -t tui Down
lrs_screen_check "$T: TUI: Down to /lrs-k-page@N0 (no holder seen): causes: 100% activation" \
	tui 'causes: 100% activation' 10 on_screen ' /lrs-k-page@N0  lock 0x'


# ---- the GUI's side panel ------------------------------------------------------------
# gui_bands.py reads the side panel's lines by colour: the causes section is
# its second title (accent), then one line a cause, unclassified faint.
"$LRS_BIN" replay "$REC" --gui --screenshot "$WORK/gui.png" >"$WORK/gui.out" 2>&1
rc=$?
tap_check "$T: GUI: --screenshot of the recording (exit $rc: $(head -c 200 "$WORK/gui.out"))" test "$rc" = 0
# the lines between the side panel's second and third titles
causes_lines() {
	/usr/bin/python3 "$LRS_ROOT/tests/integration/gui_bands.py" "$1" |
		awk '$1 == "accent" { n++; next } n == 2 { print }' | paste -sd' '
}
tap_check "$T: GUI: side panel: reclaim and lru-add drain as text, then unclassified faint ($(causes_lines "$WORK/gui.png"))" \
	test "$(causes_lines "$WORK/gui.png")" = "text text faint"
