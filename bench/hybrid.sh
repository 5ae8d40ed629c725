#!/bin/bash
# Hybrid MPI+OpenMP benchmark: per-iteration time of pipegv on the GeoFEM/Cube as
#   hyb-static / hyb-dynamic : 1 rank x 2 threads (SpMV schedule static / dynamic)
#   hyb-blocks               : the same, dynamic, asddic only, with -pc_asddic_local_blocks 2 (each
#                              thread sweeps its own block in RCM order) instead of the default CM-RCM colours
#   flat-pipegv              : 2 ranks x 1 thread (flat MPI, ours): the base of every ratio
#   flat-cmrcm               : the same, asddic only, with the CM-RCM ordering that 1 x 2 uses by default
#                              (flat uses RCM): hybrid against it isolates the threads from the ordering
#   cg, pipecg               : PETSc's own on 2 ranks x 1 thread
# for asddic and jacobi, without and with the reduction-latency EMULATOR at P_sim (EMULATED, see
# bench/README.md); then the SpMV's GB/s against a STREAM triad measured in the same process, for 1 and
# 2 threads (bench/hybrid_bandwidth.c). Not a timed test: a benchmark to run by hand.
#
# One launch per (cube, PC, P_sim) holds every layout: 2 ranks with --bind-to none; the flat
# configurations run on both, the hybrid ones on rank 0 alone with 2 threads while rank 1 sleeps
# (bench_cube's -bench_ranks 1; after each such solve rank 0 waits until its idle OpenMP threads have
# stopped spinning). Each repetition solves every configuration once, in a seeded shuffled order, so a
# hybrid solve and the flat one it is compared with ran within a second or two of each other on the same
# cores. A launch's ratios still move by a few per cent from one launch to the next (where its pages and
# threads land), so every case is launched HYB_LAUNCHES times, minutes apart. The report gives, per
# configuration, the median [IQR] of the per-repetition ratios to flat-pipegv over all launches, the
# distribution-free 95% confidence interval of that median (order statistics; it takes the repetitions
# as independent, so it is narrower than the spread between launches), the range of the launches' own
# medians, and, under the emulator, the exposed reduction latency per rank and iteration.
# Every solve is a fixed number of iterations (-ksp_max_it, convergence test skipped), so the 'ok'
# column of bench_cube (error vs exact solution) is 0 by design; iteration identity between 1 and 2
# threads is checked by tests/ex16.
#
# usage: bash bench/hybrid.sh <builddir>
#        bash bench/hybrid.sh --report <csv>...   the report alone, pooled over the runs' CSVs
# environment [default]: HYB_SIZES ["33 65"], HYB_PCS ["asddic jacobi"], HYB_LAUNCHES [3] launches of every
#   case, HYB_REPS [10] repetitions per launch, HYB_REPS_65 [5] at 65^3, HYB_ITS [50] iterations per solve,
#   HYB_ITS_65 [30], HYB_PSIM [4096] (empty: no emulated part), HYB_EMU_SIZES ["33 65"] cubes timed under the
#   emulator, HYB_BW_N [65] (empty: skip the bandwidth part), HYB_SMALL ["13 17"] small cubes (strong
#   scaling: the reduction is a large part of an iteration), timed with and without the emulator,
#   HYB_ITS_SMALL [200], HYB_REPS_SMALL [15], HYB_SEED [1] (launch k uses HYB_SEED + k)
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: bash bench/hybrid.sh <builddir> | --report <csv>..."; exit 2; }
report_only=0
if [ "$1" = --report ]; then
  shift
  [ $# -ge 1 ] || { echo "usage: bash bench/hybrid.sh --report <csv>..."; exit 2; }
  report_only=1
fi
report() { # the tables, from one or more of this script's CSVs (launches of different files kept apart)
/usr/bin/python3 - "$@" <<'EOF'
import csv, math, sys, statistics as st
rows = []
for f, name in enumerate(sys.argv[1:]):
    for r in csv.DictReader(open(name)):
        r["launch"] = "%d:%s" % (f, r["launch"])
        rows.append(r)
def quart(v):
    v = sorted(v)
    if len(v) < 2: return v[0], 0.0
    q = st.quantiles(v, n=4, method="inclusive")
    return st.median(v), q[2] - q[0]
def median_ci(v):
    # distribution-free 95% interval of the median: order statistics k..n+1-k of the sorted sample,
    # with k the largest for which P(Binomial(n, 1/2) < k) <= 0.025
    v, n = sorted(v), len(v)
    k, cum = 0, 0.0
    while True:
        p = math.comb(n, k) / 2.0 ** n
        if cum + p > 0.025: break
        cum += p
        k += 1
    return (v[k - 1], v[n - k]) if k >= 1 else (float("nan"), float("nan"))
def paired(t, base):
    # per-repetition ratios of t to base: median, IQR, the interval of the median, the launches' range
    ratios = {k: t[k] / base[k] for k in t if k in base and base[k] > 0}
    if not ratios: return None
    pm, piqr = quart(list(ratios.values()))
    lo, hi = median_ci(list(ratios.values()))
    per = [st.median([v for k, v in ratios.items() if k[0] == l]) for l in sorted({k[0] for k in ratios})]
    return pm, piqr, lo, hi, min(per), max(per)
spi, exp_ = {}, {}
for r in rows:
    key, lab, rep = (r["n"], r["pc"], r["psim"]), r["label"], (r["launch"], int(r["rep"]))
    its = max(1, int(r["its"]))
    spi.setdefault(key, {}).setdefault(lab, {})[rep] = float(r["seconds_per_it"])
    ranks = 1 if lab.startswith("hyb") else 2  # the hybrid layouts ran on rank 0 alone
    exp_.setdefault(key, {}).setdefault(lab, []).append(float(r["red_exposed_s"]) / (ranks * its))
print("\nper-iteration time; paired = per-repetition ratio to flat-pipegv (both solves of one repetition ran seconds")
print("apart), over all launches: median [IQR], the 95% confidence interval of that median (the repetitions")
print("taken as independent, which the launches are not quite: see the range of the launches' own medians beside")
print("it); P_sim > 1: EMULATED latency, exposed = median reduction latency per rank and iteration that the")
print("emulator modelled after a wait began")
print("%-4s %-7s %-6s %-12s %5s %9s %6s %15s %16s %14s %8s" % ("n", "pc", "P_sim", "label", "reps", "us/it", "IQR%", "paired [IQR]", "95% CI", "launches", "exposed"))
order = ["flat-pipegv", "cg", "pipecg", "flat-cmrcm", "hyb-static", "hyb-dynamic", "hyb-blocks"]
for key in spi:
    n, pc, P = key
    base = spi[key].get("flat-pipegv", {})
    for lab in order:
        if lab not in spi[key]: continue
        t = spi[key][lab]
        m, iqr = quart(list(t.values()))
        p = None if lab == "flat-pipegv" else paired(t, base)
        pr = "%6.3f [%6.3f] [%6.3f,%6.3f] %6.3f-%6.3f" % p if p else "%15s %16s %14s" % ("1", "", "")
        ex = "%8.2f" % (1e6 * st.median(exp_[key][lab])) if P != "1" else "%8s" % "-"
        print("%-4s %-7s %-6s %-12s %5d %9.1f %6.1f %s %s" % (n, pc, P, lab, len(t), 1e6 * m, 100 * iqr / m, pr, ex))
# the same ordering on both sides: 1 x 2 with CM-RCM colours against 2 x 1 with them
same = [k for k in spi if "flat-cmrcm" in spi[k]]
if same:
    print("\nasddic, the same CM-RCM ordering in both layouts: paired ratio to flat-cmrcm, median [IQR] (95% CI) launches")
    for key in same:
        base = spi[key]["flat-cmrcm"]
        for lab in ["hyb-static", "hyb-dynamic"]:
            p = paired(spi[key].get(lab, {}), base)
            if p: print("%-4s %-7s %-6s %-12s %6.3f [%6.3f] [%6.3f,%6.3f] %6.3f-%6.3f" % (key + (lab,) + p))
EOF
}
if [ $report_only = 1 ]; then
  report "$@"
  exit
fi
build=$(cd "$1" && pwd) || exit 2

sizes=${HYB_SIZES:-"33 65"}
pcs=${HYB_PCS:-"asddic jacobi"}
launches=${HYB_LAUNCHES:-3}
reps=${HYB_REPS:-10}
reps65=${HYB_REPS_65:-5}
its=${HYB_ITS:-50}
its65=${HYB_ITS_65:-30}
psim=${HYB_PSIM-4096}
emusizes=${HYB_EMU_SIZES-"33 65"}
bwn=${HYB_BW_N-65}
small=${HYB_SMALL-"13 17"}
itssmall=${HYB_ITS_SMALL:-200}
repssmall=${HYB_REPS_SMALL:-15}
seed=${HYB_SEED:-1}
drv=$build/bench/bench_cube
emu=$build/libpipeksp_emu.so
bwx=$build/bench/hybrid_bandwidth
for f in "$drv" "$emu" "$bwx"; do [ -e "$f" ] || { echo "missing $f: build first"; exit 1; }; done
out=$here/results
mkdir -p "$out"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
csv=$out/hybrid_$stamp.csv
log=$out/hybrid_$stamp.log
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "launch,n,pc,psim,label,rep,its,seconds,seconds_per_it,red_model_s,red_exposed_s,hidden,ok,pos" > "$csv"
echo "PipeKSP hybrid benchmark: $(nproc) cores (shared: timings are noisy), started $(date -u +%H:%M:%SZ)"
echo "  cube sizes {$sizes}, PCs {$pcs}, $its iterations per solve ($its65 at 65^3); small cubes {$small}, $itssmall iterations; $launches launches of every case"

# one launch: n pc psim its reps; every layout in it ($L: the launch's number)
launch() {
  local n=$1 pc=$2 P=$3 it=$4 R=$5 t0 c hyb="-bench_ranks 1 -pipeksp_threads 2"
  c="-pc_type $pc -ksp_max_it $it -ksp_convergence_test skip -ksp_norm_type unpreconditioned"
  {
    echo "flat-pipegv|-ksp_type pipegv -ksp_pipe_progress poll $c"
    echo "cg|-ksp_type cg $c"
    echo "pipecg|-ksp_type pipecg $c"
    echo "hyb-static|$hyb -pipeksp_spmv_schedule static -ksp_type pipegv -ksp_pipe_progress poll $c"
    echo "hyb-dynamic|$hyb -pipeksp_spmv_schedule dynamic -ksp_type pipegv -ksp_pipe_progress poll $c"
    [ "$pc" = asddic ] && echo "hyb-blocks|$hyb -pipeksp_spmv_schedule dynamic -ksp_type pipegv -ksp_pipe_progress poll $c -pc_asddic_local_blocks 2"
    [ "$pc" = asddic ] && echo "flat-cmrcm|-ksp_type pipegv -ksp_pipe_progress poll $c -pc_asddic_ordering cmrcm"
  } > "$tmp/cfg"
  local emuenv=()
  [ "$P" != 1 ] && emuenv=(-x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P="$P" -x PIPEKSP_EMU_ALPHA_US=3 -x PIPEKSP_EMU_JITTER_US=0.5 -x PIPEKSP_EMU_SEED=12345 -x PIPEKSP_EMU_PROGRESS=calls -x PIPEKSP_EMU_P2P=point -x PIPEKSP_EMU_SELF=1)
  t0=$(date +%s)
  # -pipeksp_threads_min_rows 5000: the default of a real 1 x 2 launch, whose threads have the 2 cores
  mpiexec --bind-to none -n 2 -x OMP_NUM_THREADS=1 -x OMPI_MCA_mpi_yield_when_idle=1 "${emuenv[@]}" "$drv" -bench_config "$tmp/cfg" -bench_reps "$R" \
    -bench_seed $((seed + L)) -bench_tag "$L,$n,$pc,$P" -cube_n "$n" -pipeksp_threads_min_rows 5000 > "$tmp/out" 2>&1
  cat "$tmp/out" >> "$log"
  grep -E "^$L,$n,$pc,$P,[^,]+,[0-9]+," "$tmp/out" >> "$csv"
  grep -E "FAILED|ERROR|DISAGREE" "$tmp/out" | sed 's/^/  /'
  local what="P_sim=$P (EMULATED)"
  [ "$P" = 1 ] && what="no emulation"
  echo "  launch $L, n=$n $pc $what: $R repetitions of $it iterations, $(($(date +%s) - t0)) s"
}

for ((L = 1; L <= launches; L++)); do
  for n in $sizes; do
    R=$reps I=$its
    [ "$n" -ge 65 ] && R=$reps65 I=$its65
    for pc in $pcs; do launch "$n" "$pc" 1 "$I" "$R"; done
  done
  if [ -n "$psim" ]; then
    for n in $emusizes; do
      R=$reps I=$its
      [ "$n" -ge 65 ] && R=$reps65 I=$its65
      for pc in $pcs; do launch "$n" "$pc" "$psim" "$I" "$R"; done
    done
  fi
  for n in $small; do
    for pc in $pcs; do
      launch "$n" "$pc" 1 "$itssmall" "$repssmall"
      [ -n "$psim" ] && launch "$n" "$pc" "$psim" "$itssmall" "$repssmall"
    done
  done
done

report "$csv"

if [ -n "$bwn" ]; then
  echo
  echo "SpMV bandwidth, 1 rank, cube $bwn^3 (bench/hybrid_bandwidth: triad and SpMV with 1 and 2 threads interleaved in one process):"
  mpiexec --bind-to none -n 1 "$bwx" -cube_n "$bwn" -rounds 15 2>&1 | sed 's/^/  /'
fi
echo "results: $csv, $log (finished $(date -u +%H:%M:%SZ))"
