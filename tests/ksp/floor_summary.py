#!/usr/bin/python3
"""Summarises `floor -table` output (one line per solve) into one row per solver and replacement
setting: over all PCs, rtols and norm types, the worst true residual relative to cg's on the same
settings (and to 10x cg's floor), the solves whose stop reason cg would not give, the replacements
against the fixed period 50, and the worst iteration difference from cg at rtol 1e-8.
Usage: floor -table ... | floor_summary.py [label]"""
import re
import sys
from collections import defaultdict

label = sys.argv[1] if len(sys.argv) > 1 else ""
floor = {}
rows = []
for line in sys.stdin:
    m = re.match(r"(\S+): cg floor (\S+)", line)
    if m:
        floor[m.group(1)] = float(m.group(2))
        continue
    f = line.split()
    if len(f) == 10 and re.match(r"\d", f[1]) and f[5].isdigit():
        pc, rtol, norm, ksp, rep, its, res, nrep, nrest, reason = f
        rows.append(dict(pc=pc, rtol=float(rtol), norm=norm, ksp=ksp, rep=rep, its=int(its), res=float(res),
                         nrep=None if nrep == "-" else int(nrep), nrest=None if nrest == "-" else int(nrest),
                         reason=reason))
cg = {(r["pc"], r["rtol"], r["norm"]): r for r in rows if r["ksp"] == "cg"}
fixed = {(r["pc"], r["rtol"], r["norm"], r["ksp"]): r for r in rows if r["rep"] == "50"}


def cg_would(r, c):
    if r["reason"] == c["reason"]:
        return True
    conv = ("CONVERGED_RTOL", "CONVERGED_ATOL", "CONVERGED_RTOL_NORMAL", "CONVERGED_ATOL_NORMAL")
    if r["reason"] in conv and c["reason"] in conv:
        return True
    # no norm: cg ends at its floor by chance (beta = 0, max_it, a round-off sign flip)
    return r["norm"] == "none" and r["reason"] in ("CONVERGED_ATOL", "CONVERGED_ITS")


groups = defaultdict(list)
for r in rows:
    if r["ksp"] != "cg":
        groups[(r["ksp"], r["rep"])].append(r)
print("%-10s %-5s %6s %14s %11s %12s %12s %14s" % ("solver", "repl", "solves", "max res/cg", "> 10x cg", "reason != cg",
                                                    "repl (vs 50)", "its@1e-8 vs cg"))
for (ksp, rep), rs in sorted(groups.items()):
    worst, over, bad, nrep, nrep50, dits = 0.0, 0, 0, 0, 0, 0.0
    for r in rs:
        c = cg[(r["pc"], r["rtol"], r["norm"])]
        lim = 10 * max(c["res"], floor.get(r["pc"], 0.0))
        worst = max(worst, r["res"] / c["res"])
        over += r["res"] > lim
        bad += not cg_would(r, c)
        if r["nrep"] is not None:
            nrep += r["nrep"]
            f = fixed.get((r["pc"], r["rtol"], r["norm"], ksp))
            nrep50 += f["nrep"] if f and f["nrep"] is not None else 0
        if r["rtol"] == 1e-8 and r["norm"] != "none":
            dits = max(dits, abs(r["its"] - c["its"]) / c["its"])
    print("%-10s %-5s %6d %14.3g %11d %12d %12s %13.1f%%" % (ksp, rep, len(rs), worst, over, bad,
                                                            "%d (%d)" % (nrep, nrep50) if ksp not in ("pipecg", "pipecgrr") else "-",
                                                            100 * dits))
