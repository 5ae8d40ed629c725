#!/bin/bash
# Seconds per CG iteration of pipegropp / pipegv / chrongear under each progress policy, against
# PETSc's cg, cg -ksp_cg_single_reduction, groppcg and pipecg: same cube problem, same PC, 4 ranks,
# one run each; time = KSPSolve from -log_view divided by the iteration count, ratios vs cg.
# usage: [NP=4] [REPEAT=1] bench/ksp_policies.sh [build dir] [cube nodes per side] [PC options...]
#   e.g. bench/ksp_policies.sh build 24 -pc_type jacobi
# EMU_P=<nodes> runs under the reduction-latency emulator (tools/emulator, LD_PRELOAD): every allreduce
# costs a recursive-doubling allreduce over EMU_P nodes with EMU_ALPHA_US (default 5) per hop, progressed
# only inside MPI calls (EMU_PROGRESS=calls, default) -- EMULATION of a big machine, not a measurement.
# REPEAT=k runs the whole table k times (interleaved) and keeps each row's fastest run: on a shared
# machine that filters out other people's load better than one run.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}; [ $# -gt 0 ] && shift
n=${1:-24}; [ $# -gt 0 ] && shift
pc=("$@"); [ ${#pc[@]} -eq 0 ] && pc=(-pc_type jacobi)
np=${NP:-4}
repeat=${REPEAT:-1}
emu=()
if [ -n "${EMU_P:-}" ]; then
  [ -f "$build/libpipeksp_emu.so" ] || { echo "missing $build/libpipeksp_emu.so"; exit 1; }
  emu=(-x LD_PRELOAD="$build/libpipeksp_emu.so" -x PIPEKSP_EMU_P="$EMU_P" -x PIPEKSP_EMU_ALPHA_US="${EMU_ALPHA_US:-5}"
       -x PIPEKSP_EMU_PROGRESS="${EMU_PROGRESS:-calls}")
fi
exe=$build/tests/pipeksp/tutorials/ex1
[ -x "$exe" ] || { echo "missing $exe: build first (cmake --build $build)"; exit 1; }

run() { # label, options...
  local label=$1; shift
  local out its t
  out=$(mpiexec -n "$np" "${emu[@]}" "$exe" -cube_n "$n" "${pc[@]}" -ksp_rtol 1e-8 -ksp_converged_reason -log_view -ksp_view "$@" 2>&1)
  # the policy that really ran (auto decides; thread falls back to poll without MPI_THREAD_MULTIPLE)
  local ran=$(echo "$out" | sed -n 's/^ *progress: \([a-z]*\).*/\1/p' | head -1)
  case $label in */*) [ -n "$ran" ] && [ "${label#*/}" != "$ran" ] && label="$label->$ran" ;; esac
  its=$(echo "$out" | sed -n 's/.*Linear solve converged due to [A-Z_]* iterations \([0-9]*\).*/\1/p' | head -1)
  [ -z "$its" ] && its=$(echo "$out" | sed -n 's/.*after \([0-9]*\) iterations.*/\1/p' | head -1)
  t=$(echo "$out" | awk '$1 == "KSPSolve" {print $4; exit}')
  if [ -z "$its" ] || [ -z "$t" ] || [ "$its" = 0 ]; then
    echo "$label: run failed"; echo "$out" | tail -5; return
  fi
  echo "$label $its $t"
}

echo "# cube ${n}^3 nodes, $np ranks, PC: ${pc[*]}, rtol 1e-8 ($(date -u +%FT%TZ), $(nproc) cores)"
[ -n "${EMU_P:-}" ] && echo "# EMULATED allreduce latency: $EMU_P nodes, ${EMU_ALPHA_US:-5} us/hop, progress=${EMU_PROGRESS:-calls}"
table() {
  run cg -ksp_type cg
  run cg-single-red -ksp_type cg -ksp_cg_single_reduction -ksp_norm_type natural
  run groppcg -ksp_type groppcg
  run pipecg -ksp_type pipecg
  for t in pipegropp pipegv; do
    for p in none poll thread auto blocking; do run "$t/$p" -ksp_type $t -ksp_pipe_progress $p; done
  done
  run chrongear/blocking -ksp_type chrongear
}
for ((k = 0; k < repeat; k++)); do table; done |
  awk 'NF == 3 { t = $3 / $2; if (!($1 in best)) { order[n++] = $1; its[$1] = $2; best[$1] = t } else if (t < best[$1]) best[$1] = t; next }
       { print }
       END { base = best["cg"]; for (i = 0; i < n; i++) { k = order[i];
             printf "%-22s its %4d  %10.3e s/it  ratio vs cg %5.2f\n", k, its[k], best[k], best[k] / base } }'
