#!/bin/bash
# Hybrid MPI+OpenMP benchmark: per-iteration time of pipegv on the GeoFEM/Cube as
#   hyb-static / hyb-dynamic : 1 rank x 2 threads (-pipeksp_threads 2, SpMV schedule static / dynamic)
#   hyb-blocks               : the same, dynamic, asddic only, with -pc_asddic_local_blocks 2 (each
#                              thread sweeps its own block in RCM order) instead of the default CM-RCM colours
#   flat-pipegv              : 2 ranks x 1 thread (flat MPI, ours)
#   cg, pipecg               : PETSc's own on 2 ranks x 1 thread
# as ratios to flat-pipegv, for asddic and jacobi; then, under the reduction-latency EMULATOR at P_sim
# (EMULATED, see bench/README.md), flat 2x1 against hybrid 2x2 and 1x2; then the SpMV's GB/s against a
# STREAM triad measured in the same process, for 1 and 2 threads (bench/hybrid_bandwidth.c). Not a timed test: a benchmark to run by hand.
#
# Different layouts need different launches, so "one run" is one invocation of this script: the
# launches are interleaved in an order rotated every round, and each launch solves -bench_reps times.
# The report gives, beside the ratio of medians over the run, a paired ratio (median and IQR over rounds
# of the ratio of one round's medians: this VM's speed drifts over minutes) and, under the emulator,
# the exposed reduction latency per rank and iteration.
# Every solve is a fixed number of iterations (-ksp_max_it, convergence test skipped), so the 'ok'
# column of bench_cube (error vs exact solution) is 0 by design; iteration identity between 1 and 2
# threads is checked by tests/threads.
#
# usage: bash bench/hybrid.sh <builddir>
# environment [default]: HYB_SIZES ["33 65"], HYB_PCS ["asddic jacobi"], HYB_ROUNDS [3], HYB_ROUNDS_65 [2],
#   HYB_REPS [3] solves per launch, HYB_ITS [30], HYB_PSIM [4096] (empty: skip the emulated part),
#   HYB_EMU_N [33], HYB_BW_N [65] (empty: skip the bandwidth part),
#   HYB_SMALL ["13 17"] small cubes (strong scaling: the reduction is a large part of an iteration), timed
#   with and without the emulator, 1x2 against flat 2x1, HYB_ITS_SMALL [100] iterations (empty: skip)
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: bash bench/hybrid.sh <builddir>"; exit 2; }
build=$(cd "$1" && pwd) || exit 2
sizes=${HYB_SIZES:-"33 65"}
pcs=${HYB_PCS:-"asddic jacobi"}
rounds=${HYB_ROUNDS:-3}
rounds65=${HYB_ROUNDS_65:-2}
reps=${HYB_REPS:-3}
its=${HYB_ITS:-30}
psim=${HYB_PSIM-4096}
emun=${HYB_EMU_N:-33}
bwn=${HYB_BW_N-65}
small=${HYB_SMALL-"13 17"}
itssmall=${HYB_ITS_SMALL:-100}
drv=$build/bench/bench_cube
emu=$build/libpipeksp_emu.so
bwx=$build/bench/hybrid_bandwidth
for f in "$drv" "$emu" "$bwx"; do [ -e "$f" ] || { echo "missing $f: build first"; exit 1; }; done
out=$here/results
mkdir -p "$out"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
csv=$out/hybrid_$stamp.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "layout,n,pc,psim,label,rep,its,seconds,seconds_per_it,red_model_s,red_exposed_s,ranks,round" > "$csv"
echo "PipeKSP hybrid benchmark: $(nproc) cores (shared: timings are noisy), started $(date -u +%H:%M:%SZ)"
echo "  cube sizes {$sizes}, PCs {$pcs}, $its iterations per solve, $reps solves per launch"

common="-ksp_max_it $its -ksp_convergence_test skip -ksp_norm_type unpreconditioned"
pcopts() { case $1 in asddic) echo "-pc_type asddic" ;; *) echo "-pc_type $1" ;; esac; }

