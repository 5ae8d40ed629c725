#!/usr/bin/env bash
# What one poll costs: MPI_Test on a pending MPI_Iallreduce with Open MPI alone, and with the emulator
# preloaded (pass-through at P_sim 1, and at P_sim 4096, EMULATED), 2 ranks. The difference is the
# emulator's own cost per intercepted call, which its EMULATED benchmark figures count as compute.
# usage: bash bench/emu_cost.sh [builddir]   (PIPEKSP_EMU_COST_TRIALS, default 300)
set -euo pipefail
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
build=${1:-build}
exe=$build/bench/emu_cost emu=$build/libpipeksp_emu.so trials=${PIPEKSP_EMU_COST_TRIALS:-300}
for f in "$exe" "$emu"; do [ -e "$f" ] || { echo "emu_cost.sh: $f missing: build first (make build)" >&2; exit 2; }; done
run() { mpiexec -n 2 "$@" "$exe" "$trials" 200 | sed -n 's/.*: \([0-9.]*\) ns per call.*/\1/p'; }
# rotated: each configuration three times, interleaved, the median of the three medians kept
declare -A res
for r in 1 2 3; do
  res[ompi]+="$(run) "
  res[emu1]+="$(run -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P=1) "
  res[emu4096]+="$(run -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P=4096) "
done
med() { echo "$1" | tr ' ' '\n' | grep . | sort -g | sed -n 2p; }
o=$(med "${res[ompi]}") e1=$(med "${res[emu1]}") e4=$(med "${res[emu4096]}")
printf '%-44s %8s ns   (runs: %s)\n' "Open MPI alone" "$o" "${res[ompi]}"
printf '%-44s %8s ns   (runs: %s)\n' "emulator preloaded, P_sim 1 (pass-through)" "$e1" "${res[emu1]}"
printf '%-44s %8s ns   (runs: %s)\n' "emulator, P_sim 4096 (EMULATED)" "$e4" "${res[emu4096]}"
awk -v o="$o" -v e="$e4" 'BEGIN { printf "emulator cost per intercepted MPI_Test: %.0f ns (%.2fx Open MPI'"'"'s)\n", e - o, e / o }'
