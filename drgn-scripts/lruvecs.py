#!/usr/bin/python3
"""Every memcg x node lruvec: owner, lock word, LRU lengths walked and counted.

For each memcg (cgroup path and id) and NUMA node: the lruvec's address, its lru_lock word
decoded (locked, pending, queue tail CPU), the length of each LRU list found by walking it
(weighted by folio size in pages, bounded by --max-folios) next to the kernel's own counters
(mem_cgroup_per_node.lru_zone_size), and every list where the two differ.

  lruvecs.py [-c VMCORE -s VMLINUX] [--json] [--max-folios N] [--no-walk]
  drgn [-c VMCORE -s VMLINUX] lruvecs.py [...]
"""

import sys

from lrs import lru, memcg, output, program, tables


def parse_args(argv):
    p = program.base_parser(__doc__.splitlines()[0])
    program.add_walk_args(p)
    p.add_argument("--no-walk", action="store_true",
                   help="only enumerate memcgs, lock words and counters")
    return p.parse_args(argv)


def main(prog, argv):
    args = parse_args(argv)
    prog = program.get_program(prog, args)
    memcg.require_memcg(prog)
    warnings = []
    nodes, lvs, stats = lru.collect(prog, warnings, args.max_folios, args.memcg,
                                    not args.no_walk)
    snap = lru.snapshot_of(prog, nodes, lvs, stats, warnings)
    output.print_result(snap, args.json, tables.lruvecs_table)
    return 0


if __name__ == "__main__":
    sys.exit(output.run(main, globals().get("prog")))
