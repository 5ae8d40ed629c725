#!/usr/bin/env python3
"""No cycle between the files of src/: the call graph (from `nm` of the library's object files: file A
calls file B when A uses a function B defines), the include graph (the #include lines of src/ and
include/) and their union, the dependency graph, must all be acyclic. A header X.h and the X.c of the
same name are one node (the header is that file's: its owner), so a file that includes X.h depends on
X.c, and X.c calling back into it is a cycle (a base that calls the guards whose header includes the
base's). Prints the graphs' edges and any cycle; exits 1 on a cycle. Uses of data (the log events and
class id the registrar defines and registers, name tables) are listed apart: they are not calls, and every
file that logs an event reads the registrar's, as in PETSc.

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


def owners(srcdir):
    """include/pipeksp/X.h -> src/.../X.c where exactly one .c of src/ has that name"""
    by_stem = {}
    for d, _, names in os.walk(os.path.join(srcdir, "src")):
        for x in names:
            if x.endswith(".c"):
                by_stem.setdefault(x[:-2], []).append(os.path.relpath(os.path.join(d, x), srcdir))
    own = {}
    for d, _, names in os.walk(os.path.join(srcdir, "include")):
        for x in names:
            if x.endswith(".h") and len(by_stem.get(x[:-2], [])) == 1:
                own[os.path.relpath(os.path.join(d, x), srcdir)] = by_stem[x[:-2]][0]
    return own


def merged(edges, own):
    """the graph with each owned header folded into its .c (its edge to that .c dropped)"""
    out = {}
    for a, bs in edges.items():
        for b in bs:
            a2, b2 = own.get(a, a), own.get(b, b)
            if a2 != b2:
                out.setdefault(a2, set()).add(b2)
    return out


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
    own = owners(srcdir)
    print("headers merged into their .c: " + (", ".join(f"{h} -> {c}" for h, c in sorted(own.items())) or "none"))
    includes = merged(include_graph(srcdir), own)
    union = {f: set(calls.get(f, ())) | set(includes.get(f, ())) for f in set(calls) | set(includes)}
    for name, edges in (("call", calls), ("include", includes), ("dependency (call + include)", union)):
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
