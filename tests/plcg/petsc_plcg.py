#!/usr/bin/python3
"""PETSc's own tutorials ex2 / ex56 under -dll_append libpipeksp.so: our pipeplcg at depths 1-3 against
PETSc's cg and PETSc's pipelcg (its defaults: zero shifts; depth 1, 2, 3) in the same run.
Checks: pipeplcg converges in cg's iterations (5%, at least +-2) with a true residual ||b-Ax|| <= 10 rtol ||b||
and never lowers its depth (-ksp_view's "lowered 0 times": nothing degrades here);
and the comparison the test exists for: PETSc's pipelcg with its defaults needs more than 1.5x cg's
iterations (or fails) at some depth on the same problem. Prints FAIL lines and exits 1 on a failed check."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import dllappend  # noqa: E402

ap = dllappend.parser(1)
ap.add_argument("--example", choices=["ex2", "ex56"], required=True)
a = ap.parse_args()
rtol = 1e-8
base = ["-m", "30", "-n", "30"] if a.example == "ex2" else ["-ne", "11", "-alpha", "1.e-3"]
base += ["-pc_type", "jacobi", "-ksp_rtol", str(rtol), "-ksp_max_it", "2000", "-ksp_converged_reason"]


def run(opts):
    p = dllappend.run(a, base + opts, timeout=300)
    m = re.search(r"Linear solve (converged|did not converge) due to (\S+) iterations (\d+)", p.stdout)
    b = re.search(r"^\s*0 KSP Residual norm (\S+)", p.stdout, re.M)
    f = re.search(r"KSP final norm of residual (\S+)", p.stdout)
    d = re.search(r"pipeline depth lowered (\d+) times", p.stdout)
    ok = p.returncode == 0 and m is not None and m.group(1) == "converged"
    its = int(m.group(3)) if m else -1
    res = float(f.group(1)) / float(b.group(1)) if (b and f and float(b.group(1)) > 0) else None
    run.lowered = int(d.group(1)) if d else None
    return ok, its, res, (m.group(2) if m else "rc %d: %s" % (p.returncode, p.stdout[-400:]))


fails = 0
true_res = ["-ksp_monitor", "-ksp_view_final_residual"]
ok, cg_its, cg_res, why = run(["-ksp_type", "cg", "-ksp_norm_type", "unpreconditioned"] + true_res)
print("%-30s its %4d  true res %s  %s" % ("cg (unpreconditioned norm)", cg_its, "%.2e" % cg_res if cg_res else "-", why))
ok_n, cgn_its, _, why = run(["-ksp_type", "cg", "-ksp_norm_type", "natural"])
print("%-30s its %4d  %s" % ("cg (natural norm)", cgn_its, why))
if not ok or not ok_n:
    print("FAIL: reference cg did not converge")
    sys.exit(1)
worst = 0.0
for l in (1, 2, 3):  # PETSc's pipelcg supports the natural norm only: compared with cg in the natural norm
    okp, its, _, why = run(["-ksp_type", "pipelcg", "-ksp_pipelcg_pipel", str(l)])
    ratio = its / cgn_its if okp else float("inf")
    worst = max(worst, ratio)
    print("%-30s its %4d  %s  (%.2fx cg)" % ("PETSc pipelcg l=%d (defaults)" % l, its, why, ratio))
for l in (1, 2, 3):
    okq, its, res, why = run(["-ksp_type", "pipeplcg", "-ksp_pipe_depth", str(l), "-ksp_norm_type", "unpreconditioned", "-ksp_view"] + true_res)
    print("%-30s its %4d  true res %s  %s  depth lowered %s times" % ("pipeplcg l=%d" % l, its, "%.2e" % res if res else "-", why, run.lowered))
    if l > 1 and run.lowered != 0:
        print("  FAIL: pipeplcg l=%d lowered its depth (%s times) where nothing degrades" % (l, run.lowered))
        fails += 1
    tol = max(2, int(0.05 * cg_its))
    if not okq:
        print("  FAIL: pipeplcg l=%d did not converge" % l)
        fails += 1
        continue
    if abs(its - cg_its) > tol:
        print("  FAIL: %d iterations vs cg %d (allowed +-%d)" % (its, cg_its, tol))
        fails += 1
    if res is None or res > 10 * rtol:
        print("  FAIL: true relative residual %s > 10 rtol" % res)
        fails += 1
if worst <= 1.5:
    print("  FAIL: PETSc's pipelcg kept up with cg here (worst %.2fx): this problem does not show what the test is for" % worst)
    fails += 1
dllappend.finish(fails)
