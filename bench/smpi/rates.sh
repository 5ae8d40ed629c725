#!/bin/bash
# The cost per flop of each PETSc/PipeKSP event on this machine, for the deterministic compute of the SMPI
# solves (bench/smpi/solve_shim.c): the native bench_cube on ONE rank with the SMPI runs' rows per rank
# (7 x 7 x 7 nodes, 1,029 rows; one rank, so no event holds a wait for a message or a reduction), every solver
# of solve.sh on jacobi, bjacobi+icc and asddic, -log_view; per event its time over its flops, the smallest
# of 3 launches (the least disturbed on a shared machine). Events that hold others (KSPSolve, PCApply, ...)
# are left out: flops logged directly inside them cost the "*" default, the median of the vector kernels.
# usage: bash bench/smpi/rates.sh <builddir> <output file> [PCs, default "jacobi bjacobi asddic" on the cube's
#   BAIJ matrix (rates.txt); "gamg" on its AIJ matrix (rates-gamg.txt): PETSc's GAMG builds no graph from BAIJ]
set -u
. "$(dirname "$0")/cases.sh" # the PCs' and solvers' options, as solve.sh runs them
build=$1 outf=$2 pcs=${3:-"jacobi bjacobi asddic"}
what="" # the PCs and their matrix options, for the file's header
for p in $pcs; do what+="${what:+, }$p$(m=$(mat_options "$p"); echo "${m:+ $m}")"; done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
drv=$build/bench/bench_cube
cfg=$(mktemp) logs=$(mktemp)
trap 'rm -f "$cfg" "$logs"' EXIT
for run in 1 2 3; do
for p in $pcs; do
  write_cfg "$cfg" "$(pc_options "$p")" $smpi_solvers
  { echo "=== launch $run"; nice -n 15 mpiexec -n 1 "$drv" -bench_config "$cfg" -bench_reps 5 -cube_n 7 $(mat_options "$p") -log_view 2>&1; } >> "$logs" || { tail "$logs"; exit 1; }
done
done
python3 - "$logs" "$outf" "$what" <<'PY'
import re, sys, statistics, time
t, f, skip, run, best = {}, {}, False, None, {}
def flush():
    for e in t:
        if f[e] > 0: best[e] = min(best.get(e, 1e9), t[e] / f[e])
num = re.compile(r"^[0-9.]+e[-+][0-9]+$")
for line in open(sys.argv[1], errors="replace"):
    w = line.split()
    if line.startswith("=== launch"):
        flush(); t, f = {}, {}
    if line.startswith("Summary of Stages"): skip = True
    if line.startswith("-----"): skip = False
    if skip or len(w) < 20 or not num.match(w[3]) or not num.match(w[5]): continue
    t[w[0]] = t.get(w[0], 0) + float(w[3]); f[w[0]] = f.get(w[0], 0) + float(w[5])
flush()
# MatResidual holds MatMult and a vector update (GAMG's smoothers); MatMultAdd, GAMG's prolongation, is a kernel
drop = {"KSPSolve", "PCApply", "KSPSetUp", "PCSetUp", "PCSetUpOnBlocks", "MatResidual"}
r = {e: v for e, v in best.items() if e not in drop}
vec = [v for e, v in r.items() if e.startswith("Vec")]
with open(sys.argv[2], "w") as o:
    o.write("# seconds per flop, native bench_cube, 1 rank, 7x7x7 nodes, PCs %s, least of 3 launches, measured %s (bench/smpi/rates.sh)\n" % (sys.argv[3], time.strftime("%Y-%m-%d")))
    o.write("* %.4e\n" % (statistics.median(vec) if vec else 1e-9))
    for e in sorted(r): o.write("%s %.4e\n" % (e, r[e]))
PY
cat "$outf"
