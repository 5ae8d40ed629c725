#!/usr/bin/env python3
"""No cycle between the files of src/: the call graph (from `nm` of the library's object files: file A
calls file B when A uses a function B defines) and the include graph (the #include lines of src/ and
include/) must both be acyclic. Prints both graphs' edges and any cycle; exits 1 on a cycle. Uses of
data (the log events and class id the registrar defines and registers, name tables) are listed apart:
they are not calls, and every file that logs an event reads the registrar's, as in PETSc.

usage: srcgraph.py <source dir> <object file>...   (the object files of libpipeksp, one per src/*.c)"""
import os
import re
import subprocess
import sys


def cycles(edges):
    """strongly connected components with more than one node, or a node with an edge to itself"""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    nodes = sorted(set(edges) | {b for v in edges.values() for b in v})

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in edges.get(v, ()):
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def source_of(obj, srcdir):
    """src/mat/matmult.c for .../pipeksp.dir/src/mat/matmult.c.o"""
    m = re.search(r"(src/.*\.c)\.o(bj)?$", obj.replace(os.sep, "/"))
    return m.group(1) if m else os.path.relpath(obj, srcdir)


def use_graphs(objs, srcdir):
    """(calls, data uses) between the object files' sources"""
    defined, used = {}, {}
    for o in objs:
        f = source_of(o, srcdir)
        text = subprocess.run(["nm", o], check=True, capture_output=True, text=True).stdout
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "U":
                used.setdefault(f, set()).add(parts[1])
            elif len(parts) == 3 and parts[1].isupper() and parts[1] not in "UVW":
                defined[parts[2]] = (f, parts[1] == "T")
    calls, data = {}, {}
    for f, syms in used.items():
        for s in syms:
            g, func = defined.get(s, (None, False))
            if g and g != f:
                (calls if func else data).setdefault(f, set()).add(g)
    return calls, data


def include_graph(srcdir):
    files = []
    for top in ("src", "include"):
        for d, _, names in os.walk(os.path.join(srcdir, top)):
            files += [os.path.relpath(os.path.join(d, x), srcdir) for x in names if x.endswith((".c", ".h"))]
    edges = {}
    for f in files:
        with open(os.path.join(srcdir, f)) as fh:
            for m in re.finditer(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', fh.read(), re.M):
                for cand in (os.path.join("include", m.group(1)), os.path.join(os.path.dirname(f), m.group(1))):
                    if os.path.exists(os.path.join(srcdir, cand)) and os.path.normpath(cand) != f:
                        edges.setdefault(f, set()).add(os.path.normpath(cand))
                        break
    return edges


def main():
    srcdir = sys.argv[1]
    objs = [o for a in sys.argv[2:] for o in a.split(";") if o]  # CMake passes $<TARGET_OBJECTS> as one list
    if not objs:
        sys.exit("srcgraph.py: no object files given")
    bad = 0
    calls, data = use_graphs(objs, srcdir)
    print("data uses (not checked):")
    for f in sorted(data):
        print(f"  {f} -> {', '.join(sorted(data[f]))}")
    for name, edges in (("call", calls), ("include", include_graph(srcdir))):
        print(f"{name} graph: {sum(len(v) for v in edges.values())} edges between {len(set(edges) | {b for v in edges.values() for b in v})} files")
        for f in sorted(edges):
            print(f"  {f} -> {', '.join(sorted(edges[f]))}")
        for c in cycles(edges):
            bad += 1
            print(f"CYCLE in the {name} graph: {' <-> '.join(c)}")
    print(f"{bad} cycles")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