# one launch: layout name, ranks, threads, schedule, n, pc, psim, config lines...
launch() {
  local lay=$1 np=$2 nt=$3 sch=$4 n=$5 pc=$6 P=$7
  shift 7
  printf '%s\n' "$@" > "$tmp/cfg"
  local emuenv=()
  [ "$P" != 1 ] && emuenv=(-x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P="$P" -x PIPEKSP_EMU_ALPHA_US=3 -x PIPEKSP_EMU_JITTER_US=0.5 -x PIPEKSP_EMU_SEED=12345 -x PIPEKSP_EMU_PROGRESS=calls -x PIPEKSP_EMU_P2P=point -x PIPEKSP_EMU_SELF=1)
  mpiexec --bind-to none -n "$np" -x OMP_NUM_THREADS="$nt" "${emuenv[@]}" "$drv" -bench_config "$tmp/cfg" -bench_reps "$reps" \
    -bench_tag "$lay,$n,$pc,$P" -cube_n "$n" -pipeksp_threads "$nt" -pipeksp_spmv_schedule "$sch" 2>&1 |
    grep -E "^$lay,$n,$pc,$P,[^,]+,[0-9]+," | cut -d, -f1-11 | sed "s/\$/,$np,$r/" >> "$csv"
}

run_set() { # n pc psim rounds layouts...
  local n=$1 pc=$2 P=$3 R=$4
  shift 4
  local lays=("$@") k r blk=()
  for ((r = 0; r < R; r++)); do
    for ((k = 0; k < ${#lays[@]}; k++)); do
      local L=${lays[$(((k + r) % ${#lays[@]}))]} pco
      pco="$(pcopts "$pc") $common"
      blk=()
      [ "$pc" = asddic ] && blk=("hyb-blocks|-ksp_type pipegv -ksp_pipe_progress poll $pco -pc_asddic_local_blocks 2")
      case $L in
        hyb-static) launch hyb-static 1 2 static "$n" "$pc" "$P" "hyb-static|-ksp_type pipegv -ksp_pipe_progress poll $pco" ;;
        hyb-dynamic) launch hyb-dynamic 1 2 dynamic "$n" "$pc" "$P" "hyb-dynamic|-ksp_type pipegv -ksp_pipe_progress poll $pco" "${blk[@]}" ;;
        hyb2x2) launch hyb2x2 2 2 dynamic "$n" "$pc" "$P" "hyb2x2-pipegv|-ksp_type pipegv -ksp_pipe_progress poll $pco" "${blk[@]/#hyb-blocks/hyb2x2-blocks}" ;;
        flat) launch flat 2 1 dynamic "$n" "$pc" "$P" "flat-pipegv|-ksp_type pipegv -ksp_pipe_progress poll $pco" "cg|-ksp_type cg $pco" "pipecg|-ksp_type pipecg $pco" ;;
        flatpg) launch flat 2 1 dynamic "$n" "$pc" "$P" "flat-pipegv|-ksp_type pipegv -ksp_pipe_progress poll $pco" ;;
      esac
    done
  done
}

for n in $sizes; do
  R=$rounds
  [ "$n" -ge 65 ] && R=$rounds65
  for pc in $pcs; do
    t0=$(date +%s)
    run_set "$n" "$pc" 1 "$R" hyb-static hyb-dynamic flat
    echo "  n=$n $pc (no emulation): $(($(date +%s) - t0)) s"
  done
done
if [ -n "$psim" ]; then
  for pc in $pcs; do
    t0=$(date +%s)
    run_set "$emun" "$pc" "$psim" "$rounds" hyb-dynamic hyb2x2 flatpg
    echo "  n=$emun $pc EMULATED P_sim=$psim: $(($(date +%s) - t0)) s"
  done
fi
if [ -n "$small" ]; then
  # below the floor of both PCs (asddic reaches it after about 170 iterations at 13^3 and 17^3)
  common="-ksp_max_it $itssmall -ksp_convergence_test skip -ksp_norm_type unpreconditioned"
  for n in $small; do
    for pc in $pcs; do
      t0=$(date +%s)
      run_set "$n" "$pc" 1 "$rounds" hyb-dynamic flatpg
      [ -n "$psim" ] && run_set "$n" "$pc" "$psim" "$rounds" hyb-dynamic flatpg
      echo "  n=$n $pc small, $itssmall iterations, P_sim 1${psim:+ and EMULATED $psim}: $(($(date +%s) - t0)) s"
    done
  done
fi

/usr/bin/python3 - "$csv" <<'EOF'
import csv, sys, statistics as st
rows = list(csv.DictReader(open(sys.argv[1])))
def q(v):
    v = sorted(v)
    if len(v) < 2: return v[0], 0.0
    qs = st.quantiles(v, n=4, method="inclusive")
    return st.median(v), qs[2] - qs[0]
groups, exposed, rounds = {}, {}, {}
for r in rows:
    key, t = (r["n"], r["pc"], r["psim"]), float(r["seconds_per_it"])
    groups.setdefault(key, {}).setdefault(r["label"], []).append(t)
    rounds.setdefault(key, {}).setdefault(r["label"], {}).setdefault(r["round"], []).append(t)
    # the emulator's exposed reduction latency, summed over ranks: per rank and iteration
    exposed.setdefault(key, {}).setdefault(r["label"], []).append(float(r["red_exposed_s"]) / (int(r["ranks"]) * max(1, int(r["its"]))))
def paired(key, lab):
    # this VM's speed drifts over minutes: the ratio of the two medians of one round (launched one after
    # another, seconds apart) cancels the drift that a ratio of medians over the whole run keeps
    g, b = rounds[key][lab], rounds[key].get("flat-pipegv", {})
    return q([st.median(g[k]) / st.median(b[k]) for k in g if k in b] or [float("nan")])
print("\nper-iteration time, median [IQR] over all solves; ratio = median / median(flat-pipegv); paired = median [IQR]")
print("over rounds of the ratio of the round's medians (launched one after another)  (P_sim > 1: EMULATED latency;")
print("exposed = median reduction latency per rank and iteration that the emulator modelled after a wait began)")
print("%-4s %-7s %-6s %-15s %6s %12s %10s %7s %16s %11s" % ("n", "pc", "P_sim", "label", "solves", "s/it", "IQR", "ratio", "paired [IQR]", "exposed us"))
for (n, pc, P), g in groups.items():
    base = st.median(g["flat-pipegv"]) if "flat-pipegv" in g else None
    for lab in ["hyb-static", "hyb-dynamic", "hyb-blocks", "hyb2x2-pipegv", "hyb2x2-blocks", "flat-pipegv", "cg", "pipecg"]:
        if lab not in g: continue
        m, iqr = q(g[lab])
        pm, piqr = paired((n, pc, P), lab)
        ex = "%11.2f" % (1e6 * st.median(exposed[(n, pc, P)][lab])) if P != "1" else "%11s" % "-"
        print("%-4s %-7s %-6s %-15s %6d %12.4e %10.2e %7.3f %7.3f [%6.3f] %s" % (n, pc, P, lab, len(g[lab]), m, iqr, m / base if base else float("nan"), pm, piqr, ex))
EOF

if [ -n "$bwn" ]; then
  echo
  echo "SpMV bandwidth, 1 rank, cube $bwn^3 (bench/hybrid_bandwidth: triad and SpMV with 1 and 2 threads interleaved in one process):"
  OMPI_ALLOW_RUN_AS_ROOT=1 mpiexec --bind-to none -n 1 "$bwx" -cube_n "$bwn" -rounds 15 2>&1 | sed 's/^/  /'
fi
echo "results: $csv (finished $(date -u +%H:%M:%SZ))"
