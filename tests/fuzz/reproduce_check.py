#!/usr/bin/env python3
"""The fuzzer's reproducer reproduces: each case of a batch, run as fuzz.py runs it (one launch, no -v), and
alone with -v as its FUZZFAIL line says, gives the same FUZZCASE line but for its time: the same verdict and cg's
same end. PCs with set-from-options defaults of their own (gamg, hypre) are where the two could part."""
import argparse, os, re, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("--mpiexec", default="mpiexec")
ap.add_argument("--exe", required=True)
ap.add_argument("--seed", default="93")
ap.add_argument("--cases", default=",".join(str(k) for k in range(200, 320, 4)), help="the batch (1-rank cases)")
ap.add_argument("--alone", type=int, default=6, help="how many of them to rerun alone: gamg and hypre first")
ap.add_argument("--solvers", default="pipegropp,pipegv")
a = ap.parse_args()
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
LINE = re.compile(r"^FUZZCASE (\d+) (.*) seconds=[\d.]+ (cg=\S+)$", re.M)


def run(cases, verbose):
    cmd = [a.mpiexec, "-n", "1", a.exe, "-seed", a.seed, "-caselist", cases, "-solvers", a.solvers, "-below_floor"]
    p = subprocess.run(cmd + (["-v"] if verbose else []), env=env, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    return dict((m.group(1), m.group(2) + " " + m.group(3)) for m in LINE.finditer(p.stdout))


batch = run(a.cases, False)
# the batch draws other PCs on a PETSc without hypre: take its gamg and hypre cases first, then others
pick = sorted(batch, key=lambda k: (not re.search(r"pc=(gamg|hypre) ", batch[k]), int(k)))[:a.alone]
fails, pcs = [], set()
for k in sorted(pick, key=int):
    alone = run(k, True)
    print("case %s: batch %s; alone with -v %s" % (k, batch.get(k), alone.get(k)))
    if k not in batch or batch.get(k) != alone.get(k):
        fails.append(k)
    m = re.search(r"pc=(\S+)", batch.get(k, ""))
    if m:
        pcs.add(m.group(1))
if not {"gamg", "hypre"} & pcs:  # the check needs a PC of that kind among the cases
    fails.append("no gamg or hypre case among %s" % a.cases)
if fails:
    print("FAIL: %s" % ", ".join(fails))
    sys.exit(1)
print("all checks passed (%d cases, PCs %s)" % (len(batch), ", ".join(sorted(pcs))))
