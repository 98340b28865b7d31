#!/usr/bin/env python3
"""Check that no C files of lruscope call each other round in a circle.

The include graph (include_graph.py) cannot see every such circle: a module split
into files shares one private header (x_internal.h) that declares the functions
of all its files, and that header counts as x's, so x.c calling x_check.c and
x_check.c calling x.c back shows there as no edge at all. This reads the sources
instead: each non-static function definition names the file that defines it,
and a file that calls (or takes the address of) a function defined in another
file depends on that file. Calls through pointers are not seen. Prints each
circle and exits 1 if there is any.
"""
import os
import re
import sys

SOURCE_DIRS = ["model", "collector", "ui", "demo", "cli"]
# comments and literals, blanked before anything is read
NOISE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
# a definition: at the start of a line, not static, its name, its parameters, a brace
DEFINITION = re.compile(r"^(?!static\b|extern\b|typedef\b)[A-Za-z_][\w \t*]*?\b([A-Za-z_]\w*)"
                        r"\([^;{]*?\)\s*\{", re.M)
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def sources(root):
    texts = {}
    for top in SOURCE_DIRS:
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith(".c") and not f.endswith(".bpf.c"):
                    rel = os.path.relpath(os.path.join(d, f), root)
                    with open(os.path.join(root, rel), encoding="utf-8") as fh:
                        texts[rel] = NOISE.sub(" ", fh.read())
    return texts


def circles(graph):
    """The strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main(root):
    texts = sources(root)
    owner = {}
    for rel, text in texts.items():
        for m in DEFINITION.finditer(text):
            owner.setdefault(m.group(1), rel)
    graph, why = {rel: set() for rel in texts}, {}
    for rel, text in texts.items():
        for m in CALL.finditer(text):
            dst = owner.get(m.group(1))
            if dst and dst != rel:
                graph[rel].add(dst)
                why.setdefault((rel, dst), m.group(1))
    found = circles(graph)
    for comp in found:
        calls = [f"{a} calls {why[(a, b)]}() of {b}" for a in comp for b in sorted(graph[a])
                 if b in comp]
        print("circle: " + "; ".join(calls))
    print(f"{len(texts)} files, {len(owner)} functions, "
          f"{sum(len(v) for v in graph.values())} file-to-file calls, {len(found)} circles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
