#!/usr/bin/python3
# time-limit: 900  (a TCG guest: boot, the workload, a dump; a first run also fetches the kernel)
# guest: shared  (counts and names, no timing: its guest may run beside the live guest)
"""Lab, cgroup v2: boot Debian's cloud kernel under QEMU with two NUMA nodes, build memcgs
(flat and nested), read files and fill tmpfs pinned to each node, dump the guest's memory
and run every drgn script against the vmcore. Assertions compare with what the guest
printed (memory.numa_stat, memory.stat, cgroup inode numbers) before the dump."""

import os
import shutil
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import checks as ck  # noqa: E402
import labtest  # noqa: E402


def run(tap, guest, core, vmlinux, work):
    tap.check("guest ran the workload", guest["warn"] + (
        [] if len(guest["cgroups"]) == 5 else ["guest printed %d cgroups" %
                                               len(guest["cgroups"])]))

    snap = ck.lruvecs_of(tap, core, vmlinux)
    if snap is None:
        return
    tap.check("lruvecs.py runs", snap["warnings"])
    tap.check("memcg ids are the guest's cgroup inode numbers", ck.check_ids(snap, guest))
    tap.check("walked lists equal lru_zone_size", ck.check_walk_vs_counters(snap, guest))
    tap.check("LRU sizes per memcg and node equal memory.numa_stat",
              ck.check_counters_vs_guest(snap, guest))
    busy = [e["memcg"] + "@N%d" % e["node"] for e in snap["lruvecs"] if e["locked"]]
    tap.check("no lruvec lock held in a quiescent guest", busy)

    rc, res, err, _ = ck.run_script("lru_check.py", core, vmlinux)
    probs = [] if rc == 0 and res else ["exit %d: %s" % (rc, err.strip()[-300:])]
    if res:
        probs += ["violation %s" % v for v in res["violations"]]
        if res["folios_checked"] != snap["stats"]["folios_walked"]:
            probs.append("checked %d folios, lruvecs.py walked %d" % (
                res["folios_checked"], snap["stats"]["folios_walked"]))
    tap.check("lru_check.py: no violations", probs)

    rc, res, err, _ = ck.run_script("page_owner.py", core, vmlinux)
    tap.check("page_owner.py: pages per memcg and node equal anon+file",
              ck.check_page_owner(res, guest) if rc == 0 and res else
              ["exit %d: %s" % (rc, err.strip()[-300:])])

    rc, out, err, _ = ck.run_script("walk.py", core, vmlinux)
    probs = [] if rc == 0 and out else ["exit %d: %s" % (rc, err.strip()[-300:])]
    if out:
        a = {(e["memcg"], e["node"]): e["lru_pages"] for e in out["lruvecs"]}
        b = {(e["memcg"], e["node"]): e["lru_pages"] for e in snap["lruvecs"]}
        if a != b:
            probs.append("walk.py lruvecs differ from lruvecs.py")
        for key in ("schema", "kernel", "nodes", "lruvecs", "warnings"):
            if key not in out:
                probs.append("walk.py JSON has no %s" % key)
    tap.check("walk.py JSON carries the lruvecs", probs)

    probs = []
    for script in ("lruvecs.py", "lru_check.py", "page_owner.py", "walk.py",
                   "holders.py"):
        rc, text, err, _ = ck.run_script(script, core, vmlinux, want_json=False)
        if rc != 0 or not text.strip():
            probs.append("%s table: exit %d %s" % (script, rc, err.strip()[-200:]))
    tap.check("every script prints a table", probs)

    # the same scripts under the drgn CLI: it puts the script's folder on sys.path
    drgn_cli = shutil.which("drgn")
    if drgn_cli is None:
        tap.skip("lruvecs.py under the drgn CLI", "no drgn command")
    else:
        rc, out, err = ck.run_drgn_cli(drgn_cli, "lruvecs.py", core, vmlinux, "--no-walk")
        probs = ["exit %d: %s" % (rc, err.strip()[-300:])] if rc != 0 or out is None else []
        if out is not None and len(out["lruvecs"]) != len(snap["lruvecs"]):
            probs.append("%d lruvecs, python3 found %d" % (len(out["lruvecs"]),
                                                            len(snap["lruvecs"])))
        tap.check("lruvecs.py under the drgn CLI (drgn -c VMCORE -s VMLINUX script)", probs)

    # ---- faults: clear message, exit 1 --------------------------------------------
    probs = []
    cases = [("missing vmcore", os.path.join(work, "nope"), vmlinux, "no such file"),
             ("missing vmlinux", core, os.path.join(work, "nope"), "no such file"),
             ("a module instead of vmlinux", core,
              os.path.join(os.path.dirname(vmlinux), "qemu_fw_cfg.ko"), "debug info")]
    for what, c, v, msg in cases:
        rc, _, err, _ = ck.run_script("lruvecs.py", c, v)
        if rc != 1 or msg not in err or "Traceback" in err:
            probs.append("%s: exit %d, %r" % (what, rc, err.strip()[-200:]))
    tap.check("missing or wrong inputs: clear message, exit 1", probs)

    # ---- a copy with one folio's memcg_data pointing elsewhere ----------------------
    bad = ck.copy_core(core, os.path.join(work, "vmcore.bad"))
    prog = ck.open_prog(core, vmlinux)
    folio, raw, off, memcgs = ck.pick_folio(prog, "/lrs-b", 1, "inactive_file")
    held = ck.pick_holder(prog, "/lrs-a", 0, pid=1)
    del prog
    new = struct.pack("<Q", memcgs["/lrs-a"])
    ck.patch_bytes(bad, raw, new, off)
    rc, res, err, _ = ck.run_script("lru_check.py", bad, vmlinux)
    probs = []
    if rc != 1:
        probs.append("exit %d (want 1)" % rc)
    vs = (res or {}).get("violations", [])
    if [v["folio"] for v in vs] != ["0x%x" % folio]:
        probs.append("reported %s, want exactly 0x%x" % ([v["folio"] for v in vs],
                                                        folio))
    elif vs[0]["folio_memcg"] != "/lrs-a" or vs[0]["lruvec_memcg"] != "/lrs-b" or \
            vs[0]["why"] != ["memcg"]:
        probs.append("violation details wrong: %s" % vs[0])
    tap.check("corrupted memcg_data: lru_check.py reports exactly that folio", probs)

    # ---- the same copy: /lrs-a@N0's lock taken, cpu 1 queued, pid 1's stack pointing
    # at it (a word of its user pt_regs, which no unwinder reads)
    ck.patch_bytes(bad, held["lruvec_bytes"], struct.pack("<I", held["lock_val"]),
                   held["lock_off"])
    ck.patch_bytes(bad, held["regs_bytes"], struct.pack("<Q", held["lock"]), 0)
    rc, res, err, _ = ck.run_script("holders.py", bad, vmlinux)
    probs = [] if rc == 0 and res else ["exit %d: %s" % (rc, err.strip()[-300:])]
    if res:
        locks = res["locks"]
        if [lk["lruvec"] for lk in locks] != ["/lrs-a@N0"]:
            probs.append("held locks %s, want only /lrs-a@N0" % [lk["lruvec"]
                                                                  for lk in locks])
        else:
            lk = locks[0]
            if lk["waiter_cpus"] != [1] or not lk["lock_state"]["locked"]:
                probs.append("lock state %s" % lk["lock_state"])
            pids = [t["pid"] for t in lk["tasks"]]
            if pids != [1]:
                probs.append("tasks referencing it: %s, want [1]" % pids)
            elif [r["at"] for r in lk["tasks"][0]["refs"]] != ["0x%x" % held["regs"]]:
                probs.append("refs %s, want at 0x%x" % (lk["tasks"][0]["refs"],
                                                       held["regs"]))
            elif not lk["tasks"][0]["stack"]:
                probs.append("no stack for pid 1")
    tap.check("held lock: holders.py finds the task whose stack references it", probs)

    # ---- the same copy, SYMBOL(init_uts_ns) changed: vmlinux no longer matches -------
    with open(bad, "r+b") as f:
        head = f.read(1 << 16)
    i = head.find(b"SYMBOL(init_uts_ns)=")
    probs = []
    if i < 0:
        probs.append("no SYMBOL(init_uts_ns) in the vmcore's first 64 KiB")
    else:
        j = i + len("SYMBOL(init_uts_ns)=") + 10
        digit = head[j:j + 1]
        with open(bad, "r+b") as f:
            f.seek(j)
            f.write(b"0" if digit != b"0" else b"1")
        rc, _, err, _ = ck.run_script("lruvecs.py", bad, vmlinux)
        if rc != 1 or "does not match" not in err:
            probs.append("mismatch: exit %d, %r" % (rc, err.strip()[-200:]))
    # ---- and truncated ---------------------------------------------------------------
    os.truncate(bad, os.path.getsize(core) // 2)
    rc, _, err, _ = ck.run_script("lruvecs.py", bad, vmlinux)
    if rc != 1 or "truncated" not in err:
        probs.append("truncated: exit %d, %r" % (rc, err.strip()[-200:]))
    tap.check("mismatched or truncated vmcore: clear message, exit 1", probs)
    os.unlink(bad)


if __name__ == "__main__":
    labtest.main_vmcore("v2", "lrs_cg=v2", run, plan=15)
