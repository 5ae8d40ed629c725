#!/usr/bin/env python3
"""chrongear's compensated dot products against PETSc's cg -ksp_cg_single_reduction (the same recurrences,
rows summed in fours) on bench/dots_cg.c's random diagonal spectra (kappa 10 to 1e10, no PC, 1 rank): among
the cases both converge, chrongear must take over 5 % fewer iterations on more cases than over 5 % more,
and fewer on average; with recursively summed dots it took more more often (docs/algorithms.md, section 5).
usage: dots_check.py --mpiexec M --exe DOTS_CG --lib LIBPIPEKSP [--cases N]; prints 'all checks passed' or FAIL"""
import argparse, math, os, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("--mpiexec", default="mpiexec")
ap.add_argument("--exe", required=True)
ap.add_argument("--lib", required=True)
ap.add_argument("--cases", type=int, default=300)
a = ap.parse_args()
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
out = subprocess.run([a.mpiexec, "-n", "1", a.exe, "-ncases", str(a.cases), "-seed", "11", "-types", "cgsr,chrongear",
                      "-dll_append", a.lib], env=env, capture_output=True, text=True, timeout=600)
rows = [list(map(int, ln.split()[4:6])) for ln in out.stdout.splitlines() if len(ln.split()) == 6]
ok = [(sr, cgear) for sr, cgear in rows if sr > 0 and cgear > 0]
if len(rows) != a.cases or len(ok) < a.cases // 3:
    print("FAIL dots_cg gave %d lines, %d converged: %s" % (len(rows), len(ok), (out.stdout + out.stderr)[-600:]))
    sys.exit(1)
more = sum(1 for sr, cgear in ok if cgear > 1.05 * sr)
fewer = sum(1 for sr, cgear in ok if cgear < sr / 1.05)
ratio = math.exp(sum(math.log(cgear / sr) for sr, cgear in ok) / len(ok))
print("chrongear / cgsr on %d cases: over 5%% more iterations on %d, fewer on %d, mean ratio %.4f" % (len(ok), more, fewer, ratio))
if not (fewer > more and ratio < 1):
    print("FAIL chrongear's dots should make it take fewer iterations than PETSc's single-reduction cg")
    sys.exit(1)
print("all checks passed")
