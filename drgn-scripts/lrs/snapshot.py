"""One snapshot of everything (walk.py, `lruscope walk`): the lruvecs with lru_check's
violations found in the same walk, the holders of held locks, page ownership on request."""

import time

from lrs import LrsError
from lrs.check import check
from lrs.locks import holders
from lrs.lru import collect, snapshot_of
from lrs.owner import page_owner

VIOLATIONS_LISTED = 100


def walk(prog, warnings, max_folios=1 << 20, memcg=None, walk_lists=True, owners=False):
    """The snapshot; walk_lists=False reads memcgs, lock words and counters only."""
    t0 = time.monotonic()
    if walk_lists:
        # one walk serves both: lru_check's visitor runs inside the lruvecs' walk
        chk = check(prog, warnings, max_folios, memcg, VIOLATIONS_LISTED)
        snap = snapshot_of(prog, chk["_nodes"], chk["_lruvecs"], chk["_stats"], warnings)
        snap["violations"] = chk["violations"]
        snap["violations_total"] = len(chk["violations"]) + chk["violations_not_listed"]
    else:
        snap = snapshot_of(prog, *collect(prog, warnings, max_folios, memcg, False),
                           warnings=warnings)
    snap["holders"] = holders(prog, snap["lruvecs"], False, warnings)
    if owners:
        try:
            po = page_owner(prog, [], buckets=False)
            snap["page_owner"] = {"method": po["method"], "memcgs": po["memcgs"]}
            warnings.extend(po["warnings"])
        except LrsError as e:
            warnings.append("page_owner: %s" % e)
    snap["stats"]["total_s"] = round(time.monotonic() - t0, 6)
    return snap
