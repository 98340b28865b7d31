#!/usr/bin/python3
"""Who owns physical memory: pages per memcg for each range of PFNs.

For each bucket of --bucket pages of each node, the number of pages charged to each memcg,
as JSON the UI draws as a memory map coloured by memcg. Ownership is read the way the
kernel at hand stores it, and the output says which way it used:

  memcg_data        folio->memcg_data, flag bits in the low bits          5.11 and later
  mem_cgroup        page->mem_cgroup                                      3.19 to 5.10
  page_cgroup_ptr   page->page_cgroup                                     2.6.25 to 2.6.26
  page_cgroup       page_cgroup arrays via lookup_page_cgroup(), per
                    mem_section (SPARSEMEM) or per node (FLATMEM)         2.6.27 to 3.18
  page_cgroup_radix the radix tree of page_cgroup (2.6.25-rc5-mm1 patch)

  page_owner.py [-c VMCORE -s VMLINUX] [--json] [--bucket PAGES]
"""

import sys

from lrs import LrsError, output, owner, program, tables


def parse_args(argv):
    p = program.base_parser(__doc__.splitlines()[0])
    p.add_argument("--bucket", type=int, default=512,
                   help="pages per PFN range (default %(default)s)")
    p.add_argument("--section-size-bits", type=int, default=None,
                   help="SECTION_SIZE_BITS for page_cgroup per mem_section (default: from "
                        "the kernel, else 27 as x86_64)")
    p.add_argument("--no-buckets", action="store_true", help="totals only")
    return p.parse_args(argv)


def main(prog, argv):
    args = parse_args(argv)
    if args.bucket <= 0:
        raise LrsError("--bucket must be positive")
    prog = program.get_program(prog, args)
    res = owner.page_owner(prog, [], args.bucket, not args.no_buckets, args.section_size_bits)
    output.print_result(res, args.json, tables.owner_table)
    return 0


if __name__ == "__main__":
    sys.exit(output.run(main, globals().get("prog")))
