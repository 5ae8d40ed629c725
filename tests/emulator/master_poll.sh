#!/bin/sh
# The master thread of a team polls at every work item by default (progress.c): a 1-rank x 2-thread
# pipegv under the emulator (PIPEKSP_EMU_SELF=1, reductions of 12 rounds x 10 ms, pending through every
# SpMV) must make at least one MPI_Test per master work item of each overlapped SpMV (static schedule:
# the master owns half the items). An interval the user gives throttles the master too: 1e6 us leaves
# at most one test per reduction. With asddic's local blocks the master polls in its sweeps as well, so
# the default makes more tests there than with jacobi.
# usage: master_poll.sh <mpiexec> <libpipeksp_emu.so> <ex1>
set -u
mpiexec=$1 emu=$2 ex1=$3
n=12 chunk=16 its=4
rows=$((3 * n * n * n))
items=$(((rows + chunk - 1) / chunk))
need=$((its * (items / 2) * 9 / 10))
bad=0
polls() { # pc options, interval options -> "polls reductions"
  "$mpiexec" -n 1 -x OMP_NUM_THREADS=2 -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P=4096 -x PIPEKSP_EMU_ALPHA_US=3000 -x PIPEKSP_EMU_SELF=1 \
    "$ex1" -cube_n $n -ksp_type pipegv -ksp_pipe_progress poll -pipeksp_threads 2 -pipeksp_threads_min_rows 0 \
    -pipeksp_spmv_schedule static -pipeksp_spmv_chunk $chunk -ksp_max_it $its -ksp_view $1 $2 2>&1 |
    sed -n 's/.*last solve: reductions \([0-9]*\), MPI_Test polls \([0-9]*\),.*/\2 \1/p'
}
for pc in "-pc_type jacobi" "-pc_type asddic -pc_asddic_local_blocks 2"; do
  set -- $(polls "$pc" "")
  dpolls=${1:--1} red=${2:-0}
  set -- $(polls "$pc" "-ksp_pipe_poll_interval 1e6")
  tpolls=${1:--1} tred=${2:-0}
  echo "$pc: default interval $dpolls MPI_Test polls ($red reductions), interval 1e6 us $tpolls ($tred reductions); need >= $need by default"
  [ "$dpolls" -ge "$need" ] || { echo "FAILED: the master did not poll at every work item"; bad=1; }
  [ "$tpolls" -ge 0 ] && [ "$tpolls" -le "$tred" ] || { echo "FAILED: the user's interval did not throttle the master"; bad=1; }
  case $pc in *asddic*) [ "$dpolls" -gt "${jpolls:-0}" ] || { echo "FAILED: no master polls in asddic's sweeps"; bad=1; } ;; *) jpolls=$dpolls ;; esac
done
[ $bad = 0 ] && echo "master poll check passed"
