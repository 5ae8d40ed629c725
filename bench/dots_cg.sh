#!/usr/bin/env bash
# What compensated dot products buy chrongear, pipegv and pipegropp, and what they cost (include/pipeksp/
# compsumimpl.h, docs/algorithms.md section 5).
# 1. Iterations: bench/dots_cg.c's random diagonal spectra (kappa 10 to 1e10, no PC, 1 rank), each of ours
#    against PETSc's implementation of the same recurrences (cg -ksp_cg_single_reduction, pipecg, groppcg) and
#    against cg: the cases where ours takes more than 5 % more iterations, and fewer, and the mean log ratio.
#    With a second library (another build, e.g. before a change) its types run too, on the same cases.
# 2. Cost: PETSc's ex2 600 x 600, Jacobi, 200 capped iterations, no latency, each type's KSPSolve time (rotated
#    repetitions, median [IQR]); with a second library the ratio of this build's to it, per type.
# usage: bash bench/dots_cg.sh [builddir] [other libpipeksp.so]   (about 6 minutes; PIPEKSP_DOTS_CASES 1200,
#   PIPEKSP_DOTS_SEED 11, PIPEKSP_DOTS_REPS 7)
set -euo pipefail
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
build=${1:-build}
other=${2:-}
drv=$build/bench/dots_cg
ex2=$build/tests/ksp/petsc_ex2
lib=$(cd "$build" && pwd)/libpipeksp.so
[ -x "$drv" ] && [ -x "$ex2" ] && [ -e "$lib" ] || { echo "dots_cg.sh: $drv, $ex2 or $lib missing: build first (make build)" >&2; exit 2; }
cases=${PIPEKSP_DOTS_CASES:-1200} seed=${PIPEKSP_DOTS_SEED:-11} reps=${PIPEKSP_DOTS_REPS:-7}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp
types=cg,cgsr,chrongear,pipecg,pipegv,groppcg,pipegropp
echo "# dots_cg.sh: $cases random diagonal spectra (seed $seed), no PC, 1 rank"
mpiexec -n 1 "$drv" -ncases "$cases" -seed "$seed" -types "$types" -dll_append "$lib" > "$tmp/its"
[ -n "$other" ] && mpiexec -n 1 "$drv" -ncases "$cases" -seed "$seed" -types "$types" -dll_append "$other" > "$tmp/its_other"
cfgs=()
for t in chrongear pipegv pipegropp; do
  cfgs+=("$t|$lib|$t")
  [ -n "$other" ] && cfgs+=("$t-other|$other|$t")
done
for ((r = 0; r < reps; r++)); do
  for ((k = 0; k < ${#cfgs[@]}; k++)); do
    IFS='|' read -r name so t <<< "${cfgs[(k + r) % ${#cfgs[@]}]}"
    out=$(mpiexec -n 1 "$ex2" -m 600 -n 600 -pc_type jacobi -ksp_norm_type natural -ksp_rtol 1e-30 -ksp_max_it 200 \
      -dll_append "$so" -ksp_type "$t" -log_view 2>&1)
    echo "$r $name $(awk '$1 == "KSPSolve" {print $4}' <<< "$out")"
  done
done > "$tmp/times"
/usr/bin/env python3 - "$tmp" "$types" <<'EOF2'
import math, os, statistics as st, sys

tmp, types = sys.argv[1], sys.argv[2].split(",")


def load(f):
    rows = []
    for ln in open(f):
        w = ln.split()
        rows.append(dict(zip(types, map(int, w[4:]))))
    return rows


def compare(rows, a, b, label):
    ok = [r for r in rows if r[a] > 0 and r[b] > 0]
    more = sum(1 for r in ok if r[a] > 1.05 * r[b])
    fewer = sum(1 for r in ok if r[a] < r[b] / 1.05)
    mean = sum(math.log(r[a] / r[b]) for r in ok) / len(ok)
    print("%-36s %4d cases: >5%% more %4d, >5%% fewer %4d, mean its ratio %.4f" % (label, len(ok), more, fewer, math.exp(mean)))


pairs = (("chrongear", "cgsr"), ("pipegv", "pipecg"), ("pipegropp", "groppcg"))
for tag, f in (("", "its"), (" (other)", "its_other")):
    if not os.path.exists(os.path.join(tmp, f)):
        continue
    rows = load(os.path.join(tmp, f))
    for a, b in pairs:
        compare(rows, a, b, "%s / %s%s" % (a, b, tag))
    for a, _ in pairs:
        compare(rows, a, "cg", "%s / cg%s" % (a, tag))
    for _, b in pairs:
        if not tag:
            compare(rows, b, "cg", "%s / cg (PETSc)" % b)
t = {}
for ln in open(os.path.join(tmp, "times")):
    r, name, v = ln.split()
    t.setdefault(name, {})[int(r)] = float(v)


def show(label, xs):
    q = st.quantiles(sorted(xs), n=4) if len(xs) > 1 else [xs[0]] * 3
    print("%-36s %.3f [%.3f-%.3f]" % (label, st.median(xs), q[0], q[2]))


print("# ex2 600 x 600, Jacobi, 200 iterations, KSPSolve seconds, median [IQR] over the rotated repetitions")
for name in t:
    show(name, list(t[name].values()))
for a, _ in pairs:
    if a + "-other" in t:
        show("%s / other's" % a, [t[a][r] / t[a + "-other"][r] for r in t[a]])
EOF2
