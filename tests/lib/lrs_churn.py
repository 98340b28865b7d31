"""Memcgs that lived a fraction of lruscope's interval, and how a snapshot shows them
(tests/integration/churn.t, tests/lab/churn.t)."""
import json


def churned(lines):
    """{memcg id: path} of the memcgs `lruscope workload` made, from its JSON lines."""
    out = {}
    for line in lines:
        line = line[line.find("{"):] if "{" in line else ""
        try:
            for m in json.loads(line)["memcgs"]:
                out[m["id"]] = m["memcg"]
        except (ValueError, KeyError, TypeError):
            pass
    return out


def shown(snap, ids):
    """[(memcg id, the name shown, where)] for every churned memcg in the snapshot: as an
    lruvec's memcg or as a waiter's."""
    out = []
    for lv in snap["lruvecs"]:
        if lv["memcg_id"] in ids:
            out.append((lv["memcg_id"], lv["memcg"], "lruvec@N%d" % lv["node"]))
        for w in lv.get("waiters", []):
            if w.get("memcg_id") in ids:
                out.append((w["memcg_id"], w.get("memcg"), "waiter on %s" % lv["memcg"]))
    return out


def misnamed(snap, ids):
    """The entries of shown() whose name is not the memcg's path."""
    return [s for s in shown(snap, ids) if s[1] != ids[s[0]]]


def named_by_id(snap):
    """Any lruvec named cgroup-id:N, any waiter whose memcg has an id but no path."""
    out = [lv["memcg"] for lv in snap["lruvecs"] if lv["memcg"].startswith("cgroup-id:")]
    out += ["waiter %s on %s" % (w.get("memcg_id"), lv["memcg"]) for lv in snap["lruvecs"]
            for w in lv.get("waiters", []) if w.get("memcg_id") and not w.get("memcg")]
    return out


def summary(snap, ids):
    """One line: how many churned memcgs were shown, and which lost their names."""
    seen, bad = shown(snap, ids), misnamed(snap, ids)
    return "%d of %d churned memcgs shown (%d rows and waiters), %d without their path%s" % (
        len({s[0] for s in seen}), len(ids), len(seen), len({s[0] for s in bad}),
        "".join(": " + ", ".join("%s as %s" % (s[2], s[1]) for s in bad[:6])) if bad else "")
