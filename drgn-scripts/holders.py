#!/usr/bin/python3
"""Who holds the lruvec lock this box is stuck on (vmcore).

For each lruvec whose lru_lock is found held or with waiters, the CPUs and tasks whose
kernel stacks reference that lruvec (a word pointing into the struct lruvec or its
mem_cgroup_per_node), with the frame the reference sits in and the whole stack. The
queue tail CPU of the lock word is a waiter. --all looks for references to every lruvec.

  holders.py [-c VMCORE -s VMLINUX] [--json] [--all] [--memcg PATH]
"""

import sys

from lrs import locks, lru, memcg, output, program, tables


def parse_args(argv):
    p = program.base_parser(__doc__.splitlines()[0])
    p.add_argument("--all", action="store_true",
                   help="look for references to every lruvec, held or not")
    p.add_argument("--memcg", metavar="PATH", help="only this memcg (and its descendants)")
    return p.parse_args(argv)


def main(prog, argv):
    args = parse_args(argv)
    prog = program.get_program(prog, args)
    memcg.require_memcg(prog)
    warnings = []
    _, lvs, _ = lru.collect(prog, warnings, 0, args.memcg, walk=False)
    res = locks.holders_report(prog, lvs, args.all, warnings)
    output.print_result(res, args.json, tables.holders_table)
    return 0


if __name__ == "__main__":
    sys.exit(output.run(main, globals().get("prog")))
