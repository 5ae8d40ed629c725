#!/usr/bin/env bash
# `make run`: PETSc's CG variants and ours on the default GeoFEM/Cube, without latency and under the EMULATED
# allreduce latency of 4,096 nodes, as ratios to cg in the same repetition, with a noise check and one verdict
# sentence per PC (bench/run_default.py; bench/README.md says how to read it). About 30-60 s on a quiet machine.
# usage: bash bench/run-default.sh <builddir>
# environment: PIPEKSP_RUN_N (nodes per direction, default 9: small per rank, as in a strong-scaled run, so that
#              the latency is a visible part of an iteration), PIPEKSP_RUN_NP (ranks, 2), PIPEKSP_RUN_RTOL (1e-8),
#              PIPEKSP_RUN_REPS (rotated repetitions, 15; doubled when the load average is above
#              PIPEKSP_RUN_BUSY, half the cores), PIPEKSP_RUN_PSIM (emulated nodes, 4096; 1 = no EMULATED
#              columns), PIPEKSP_RUN_PCS ("jacobi asddic"), PIPEKSP_RUN_TIMEOUT (seconds per launch, 300),
#              PIPEKSP_RUN_EMU (the shim, <builddir>/libpipeksp_emu.so)
# Without a usable emulator the table says so and has no EMULATED columns: that is not a failure.
# Exit status: 0 when every solve converged to the exact solution, 1 when any row says FAILED, 2 on a usage error.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

BUILD=${1:-build}
DRV="$BUILD/bench/bench_cube"
if [ ! -x "$DRV" ]; then
  echo "run-default.sh: $DRV not found or not executable; build first (make build, or cmake --build $BUILD)" >&2
  exit 2
fi
MPIEXEC=${MPIEXEC:-mpiexec}
command -v "$MPIEXEC" >/dev/null || { echo "run-default.sh: $MPIEXEC not found (install openmpi-bin)" >&2; exit 2; }
exec /usr/bin/python3 "$(dirname "$0")/run_default.py" "$DRV" "${PIPEKSP_RUN_EMU:-$BUILD/libpipeksp_emu.so}" "$MPIEXEC"
