#!/usr/bin/env bash
# What pipeplcg's compensated dot products cost (docs/pipeplcg.md, "Costs"): PETSc's own ex2 (m x m, Jacobi)
# under -dll_append, 200 capped iterations at depth l, no emulated latency, PETSc's cg in the same run,
# rotated over the repetitions. Prints per configuration the -log_view time of KSPSolve and of the fused
# pass (PipeVecPass), and the ratios to cg's solve of the same repetition, median [IQR]. With a second
# library (another build of PipeKSP, e.g. before a change) its pipeplcg runs too, and the ratios of ours to it.
# usage: bash bench/plcg_dots.sh [builddir] [other libpipeksp.so]   (about a minute; PIPEKSP_DOTS_M 600,
#   PIPEKSP_DOTS_NP 1, PIPEKSP_DOTS_DEPTH 3, PIPEKSP_DOTS_REPS 7)
set -euo pipefail
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
build=${1:-build}
other=${2:-}
ex2=$build/tests/ksp/petsc_ex2
lib=$(cd "$build" && pwd)/libpipeksp.so
[ -x "$ex2" ] && [ -e "$lib" ] || { echo "plcg_dots.sh: $ex2 or $lib missing: build first (make build)" >&2; exit 2; }
m=${PIPEKSP_DOTS_M:-600} np=${PIPEKSP_DOTS_NP:-1} l=${PIPEKSP_DOTS_DEPTH:-3} reps=${PIPEKSP_DOTS_REPS:-7}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp
cfgs=("cg|$lib|-ksp_type cg" "pipeplcg|$lib|-ksp_type pipeplcg -ksp_pipe_depth $l")
[ -n "$other" ] && cfgs+=("other|$other|-ksp_type pipeplcg -ksp_pipe_depth $l")
echo "# plcg_dots.sh: PETSc's ex2 ${m}x$m, Jacobi, $np rank(s), 200 iterations, depth $l, $reps rotated repetitions, no latency"
for ((r = 0; r < reps; r++)); do
  for ((k = 0; k < ${#cfgs[@]}; k++)); do
    IFS='|' read -r name so opts <<< "${cfgs[(k + r) % ${#cfgs[@]}]}"
    # shellcheck disable=SC2086
    out=$(mpiexec -n "$np" "$ex2" -m "$m" -n "$m" -pc_type jacobi -ksp_norm_type natural -ksp_rtol 1e-30 \
      -ksp_max_it 200 -dll_append "$so" $opts -log_view 2>&1)
    solve=$(awk '$1 == "KSPSolve" {print $4}' <<< "$out")
    pass=$(awk '$1 == "PipeVecPass" {print $4}' <<< "$out")
    echo "$r $name ${solve:-nan} ${pass:-0}"
  done
done > "$tmp/times"
/usr/bin/env python3 - "$tmp/times" <<'EOF'
import statistics as st
import sys

t = {}
for ln in open(sys.argv[1]):
    r, name, solve, vpass = ln.split()
    t.setdefault(name, {})[int(r)] = (float(solve), float(vpass))


def show(label, xs):
    q = st.quantiles(sorted(xs), n=4) if len(xs) > 1 else [xs[0]] * 3
    print("%-34s %.3f [%.3f-%.3f]" % (label, st.median(xs), q[0], q[2]))


for name in t:
    show("%s: KSPSolve (s)" % name, [v[0] for v in t[name].values()])
    if name != "cg":
        show("%s: fused pass (s)" % name, [v[1] for v in t[name].values()])
        show("%s: solve / cg's" % name, [t[name][r][0] / t["cg"][r][0] for r in t[name]])
if "other" in t:
    show("pipeplcg / other: solve", [t["pipeplcg"][r][0] / t["other"][r][0] for r in t["other"]])
    show("pipeplcg / other: fused pass", [t["pipeplcg"][r][1] / t["other"][r][1] for r in t["other"]])
EOF
