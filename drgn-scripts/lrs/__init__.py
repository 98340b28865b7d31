"""lruscope's drgn library: what the scripts in the directory above share.

Runs on drgn 0.0.22 (Debian 12) and newer. Modules by job:

  program   open a live kernel (/proc/kcore) or a vmcore + vmlinux, with clear errors
  kernel    types, nodes and the struct page array
  memcg     enumerate memcgs: paths, cgroup ids, css ids
  folio     read folios (pages before 5.16) by raw offsets
  lru       lruvecs, LRU lists, list walks
  mglru     the multi-gen LRU's generation lists (lists or folios) and counters
  check     the invariant "a folio on memcg M's lruvec for node N belongs to M and N"
  locks     lru_lock words and the tasks whose stacks reference a lruvec
  owner     pages per memcg, every generation of page -> memcg (pagecgroup: the old ones)
  snapshot  all of the above as one snapshot (walk.py, `lruscope walk`)
  output    JSON on stdout, diagnostics on stderr; tables prints the text forms

Nothing here prints to stdout but output.emit_json() and the scripts. Functions that read
kernel memory take a `warnings` list: on a live kernel a structure can change under the
walk, so a FaultError is caught per item, recorded there, and the walk goes on.
"""

SCHEMA = 1  # the snapshot schema `lruscope walk` imports


class LrsError(Exception):
    """A fault that stops a script: printed as one clear line, exit 1."""
