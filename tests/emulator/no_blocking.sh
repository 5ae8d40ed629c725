#!/bin/sh
# No blocking reduction inside the iterations: under the emulator (which counts every MPI_Allreduce),
# a pipelined solve of 8 iterations makes exactly as many blocking reductions as one of 4 (set-up and
# the final checks only), with jacobi and with asddic (whose ASDD sweeps multiply by A), flat and
# hybrid. chrongear, whose one reduction per iteration is blocking by design, makes exactly 4 more.
# A blocking reduction inside the PC or the SpMV would stall the reductions they are meant to overlap.
# usage: no_blocking.sh <mpiexec> <libpipeksp_emu.so> <ex1>
set -u
mpiexec=$1 emu=$2 ex1=$3
st=$(mktemp -d)
trap 'rm -rf "$st"' EXIT
bad=0
ar() { # ranks threads its options... -> blocking reductions on rank 0
  np=$1 nt=$2 its=$3
  shift 3
  rm -f "$st"/s*
  "$mpiexec" --oversubscribe -n "$np" -x OMP_NUM_THREADS="$nt" -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P=64 -x PIPEKSP_EMU_ALPHA_US=1 \
    -x PIPEKSP_EMU_STATS="$st/s" "$ex1" -cube_n 9 -ksp_max_it "$its" -ksp_pipe_progress poll -pipeksp_threads "$nt" \
    -pipeksp_threads_min_rows 0 "$@" >/dev/null 2>&1
  sed -n 's/^pipeksp_emu rank=0 .* ar=\([0-9]*\) .*/\1/p' "$st"/s* 2>/dev/null | head -1
}
for lay in "2 1" "2 2"; do
  # pipeplcg at a fixed depth 2: its basis pipeline (auto, its default, chooses depth 0 here, Gropp's CG, as pipegropp above)
  for ksp in pipegv pipegropp "pipeplcg -ksp_pipe_depth 2" chrongear; do
    for pc in "-pc_type jacobi" "-pc_type asddic" "-pc_type asddic -pc_asddic_local_blocks 2"; do
      a4=$(ar $lay 4 -ksp_type $ksp $pc)
      a8=$(ar $lay 8 -ksp_type $ksp $pc)
      extra=0
      [ "$ksp" = chrongear ] && extra=4
      echo "ranks x threads $lay, $ksp $pc: blocking reductions ${a4:-?} (4 iterations), ${a8:-?} (8 iterations)"
      [ -n "$a4" ] && [ -n "$a8" ] && [ $((a8 - a4)) -eq $extra ] || { echo "FAILED: expected $extra more blocking reductions"; bad=1; }
    done
  done
done
[ $bad = 0 ] && echo "no blocking reduction check passed"
