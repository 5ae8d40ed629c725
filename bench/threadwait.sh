#!/bin/bash
# The thread progress policy's wait in wall time (a timing check, so a benchmark to run by hand on a quiet
# machine, not a test): tests/ex6 with -timing solves pipegropp and pipegv with the helper thread's poll
# interval 0, 1 s and 1e24 s, and fails a solve that takes more than 3x (+0.5 s) the interval-0 one, as a wait
# that slept out the interval would. tests/ex6's own entry checks the same thing by counting MPI_Test calls.
#
# usage: bash bench/threadwait.sh <builddir> [cube nodes per direction, 8] [ranks, 2]
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
[ $# -ge 1 ] || { echo "usage: bash bench/threadwait.sh <builddir> [n] [ranks]"; exit 2; }
exe=$1/tests/pipeksp/tests/ex6
[ -x "$exe" ] || { echo "missing $exe: build first (cmake --build $1)"; exit 1; }
mpiexec -n "${3:-2}" "$exe" -cube_n "${2:-8}" -pc_type jacobi -timing
