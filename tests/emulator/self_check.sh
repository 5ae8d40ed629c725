#!/bin/sh
# PIPEKSP_EMU_SELF: a one-rank run pays the P_sim reduction latency only with PIPEKSP_EMU_SELF=1 (the
# per-process mode for hybrid runs): its pipegv solve then counts one non-blocking reduction per
# iteration (and one more), every one with the model's latency; without it, none. A bad value is refused.
# usage: self_check.sh <mpiexec> <libpipeksp_emu.so> <ex1>
set -u
mpiexec=$1 emu=$2 ex1=$3
st=$(mktemp -d)
trap 'rm -rf "$st"' EXIT
bad=0
for self in 0 1; do
  out=$("$mpiexec" -n 1 -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P=4096 -x PIPEKSP_EMU_ALPHA_US=3 -x PIPEKSP_EMU_SELF=$self \
    -x PIPEKSP_EMU_STATS="$st/s$self" "$ex1" -cube_n 7 -ksp_type pipegv -pc_type jacobi -ksp_pipe_progress poll 2>&1)
  its=$(echo "$out" | sed -n 's/.*converged after \([0-9]*\) iterations.*/\1/p')
  nb=$(cat "$st"/s$self* 2>/dev/null | sed -n 's/.* nb=\([0-9]*\) nb_model_us=\([0-9.]*\) .*/\1 \2/p')
  echo "PIPEKSP_EMU_SELF=$self: iterations ${its:-?}, non-blocking reductions and model us: ${nb:-none}"
  [ -n "$its" ] || { echo "FAILED: no convergence"; bad=1; continue; }
  set -- $nb
  if [ "$self" = 0 ]; then
    [ "${1:-x}" = 0 ] || { echo "FAILED: one-rank communicator emulated without PIPEKSP_EMU_SELF"; bad=1; }
  else
    [ "${1:-0}" -ge "$its" ] || { echo "FAILED: expected at least $its emulated reductions, got ${1:-0}"; bad=1; }
    awk -v n="${1:-0}" -v m="${2:-0}" 'BEGIN { exit !(m >= 0.99 * n * 36) }' || { echo "FAILED: model latency ${2:-0} us below 36 us per reduction"; bad=1; }
  fi
done
out=$("$mpiexec" -n 1 -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P=64 -x PIPEKSP_EMU_SELF=yes "$ex1" -cube_n 3 2>&1)
echo "$out" | grep -q 'PIPEKSP_EMU_SELF' || { echo "FAILED: PIPEKSP_EMU_SELF=yes not refused"; bad=1; }
[ $bad = 0 ] && echo "emulator self check passed"
