#!/bin/bash
# A sequence of 10 solves whose operator changes values (A + c_k I on the cube, the same Mat, as a time
# stepper or Newton has): PC applications, iterations and KSPSolve time per solve (solves 2-10) for cg,
# pipegv, pipeplcg (depth 2) and pipeplcg without the reuse of the previous solve's Ritz values (-ksp_pipe_eig_reuse
# 0: an estimate of 10 CG steps at every changed operator, the behaviour before 2026-11-26). Repetitions
# rotate the order of the types; medians with the interquartile range, and the time ratio to cg from the
# same run. Not emulated: plain MPI on this machine.
#   bash bench/sequence.sh [build]      (PIPEKSP_SEQ_REPS, default 5)
set -euo pipefail
BUILD=${1:-build}
EX=$BUILD/tests/pipeksp/tests/ex21
REPS=${PIPEKSP_SEQ_REPS:-5}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
[ -x "$EX" ] || { echo "missing $EX: build first (make build)"; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export TMPDIR=$TMP
TYPES=(cg pipegv pipeplcg pipeplcg-noreuse)
# name | ranks | options
CASES=("gamg 17^3|1|-cube_n 17 -cube_mat_type aij -pc_type gamg"
  "asddic 9^3|2|-cube_n 9 -pc_type asddic"
  "hypre 9^3|2|-cube_n 9 -cube_mat_type aij -pc_type hypre")
for c in "${CASES[@]}"; do
  IFS='|' read -r name np opts <<<"$c"
  if [[ $opts == *hypre* ]] && ! mpiexec -n 1 "$EX" -cube_n 3 $opts -types cg -solves 1 >/dev/null 2>&1; then
    echo "$name: skipped (this PETSc has no hypre)"
    continue
  fi
  for ((r = 0; r < REPS; r++)); do
    rot=("${TYPES[@]:r%4}" "${TYPES[@]:0:r%4}")
    list=$(IFS=,; echo "${rot[*]}")
    # depth 2: auto, pipeplcg's default, chooses depth 0 on this machine (no latency to hide), which has no shifts
    mpiexec -n "$np" "$EX" $opts -ksp_rtol 1e-8 -ksp_pipe_depth 2 -types "$list" | awk -v rep=$r -v name="$name" \
      '$2 ~ /^[0-9.]+$/ && NF == 5 { print name "|" $1 "|" $2 "|" $3 "|" $4 "|" rep }' >>"$TMP/rows"
  done
done
python3 - "$TMP/rows" <<'EOF'
import sys, statistics as st
rows = [l.rstrip("\n").split("|") for l in open(sys.argv[1])]
def q(v):
    v = sorted(v); n = len(v)
    if n < 2: return v[0], 0.0
    qs = st.quantiles(v, n=4)
    return st.median(v), qs[2] - qs[0]
print("10 solves of A + c_k I (same Mat, new values), solves 2-10; median [IQR] over rotated repetitions")
print("%-11s %-17s %9s %9s %16s %9s" % ("case", "type", "PC/solve", "its/solve", "ms/solve", "time/cg"))
for case in dict.fromkeys(r[0] for r in rows):
    rc = [r for r in rows if r[0] == case]
    cg = {r[5]: float(r[4]) for r in rc if r[1] == "cg"}
    for t in dict.fromkeys(r[1] for r in rc):
        rt = [r for r in rc if r[1] == t]
        ms, iqr = q([float(r[4]) for r in rt])
        ratio, _ = q([float(r[4]) / cg[r[5]] for r in rt if r[5] in cg])
        print("%-11s %-17s %9.1f %9.1f %9.3f [%5.3f] %8.2fx" % (case, t, float(rt[0][2]), float(rt[0][3]), ms, iqr, ratio))
EOF
