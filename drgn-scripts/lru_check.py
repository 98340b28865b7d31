#!/usr/bin/python3
"""Check the LRU invariant the per-memcg lru_lock patchset had to keep.

"A page's memcg is stable while it is on an LRU": every folio on memcg M's lruvec for node N
has folio_memcg() == M, lives on node N, has PG_lru set, and sits on the list its flags say
(folio_lru_list()). Prints each violation with the folio, its flags and both memcgs.
Exit status: 0 when none are found, 1 when any are (or on a fatal error).

  lru_check.py [-c VMCORE -s VMLINUX] [--json] [--max-folios N] [--memcg PATH]
"""

import sys

from lrs import check, memcg, output, program, tables


def parse_args(argv):
    p = program.base_parser(__doc__.splitlines()[0])
    program.add_walk_args(p)
    p.add_argument("--limit", type=int, default=1000,
                   help="report at most N violations (default %(default)s)")
    return p.parse_args(argv)


def main(prog, argv):
    args = parse_args(argv)
    prog = program.get_program(prog, args)
    memcg.require_memcg(prog)
    res = check.check(prog, [], args.max_folios, args.memcg, args.limit)
    output.print_result(check.public(res), args.json, tables.check_table)
    return 1 if res["violations"] else 0


if __name__ == "__main__":
    sys.exit(output.run(main, globals().get("prog")))
