#!/usr/bin/python3
"""Write a synthetic lruscope recording (docs/recording-format.md) to stdout.

For tests that need a recording without the live collector: full snapshot
lines only, MEMCGS memcgs PREFIXK (default /lrs-test-synth-K) on one node whose counters grow
every snapshot, INTERVAL seconds apart. --slow SECS writes the header at once
and each snapshot line SECS after the one before (a recorder through a pipe);
--hold N FILE stops after N snapshot lines until FILE exists.
"""
import os
import argparse
import json
import sys
import time


def snapshot(i, interval_ns, memcgs, prefix):
    lruvecs = [{"memcg": "/", "memcg_id": 1, "parent_id": 0, "depth": 0, "node": 0,
                "lock": "0xffff888100001000", "contended": 0, "wait_ns": 0}]
    for k in range(memcgs):
        # memcg k waits (k + 1) ms a second: a different colour per row
        lruvecs.append({
            "memcg": "%s%d" % (prefix, k), "memcg_id": 100 + k, "parent_id": 1, "depth": 1,
            "node": 0, "lock": "0x%x" % (0xffff888100002000 + 0x1000 * k),
            "contended": i * 100 * (k + 1), "wait_ns": i * interval_ns // 1000 * (k + 1),
            "wait_max_ns": 50000, "hist": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, i * 100 * (k + 1)],
            "lru_pages": {"inactive_anon": 10, "active_anon": 0, "inactive_file": 1000 * (k + 1),
                          "active_file": 500, "unevictable": 0}})
    return {"schema": 1, "t_ns": 1000000000 + i * interval_ns, "interval_ns": interval_ns,
            "kernel": "6.18.0-synth", "nodes": [0], "lruvecs": lruvecs, "other_locks": [],
            "stacks": {}, "drops": {"task": 0, "stack": 0, "stats_full": 0, "negative_time": 0}}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--snapshots", type=int, default=10)
    ap.add_argument("--interval", type=float, default=1.0, help="seconds between snapshots")
    ap.add_argument("--memcgs", type=int, default=4)
    ap.add_argument("--prefix", default="/lrs-test-synth-",
                    help="the memcgs' path before their number")
    ap.add_argument("--slow", type=float, default=0, help="seconds between written lines")
    ap.add_argument("--hold", nargs=2, metavar=("N", "FILE"), default=None,
                    help="after N snapshot lines, wait until FILE exists")
    args = ap.parse_args()
    interval_ns = int(args.interval * 1e9)
    header = {"lruscope_recording": 1, "schema": 1, "kernel": "6.18.0-synth", "host": "test",
              "nodes": [0], "interval_ns": interval_ns, "started_unix_ns": 0}
    out = sys.stdout
    out.write(json.dumps(header, separators=(",", ":")) + "\n")
    out.flush()
    for i in range(args.snapshots):
        if args.slow and i:
            time.sleep(args.slow)
        while args.hold and i == int(args.hold[0]) and not os.path.exists(args.hold[1]):
            time.sleep(0.1)
        snap = snapshot(i, interval_ns, args.memcgs, args.prefix)
        out.write(json.dumps(snap, separators=(",", ":")) + "\n")
        out.flush()


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.exit(0)
