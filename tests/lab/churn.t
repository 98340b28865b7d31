#!/usr/bin/python3
# time-limit: 900  (a TCG guest: boot, the workload, a dump; a first run also fetches the kernel)
# guest: shared  (counts and names, no timing: its guest may run beside the live guest)
"""Lab, memcg churn: memcgs that live less than lruscope's interval keep their names.

lruscope runs in the 6.1 guest (as in holders.t: 4 vCPUs, no "hypervisor" CPUID bit, so
lruvec waits queued two deep are traced) under `report -f json`, while memcgs are created,
loaded and removed about 0.4 s later, one after the other (tests/lab/lib/guest-churn.sh).
One boot with cgroup v2, one with the v1 memory hierarchy. Asserts that every churned memcg
the report shows, as an lruvec or as a waiter's memcg, has its own path (none shown as
`cgroup-id:N` or with a null memcg), and that some were shown at all; prints how many per
boot. A boot that stalls is booted once more, said as a TAP comment with where its vCPUs were.
LRS_CHURN sets the memcgs per boot (default 24), LRS_CHURN_CG the boots ("v2 v1").
"""

import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "lib"), os.path.join(HERE, "..", "lib")]
import lab  # noqa: E402
import checks as ck  # noqa: E402
import lrs_churn  # noqa: E402

CHURN = int(os.environ.get("LRS_CHURN", "24"))
BOOTS = os.environ.get("LRS_CHURN_CG", "v2 v1").split()
PLAN = 4 * len(BOOTS)	# one_boot's 4 checks in each boot: 8 for the default two


def one_boot(tap, kdir, binary, work, cg):
    os.makedirs(work)
    files = lab.binary_files(binary)

    def boot(d):
        # 30 s alone, about twice that beside the live guest: 300 s is a stalled guest
        g = lab.Guest(kdir, d, append="lrs_cg=%s lrs_churn=%d" % (cg, CHURN),
                      init=os.path.join(lab.HERE, "guest-churn.sh"), extra=files,
                      disk="256M", timeout=300, cpus_per_node=2, cpu="qemu64,-hypervisor")
        try:
            return g.wait_for("LRS-CHURN-DONE"), g
        finally:
            g.stop()
    try:
        # multi-threaded TCG stalls a boot now and then (lab.CONTENDED): once more, said so
        lines, g = lab.boot_twice(work, boot)
    except lab.LabError as e:
        tap.check("%s: the guest ran the churn under lruscope" % cg, [str(e)])
        return
    ids = lrs_churn.churned(l for l in lines if l.startswith("LRS churn "))
    rc = [l.split()[2] for l in lines if l.startswith("LRS report_rc")]
    err = (lab.read_guest_file(g.disk_path(), "/report.err") or b"").decode(errors="replace")
    raw = lab.read_guest_file(g.disk_path(), "/churn.json")
    try:
        snap = json.loads(raw)
    except (TypeError, ValueError):
        tap.check("%s: the report is JSON" % cg, ["rc %s: %s; %r" % (rc, err.strip()[-300:],
                                                                   (raw or b"")[:200])])
        return
    tap.check("%s: %d memcgs churned under report -f json (rc 0)" % (cg, len(ids)),
              [] if rc == ["0"] and len(ids) == CHURN else
              ["rc %s, %d of %d workloads printed their memcg" % (rc, len(ids), CHURN)])
    print("# %s: %s" % (cg, lrs_churn.summary(snap, ids)))
    memcgs = {s[0] for s in lrs_churn.shown(snap, ids)}
    bad = lrs_churn.misnamed(snap, ids)
    tap.check("%s: churned memcgs shown as lruvecs or waiters' memcgs (%d of %d)" % (
        cg, len(memcgs), len(ids)), [] if memcgs else
        ["none: no lruvec wait of a churned memcg was traced"])
    tap.check("%s: every churned memcg shown has its path (%d shown, %d without)" % (
        cg, len(memcgs), len({s[0] for s in bad})),
        ["%s shown as %r, is %s" % (s[2], s[1], ids[s[0]]) for s in bad])
    tap.check("%s: no lruvec or waiter anywhere is named by id alone" % cg,
              lrs_churn.named_by_id(snap))


def main():
    tap = ck.Tap()
    tap.plan(PLAN)
    missing = lab.lruscope_tools_missing()
    if missing:
        tap.skip_n(PLAN, "lab churn", "missing tools: %s" % " ".join(missing))
        return 0
    binary = os.environ.get("LRS_BIN", os.path.join(lab.ROOT, "build", "lruscope"))
    work = tempfile.mkdtemp(prefix="lrs-lab-churn.")
    try:
        kdir = lab.kernel_dir()
        for cg in BOOTS:
            one_boot(tap, kdir, binary, os.path.join(work, cg), cg)
        return 1 if tap.failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    lab.run_test(main)
