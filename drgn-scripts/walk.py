#!/usr/bin/python3
"""lruscope walk: run the drgn scripts and print one table or one JSON object.

The JSON object is a snapshot (docs/design.md, schema 1: schema, t_ns, kernel, nodes, lruvecs with
memcg, memcg_id, node, lock, lru_pages, plus lock_state and walked/mismatch) with the
results of lru_check (invariant violations) and holders (held lruvec locks) beside it.
`lruscope walk` execs this and imports the lruvecs into its heatmap.

  walk.py [-c VMCORE -s VMLINUX] [--json] [--max-folios N] [--page-owner]
"""

import sys

from lrs import memcg, output, program, snapshot, tables


def parse_args(argv):
    p = program.base_parser(__doc__.splitlines()[0])
    program.add_walk_args(p)
    p.add_argument("--no-walk", action="store_true",
                   help="only memcgs, lock words and counters (fast on a live box)")
    p.add_argument("--page-owner", action="store_true",
                   help="add page ownership per memcg (page_owner.py, totals only)")
    return p.parse_args(argv)


def main(prog, argv):
    args = parse_args(argv)
    prog = program.get_program(prog, args)
    memcg.require_memcg(prog)
    snap = snapshot.walk(prog, [], args.max_folios, args.memcg, not args.no_walk,
                         args.page_owner)
    output.print_result(snap, args.json, tables.walk_table)
    return 0


if __name__ == "__main__":
    sys.exit(output.run(main, globals().get("prog")))
