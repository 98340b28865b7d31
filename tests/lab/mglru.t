#!/usr/bin/python3
# time-limit: 900  (a TCG guest: boot, the workload, a dump; a first run also fetches the kernel)
# guest: shared  (counts and names, no timing: its guest may run beside the live guest)
"""Lab, the multi-gen LRU on: the cgroup v2 guest of vmcore-v2.t (which runs with it off)
turns /sys/kernel/mm/lru_gen/enabled on before its workload, so every folio it adds lands on
lrugen's generation lists. On the dump, lruvecs.py, lru_check.py and `lruscope walk --json`
must find the multi-gen LRU on in every lruvec, walk its lists to exactly the kernel's
counters, and give the LRU pages per memcg and node the guest printed (memory.numa_stat)."""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import lab  # noqa: E402
import checks as ck  # noqa: E402
import labtest  # noqa: E402

BIN = os.environ.get("LRS_BIN", os.path.join(lab.ROOT, "build", "lruscope"))
PLAN = 6	# run()'s checks


def mglru_on(snap, guest):
    """Every lruvec of our memcgs has the multi-gen LRU on, and its lists hold pages."""
    probs = []
    for e in snap["lruvecs"]:
        if e["memcg"] in guest["cgroups"] and not e["mglru"]:
            probs.append("%s@N%d: mglru false" % (e["memcg"], e["node"]))
    return probs


def run(tap, guest, core, vmlinux, work):
    if guest.get("mglru") == "absent":
        tap.skip_n(PLAN, "lab mglru", "the guest kernel has no /sys/kernel/mm/lru_gen "
                   "(CONFIG_LRU_GEN is off)")
        return
    state = guest.get("mglru", "")
    probs = list(guest["warn"])
    if len(guest["cgroups"]) != 5:
        probs.append("guest printed %d cgroups" % len(guest["cgroups"]))
    if not state.startswith("0x") or int(state, 16) == 0:
        probs.append("lru_gen/enabled reads %r after echo y" % state)
    tap.check("guest turned the multi-gen LRU on (%s) and ran the workload" % state, probs)

    snap = ck.lruvecs_of(tap, core, vmlinux)
    if snap is None:
        return
    for e in snap["lruvecs"]:
        if e["memcg"] in guest["cgroups"]:
            lab.log("%s@N%d counted %s" % (e["memcg"], e["node"], e["lru_pages"]))
    tap.check("lruvecs.py: the multi-gen LRU is on in every lruvec",
              snap["warnings"] + mglru_on(snap, guest))
    tap.check("walked generation lists equal the kernel's counters (lrugen.nr_pages)",
              ck.check_walk_vs_counters(snap, guest))
    tap.check("LRU pages per memcg and node, counted and walked, equal memory.numa_stat",
              ck.check_counters_vs_guest(snap, guest))

    rc, res, err, _ = ck.run_script("lru_check.py", core, vmlinux)
    probs = [] if rc == 0 and res else ["exit %d: %s" % (rc, err.strip()[-300:])]
    if res:
        probs += ["violation %s" % v for v in res["violations"][:5]]
        if res["folios_checked"] != snap["stats"]["folios_walked"]:
            probs.append("checked %d folios, lruvecs.py walked %d" % (
                res["folios_checked"], snap["stats"]["folios_walked"]))
    tap.check("lru_check.py: no violations on the generation lists", probs)

    r = subprocess.run([BIN, "walk", "-c", core, "-s", vmlinux, "--json"],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       env=dict(os.environ, LRS_DRGN_SCRIPTS=ck.SCRIPTS))
    probs = [] if r.returncode == 0 else ["exit %d: %s" % (r.returncode,
                                                           r.stderr.strip()[-300:])]
    try:
        out = json.loads(r.stdout)
        probs += mglru_on(out, guest) + ck.check_counters_vs_guest(out, guest)
    except ValueError:
        probs.append("stdout is not one JSON object: %r" % r.stdout[:200])
    tap.check("lruscope walk --json: LRU pages per memcg and node equal memory.numa_stat",
              probs)


if __name__ == "__main__":
    labtest.main_vmcore("mglru", "lrs_cg=v2 lrs_mglru=1", run, plan=PLAN)
