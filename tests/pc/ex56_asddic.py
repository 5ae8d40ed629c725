#!/usr/bin/python3
"""PETSc's own elasticity tutorial ex56 (3D Q1, soft inclusion -alpha 1e-3, aij with block size 3), built
from the Debian examples and loaded with -dll_append libpipeksp.so: cg + -pc_type asddic (defaults, and
the sgs kernel) converges on all three solves of -two_solves (the second set-up has new values, same
pattern), to a true relative residual below 1e-6 as ex56 prints it, in fewer iterations than cg +
bjacobi/icc on the same ranks, solve by solve. PETSc 3.26's ex56 negates the second operator: asddic must
then refuse it (DIVERGED_PC_FAILED). Prints FAIL lines and exits 1 otherwise."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import dllappend  # noqa: E402

ap = dllappend.parser(1)
ap.add_argument("--ne", default="11")
ap.add_argument("--source", help="ex56.c: tells which variant of -two_solves this PETSc's ex56 runs")
a = ap.parse_args()

# -two_solves scales A by 1e5 up to PETSc 3.25; from 3.26 by -1e5, a negative definite second operator (then
# reused, scaled by 1 + eps, for the third solve). asddic refuses a non-positive diagonal (the PC fails,
# DIVERGED_PC_FAILED, as cg with a failed PC ends) instead of shifting it into garbage; icc shifts it.
negated = bool(a.source) and re.search(r"MatScale\(Amat, -", open(a.source).read()) is not None
base = ["-ne", a.ne, "-alpha", "1.e-3", "-two_solves", "-ksp_type", "cg", "-ksp_rtol", "1e-8", "-ksp_max_it", "3000",
        "-ksp_converged_reason"]
runs = [("bjacobi+icc", ["-pc_type", "bjacobi", "-sub_pc_type", "icc"]),
        ("asddic", ["-pc_type", "asddic"]),
        ("asddic sgs", ["-pc_type", "asddic", "-pc_asddic_local", "sgs"])]
fails = 0
its = {}
for label, opts in runs:
    p = dllappend.run(a, base + opts, timeout=300)
    out = p.stdout
    solves = re.findall(r"Linear solve (?:did not )?converge[d]? due to (\S+) iterations (\d+)", out)
    res = re.search(r"\|b-Ax\|/\|b\|=(\S+),", out)
    if p.returncode != 0 or len(solves) != 3 or not res:
        print("%-12s FAIL: expected three solves and the residual line (rc %d)\n%s" % (label, p.returncode, out[-3000:]))
        fails += 1
        continue
    reasons = [r for r, _ in solves]
    its[label] = [int(n) for _, n in solves]
    r = float(res.group(1))
    print("%-12s %s, |b-Ax|/|b| %.2e%s" % (label, ", ".join("%s %s" % sv for sv in solves), r,
                                          " (second operator negative definite)" if negated else ""))
    # what each solve must end with: all converge, except asddic's refusal of the negated operator
    want_ok = [True, not (negated and label != "bjacobi+icc"), not (negated and label != "bjacobi+icc")]
    for k, (reason, ok) in enumerate(zip(reasons, want_ok)):
        if ok and not reason.startswith("CONVERGED"):
            print("  FAIL: solve %d ended %s" % (k + 1, reason))
            fails += 1
        if not ok and reason != "DIVERGED_PC_FAILED":
            print("  FAIL: solve %d on a negative definite operator ended %s, not asddic's refusal "
                  "(DIVERGED_PC_FAILED)" % (k + 1, reason))
            fails += 1
    if all(want_ok) and not r < 1e-6:
        print("  FAIL: relative residual %g not below 1e-6" % r)
        fails += 1
    its[label] = [n if ok else None for n, ok in zip(its[label], want_ok)]
# against bjacobi+icc in the same run, solve by solve, where both solved
if "asddic" in its and "bjacobi+icc" in its:
    for k, (x, y) in enumerate(zip(its["asddic"], its["bjacobi+icc"])):
        if x is not None and not x < y:
            print("  FAIL: solve %d: asddic %d iterations, not fewer than bjacobi+icc's %d" % (k + 1, x, y))
            fails += 1
dllappend.finish(fails)
