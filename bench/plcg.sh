#!/bin/bash
# Deep pipelines, part of `make bench`: per-iteration time of pipeplcg at depths l = 1..4 against
# PETSc's cg, pipecg and pipelcg (its defaults) and our pipegv, in the SAME runs (bench_cube interleaves all
# configurations over the repetitions), on the cube with bjacobi+icc, under the EMULATED allreduce latency
# of P_sim nodes up to 131,072 -- EMULATION, not a cluster measurement (bench/README.md).
# Per-hop latency of a two-level-pod fat tree, per round (PIPEKSP_EMU_ALPHA_US list; the per-round form is
# what agreed with SimGrid, bench/smpi): partners inside a 32-host leaf switch 1.5 us, inside a 1,024-host
# pod 2.5 us, across the spine 3.5 us; jitter 0.2 us per hop. Noise rows add the OS-noise model: a rank of
# P_sim descheduled for PIPEKSP_PLCG_NOISE_US (200) with chance PIPEKSP_PLCG_NOISE_PROB (1e-6) per reduction.
# usage: bash bench/plcg.sh <builddir>; environment: PIPEKSP_PLCG_PSIM ["1 1024 4096 16384 65536 131072"],
#   PIPEKSP_PLCG_NOISE_PSIM ["16384 131072"], PIPEKSP_PLCG_REPS [15], PIPEKSP_PLCG_N [9], PIPEKSP_BENCH_NP,
#   PIPEKSP_PLCG_OUT [bench/results], PIPEKSP_PLCG_POLL_US [2: poll interval of pipegv and pipeplcg alike, pipeplcg's
#   default; a round of a reduction starts only at a poll, so polls sparser than a hop (1.5-3.5 us) hold rounds back]
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: bash bench/plcg.sh <builddir>"; exit 2; }
build=$(cd "$1" && pwd) || exit 2
cores=$(nproc 2>/dev/null || echo 2)
np=${PIPEKSP_BENCH_NP:-$((cores < 4 ? cores : 4))}
psims=${PIPEKSP_PLCG_PSIM:-"1 1024 4096 16384 65536 131072"}
npsims=${PIPEKSP_PLCG_NOISE_PSIM:-"16384 131072"}
reps=${PIPEKSP_PLCG_REPS:-15}
n=${PIPEKSP_PLCG_N:-9}
nus=${PIPEKSP_PLCG_NOISE_US:-200}
nprob=${PIPEKSP_PLCG_NOISE_PROB:-1e-6}
poll=${PIPEKSP_PLCG_POLL_US:-2}
alphas="1.5,1.5,1.5,1.5,1.5,2.5,2.5,2.5,2.5,2.5,3.5"
emu=$build/libpipeksp_emu.so drv=$build/bench/bench_cube
for f in "$emu" "$drv"; do [ -e "$f" ] || { echo "missing $f: build first"; exit 1; }; done
out=${PIPEKSP_PLCG_OUT:-$here/results}
mkdir -p "$out"
csv=$out/plcg_$(date -u +%Y%m%dT%H%M%SZ).csv
cfg=$(mktemp)
trap 'rm -f "$cfg"' EXIT
common="-ksp_rtol 1e-8 -ksp_norm_type natural -pc_type bjacobi -sub_pc_type icc" # natural: PETSc's pipelcg has no other
{
  echo "cg|-ksp_type cg $common"
  echo "pipecg|-ksp_type pipecg $common"
  echo "pipelcg|-ksp_type pipelcg $common"
  echo "pipegv|-ksp_type pipegv -ksp_pipe_progress poll -ksp_pipe_poll_interval $poll $common"
  for l in 1 2 3 4; do echo "plcg-l$l|-ksp_type pipeplcg -ksp_pipe_depth $l -ksp_pipe_progress poll -ksp_pipe_poll_interval $poll $common"; done
} > "$cfg"
echo "Deep pipelines (EMULATED reduction latency): $np ranks, cube $n^3, bjacobi+icc, $reps repetitions, per-round alpha {$alphas} us, poll interval $poll us"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) ($cores cores)"
echo "pc,psim,label,rep,its,seconds,seconds_per_it,red_model_s,red_exposed_s,hidden,ok,pos,noise" > "$csv" # bench_cube rows, then ours
runrow() { # P noise(0|1)
  local P=$1 nz=$2 extra=()
  [ "$nz" = 1 ] && extra=(-x PIPEKSP_EMU_NOISE_US="$nus" -x PIPEKSP_EMU_NOISE_PROB="$nprob")
  local t0 log
  t0=$(date +%s)
  log=$(mpiexec --oversubscribe -n "$np" -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P="$P" -x PIPEKSP_EMU_ALPHA_US="$alphas" \
    -x PIPEKSP_EMU_JITTER_US=0.2 -x PIPEKSP_EMU_SEED=12345 -x PIPEKSP_EMU_P2P=point "${extra[@]}" \
    "$drv" -bench_config "$cfg" -bench_reps "$reps" -bench_tag "bjacobi,$P" -cube_n "$n" 2>&1)
  echo "$log" | grep -E "^bjacobi,$P,[^,]+,[0-9]+," | sed "s/\$/,$nz/" >> "$csv"
  echo "$log" | grep "FAILED" | sed 's/^/  /'
  echo "  P_sim $P$([ "$nz" = 1 ] && echo " +noise"): $(($(date +%s) - t0)) s"
}
for P in $psims; do runrow "$P" 0; done
for P in $npsims; do runrow "$P" 1; done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
/usr/bin/python3 "$here/plcg_report.py" "$csv" || echo "report FAILED"
echo "results: $csv"
