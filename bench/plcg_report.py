#!/usr/bin/python3
"""Report of bench/plcg.sh (EMULATED latency): per P_sim (and noise on/off) the median us per iteration of each
solver, its per-iteration speedup against PETSc cg and against pipegv (medians of the per-repetition ratios,
same run and repetition), the hidden fraction, the goals (hidden >= 0.95, >= 2x cg, >= 1.3x pipegv) at the largest P_sim, and the P_sim at which
each depth first beats the one below. usage: plcg_report.py <plcg.csv>"""
import csv
import statistics
import sys
from collections import defaultdict

rows = list(csv.DictReader(open(sys.argv[1])))
spi = defaultdict(dict)
hid = defaultdict(list)
its = defaultdict(set)
bad = set()
for r in rows:
    key = (int(r["psim"]), r["noise"], r["label"])
    if r["ok"] != "1":
        bad.add(key)
        continue
    spi[key][int(r["rep"])] = float(r["seconds_per_it"])
    hid[key].append(float(r["hidden"]))
    its[key].add(int(r["its"]))
labels = []
for r in rows:
    if r["label"] not in labels:
        labels.append(r["label"])


def ratio(ref, key):
    a, b = spi.get(ref, {}), spi.get(key, {})
    v = [a[k] / b[k] for k in b if k in a and b[k] > 0]
    if not v:
        return float("nan"), float("nan")
    q = statistics.quantiles(v, n=4) if len(v) >= 4 else [min(v), 0, max(v)]
    return statistics.median(v), q[2] - q[0]


print("\nEMULATED. us/it: median and minimum over repetitions; speedups: median (IQR) of per-repetition ratios in the")
print("same run, and the ratio of the minima (cg/min, gv/min: the most reproducible figure on a loaded machine)")
groups = sorted({(k[0], k[1]) for k in spi})
for P, nz in groups:
    print("\nbjacobi+icc, P_sim %d%s" % (P, " + OS noise" if nz == "1" else ""))
    print("  %-8s %8s %8s %8s %16s %16s %7s %7s %7s" % ("solver", "its", "med us", "min us", "vs cg", "vs pipegv", "cg/min", "gv/min", "hidden"))
    for lab in labels:
        key = (P, nz, lab)
        if key not in spi:
            if key in bad:
                print("  %-8s FAILED (not converged or wrong answer)" % lab)
            continue
        s1, i1 = ratio((P, nz, "cg"), key)
        s2, i2 = ratio((P, nz, "pipegv"), key)
        itl = sorted(its[key])
        itss = str(itl[0]) if len(itl) == 1 else "%d-%d" % (itl[0], itl[-1])
        m = min(spi[key].values())
        mc = min(spi[(P, nz, "cg")].values()) / m if (P, nz, "cg") in spi else float("nan")
        mg = min(spi[(P, nz, "pipegv")].values()) / m if (P, nz, "pipegv") in spi else float("nan")
        print("  %-8s %8s %8.1f %8.1f %9.2fx (%.2f) %9.2fx (%.2f) %6.2fx %6.2fx %7.3f" % (lab, itss, 1e6 * statistics.median(spi[key].values()), 1e6 * m,
                                                          s1, i1, s2, i2, mc, mg, statistics.median(hid[key])))
top = max(P for P, _ in groups)
print("\nGoals at P_sim %d (EMULATED), bjacobi+icc:" % top)
best = None
for l in (1, 2, 3, 4):
    key = (top, "0", "plcg-l%d" % l)
    if key in spi:
        h = statistics.median(hid[key])
        s1, _ = ratio((top, "0", "cg"), key)
        s2, _ = ratio((top, "0", "pipegv"), key)
        n1, _ = ratio((top, "1", "pipegv"), (top, "1", "plcg-l%d" % l))

        def mr(ref, k):
            return min(spi[ref].values()) / min(spi[k].values()) if ref in spi and k in spi else float("nan")
        m1, m2, m3 = mr((top, "0", "cg"), key), mr((top, "0", "pipegv"), key), mr((top, "1", "pipegv"), (top, "1", "plcg-l%d" % l))
        print("  l=%d: hidden %.3f (>= 0.95: %s), vs cg %.2fx / %.2fx (>= 2: %s), vs pipegv %.2fx / %.2fx (>= 1.3: %s), with noise vs pipegv %.2fx / %.2fx (> 1: %s)"
              % (l, h, "yes" if h >= 0.95 else "NO", s1, m1, "yes" if min(s1, m1) >= 2 else "NO", s2, m2, "yes" if min(s2, m2) >= 1.3 else "NO", n1, m3,
                 "yes" if min(n1, m3) > 1 else ("NO" if n1 == n1 else "not run")))
print("  (median of per-repetition ratios / ratio of minima; a goal counts as met only when both meet it)")
print("\nWhere depth pays (noise off): the smallest P_sim at which depth l is faster per iteration than l-1 (median ratio > 1.05)")
for l in (2, 3, 4):
    first = None
    for P in sorted({P for P, nz in groups if nz == "0"}):
        s, _ = ratio((P, "0", "plcg-l%d" % (l - 1)), (P, "0", "plcg-l%d" % l))
        if s == s and s > 1.05:
            first = (P, s)
            break
    print("  l=%d beats l=%d first at P_sim %s" % (l, l - 1, "%d (%.2fx)" % first if first else "- (not within the measured P_sim)"))
