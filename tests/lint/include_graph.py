#!/usr/bin/env python3
"""Check the include graph of lruscope's C sources.

A module is x.c with x.h in one folder; x_internal.h and x_impl.h, a
module's private header shared by its own files, belong to x. Prints each module cycle, each
include that goes up the layers, each include of a collector by a view (ui/ sees the
collectors only through collector/source.h) and each include of one collector folder by
another (they are peers behind source.h); exits 1 if there is any.
"""
import os
import re
import sys

# A layer may include itself and the layers after it in this list.
LAYERS = ["cli", "demo", "ui/export", "ui/text", "ui/tui", "ui/gui", "ui", "collector/walk",
          "collector/replay", "collector/live", "collector", "model", "bpf"]
SOURCE_DIRS = ["bpf", "model", "collector", "ui", "demo", "cli"]
# The sources: peers, none includes another's headers.
COLLECTORS = ["collector/live", "collector/replay", "collector/walk"]
# What ui/ may include of collector/: the interface every source has.
VIEW_SEES = "collector/source.h"
PRIVATE = re.compile(r"_(internal|impl)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(path):
    for i, layer in enumerate(LAYERS):
        if path.startswith(layer + "/") and "/" not in path[len(layer) + 1:]:
            return i
    return None


def collector_of(path):
    for c in COLLECTORS:
        if path.startswith(c + "/"):
            return c
    return None


def boundary_problem(rel, inc):
    """The view and collector boundaries the linear layers cannot say, or None."""
    if rel.startswith("ui/") and inc.startswith("collector/") and inc != VIEW_SEES:
        return f"{rel} includes {inc}: a view includes of collector/ only {VIEW_SEES}"
    src, dst = collector_of(rel), collector_of(inc)
    if src and dst and src != dst:
        return f"{rel} includes {inc}: {src} may not use {dst} (collectors are peers)"
    return None


def main(root):
    graph, problems = {}, []
    for top in SOURCE_DIRS:
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if not f.endswith((".c", ".h")) or f.endswith(".bpf.c"):
                    continue
                rel = os.path.relpath(os.path.join(d, f), root)
                mod = PRIVATE.sub("", rel.rsplit(".", 1)[0])
                with open(os.path.join(root, rel), encoding="utf-8") as fh:
                    incs = INCLUDE.findall(fh.read())
                for inc in incs:
                    if inc.endswith(".skel.h") or inc == "vmlinux.h":
                        continue
                    target = PRIVATE.sub("", inc.rsplit(".", 1)[0])
                    if target != mod:
                        graph.setdefault(mod, set()).add(target)
                    boundary = boundary_problem(rel, inc)
                    if boundary:
                        problems.append(boundary)
                        continue
                    src, dst = layer_of(rel), layer_of(inc)
                    if src is not None and dst is not None and dst < src:
                        problems.append(f"{rel} includes {inc}: {LAYERS[src]} may not use "
                                        f"{LAYERS[dst]}")
    # cycles: depth-first search with colours
    state, stack = {}, []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                problems.append("cycle: " + " -> ".join(stack[stack.index(n):] + [n]))
            elif n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    for p in problems:
        print(p)
    print(f"{len(graph)} modules, {sum(len(v) for v in graph.values())} includes, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
