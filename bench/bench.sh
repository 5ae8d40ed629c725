#!/bin/bash
# The benchmark suite (what `make bench` runs): CG variants x progress policies on the
# GeoFEM/Cube under an EMULATED allreduce latency of P_sim nodes (tools/emulator, LD_PRELOAD), plus
# a single-node bandwidth section. EMULATION, not a cluster measurement: see bench/README.md.
#
# usage: bash bench/bench.sh <builddir>
# environment (defaults in brackets; PIPEKSP_BENCH_LONG=1 switches to the long version):
#   PIPEKSP_BENCH_NP [cores, at most 4] MPI ranks; more ranks than cores makes waiting ranks steal
#                                   the cores of computing ones, which a cluster would not do
#   PIPEKSP_BENCH_BW_N [33]         cube size of the single-node bandwidth section (data beyond the caches)
#   PIPEKSP_BENCH_N [9; long 13]     cube nodes per direction
#   PIPEKSP_BENCH_REPS [25; long 40]  repetitions, interleaved inside each run
#   PIPEKSP_BENCH_PSIM ["1 256 1024 4096 131072"; long "1 128 256 512 1024 2048 4096 131072"] (1: no emulated
#                                   latency, the baseline of the x limit)
#   PIPEKSP_BENCH_ALPHA_US [3]      per-hop latency; PIPEKSP_BENCH_JITTER_US [0.5] mean extra per hop
#   PIPEKSP_BENCH_PROGRESS [calls]  emulated MPI progress (calls|library)
#   PIPEKSP_BENCH_P2P [point]       how halo-exchange MPI calls advance reductions (point|interval)
#   PIPEKSP_BENCH_PCS ["asddic bjacobi"]
#   PIPEKSP_BENCH_SEED [1]          seed of the per-repetition shuffle of the configurations (row k uses seed+k)
#   PIPEKSP_BENCH_RTOL [1e-8]       relative tolerance of every solve
#   PIPEKSP_BENCH_PETSC_SOLVERS ["cg groppcg pipecg pipelcg"; pipelcg runs with the natural norm, its only one:
#   time per iteration compares, its iteration count does not], PIPEKSP_BENCH_OUR_BLOCKING ["chrongear"],
#   PIPEKSP_BENCH_OUR_PIPELINED ["pipegropp pipegv"] (each run AR and with every one of
#   PIPEKSP_BENCH_POLICIES ["none poll thread auto"]), PIPEKSP_BENCH_OUR_DEFAULT ["pipeplcg"] (run with
#   their default options only): the configurations (see write_cfg)
#   AMG rows, on the cube assembled as aij (PETSc 3.18's gamg needs aij): PIPEKSP_BENCH_AMG_PCS ["gamg hypre";
#   a PC this PETSc lacks is skipped with a message], PIPEKSP_BENCH_AMG_PSIM ["1 4096 131072"],
#   PIPEKSP_BENCH_AMG_REPS [9; long 20], PIPEKSP_BENCH_AMG_SOLVERS ["cg pipecg pipelcg pipegv-auto pipegv-poll pipeplcg";
#   KSP-policy runs one of ours with that -ksp_pipe_progress; auto is pipegv's default]
# output: bench/results/bench_<stamp>.csv (one line per solve), bench_<stamp>.log (orders, seeds, medians
# and IQRs, identical-twin checks), bench_<stamp>.meta (the settings, for the plot titles), summary.csv,
# speedup.png, breakdown.png, single_node.txt
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: bash bench/bench.sh <builddir>"; exit 2; }
build=$(cd "$1" && pwd) || exit 2
long=${PIPEKSP_BENCH_LONG:-0}
cores=$(nproc 2>/dev/null || echo 2)
np=${PIPEKSP_BENCH_NP:-$((cores < 4 ? cores : 4))}
bwn=${PIPEKSP_BENCH_BW_N:-33}
if [ "$long" = 1 ]; then
  n=${PIPEKSP_BENCH_N:-13}; reps=${PIPEKSP_BENCH_REPS:-40}; psims=${PIPEKSP_BENCH_PSIM:-"1 128 256 512 1024 2048 4096 131072"}
else
  n=${PIPEKSP_BENCH_N:-9}; reps=${PIPEKSP_BENCH_REPS:-25}; psims=${PIPEKSP_BENCH_PSIM:-"1 256 1024 4096 131072"}
fi
alpha=${PIPEKSP_BENCH_ALPHA_US:-3}
jitter=${PIPEKSP_BENCH_JITTER_US:-0.5}
progress=${PIPEKSP_BENCH_PROGRESS:-calls}
p2p=${PIPEKSP_BENCH_P2P:-point}
pcs=${PIPEKSP_BENCH_PCS:-"asddic bjacobi"}
seed=${PIPEKSP_BENCH_SEED:-1}
rtol=${PIPEKSP_BENCH_RTOL:-1e-8}
emu=$build/libpipeksp_emu.so
drv=$build/bench/bench_cube
for f in "$emu" "$drv"; do
  [ -e "$f" ] || { echo "missing $f: build first (cmake --build $build)"; exit 1; }
done
out=$here/results
mkdir -p "$out"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
csv=$out/bench_$stamp.csv
blog=$out/bench_$stamp.log
cfg=$(mktemp)
trap 'rm -f "$cfg"' EXIT

echo "PipeKSP benchmark (EMULATED reduction latency; not a cluster measurement)"
echo "  $np ranks, cube $n^3 nodes, $reps repetitions, P_sim {$psims}, alpha $alpha us/hop, jitter $jitter us/hop,"
echo "  progress=$progress, halo calls as $p2p, rtol $rtol; configurations shuffled per repetition (seed $seed + row),"
echo "  one untimed warm-up solve each; started $(date -u +%H:%M:%SZ)"
echo "pc,psim,label,rep,its,seconds,seconds_per_it,red_model_s,red_exposed_s,hidden,ok,pos" > "$csv"
cat > "$out/bench_$stamp.meta" <<META
ranks=$np
cube_n=$n
reps=$reps
rtol=$rtol
alpha_us=$alpha
jitter_us=$jitter
progress=$progress
p2p=$p2p
seed=$seed
META
: > "$blog"

# The configurations, label|options. To add a solver, extend a list (bench_report.py draws every label:
# PETSc's KSPs in grey dashed lines, the others as ours; keep its PETSC_SOLVERS in step with petsc_solvers).
#   petsc_solvers: PETSc's own KSPs, run as they are (cg is the baseline of every ratio)
#   our_blocking:  ours with blocking reductions only
#   our_pipelined: ours with non-blocking reductions, run blocking (AR) and with every progress policy
#   cg-again: cg a second time, the identical twin whose agreement with cg measures the run's noise
#   cg-limit: cg with the emulator off (-bench_latency_free), the latency-free limit of the x limit, measured
#     in the same launch and repetitions as the rest (the VM's speed drifts between launches)
petsc_solvers=${PIPEKSP_BENCH_PETSC_SOLVERS:-"cg groppcg pipecg pipelcg"}
our_blocking=${PIPEKSP_BENCH_OUR_BLOCKING:-"chrongear"}
our_pipelined=${PIPEKSP_BENCH_OUR_PIPELINED:-"pipegropp pipegv"}
policies=${PIPEKSP_BENCH_POLICIES:-"none poll thread auto"}
our_default=${PIPEKSP_BENCH_OUR_DEFAULT:-"pipeplcg"}
amg_pcs=${PIPEKSP_BENCH_AMG_PCS:-"gamg hypre"}
amg_psims=${PIPEKSP_BENCH_AMG_PSIM:-"1 4096 131072"}
amg_solvers=${PIPEKSP_BENCH_AMG_SOLVERS:-"cg pipecg pipelcg pipegv-auto pipegv-poll pipeplcg"}
[ "$long" = 1 ] && amg_reps=${PIPEKSP_BENCH_AMG_REPS:-20} || amg_reps=${PIPEKSP_BENCH_AMG_REPS:-9}
norm_of() { # KSP common-options -> its options: PETSc's pipelcg has only the natural norm
  [ "$1" = pipelcg ] && echo "${2/unpreconditioned/natural}" || echo "$2"
}
write_cfg() { # pc options
  local pco="$1" common="-ksp_rtol $rtol -ksp_norm_type unpreconditioned" k pol
  {
    for k in $petsc_solvers $our_blocking; do echo "$k|-ksp_type $k $(norm_of "$k" "$common") $pco"; done
    for k in $our_pipelined; do
      echo "$k-AR|-ksp_type $k -ksp_pipe_progress blocking $common $pco"
      for pol in $policies; do echo "$k-$pol|-ksp_type $k -ksp_pipe_progress $pol $common $pco"; done
    done
    for k in $our_default; do echo "$k|-ksp_type $k $common $pco"; done
    echo "cg-again|-ksp_type cg $common $pco"
    echo "cg-limit|-ksp_type cg $common $pco -bench_latency_free"
  } > "$cfg"
}
# the AMG rows' fewer configurations: a label is a KSP, or KSP-policy for one of ours
write_amg_cfg() { # pc options
  local pco="$1" common="-ksp_rtol $rtol -ksp_norm_type unpreconditioned" k
  {
    for k in $amg_solvers; do
      case $k in
        *-*) echo "$k|-ksp_type ${k%%-*} -ksp_pipe_progress ${k#*-} $common $pco" ;;
        *) echo "$k|-ksp_type $k $(norm_of "$k" "$common") $pco" ;;
      esac
    done
    echo "cg-again|-ksp_type cg $common $pco"
    echo "cg-limit|-ksp_type cg $common $pco -bench_latency_free"
  } > "$cfg"
}
pc_options() { # pc name -> its options
  case $1 in
    asddic) echo "-pc_type asddic" ;;
    bjacobi) echo "-pc_type bjacobi -sub_pc_type icc" ;;
    *) echo "-pc_type $1" ;;
  esac
}

labels=""
add_labels() { # the configurations' labels in order, for the report (the meta file's last labels= line counts)
  local l
  for l in $(cut -d'|' -f1 "$cfg"); do case " $labels " in *" $l "*) ;; *) labels="$labels $l" ;; esac; done
  echo "labels=${labels# }" >> "$out/bench_$stamp.meta"
}
runrow() { # pc P reps extra-driver-options...
  local pc=$1 P=$2 r=$3 t0 log rc
  shift 3
  t0=$(date +%s)
  row=$((${row:-0} + 1))
  log=$(mpiexec --oversubscribe -n "$np" -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P="$P" -x PIPEKSP_EMU_ALPHA_US="$alpha" \
    -x PIPEKSP_EMU_JITTER_US="$jitter" -x PIPEKSP_EMU_SEED=12345 -x PIPEKSP_EMU_PROGRESS="$progress" -x PIPEKSP_EMU_P2P="$p2p" \
    "$drv" -bench_config "$cfg" -bench_reps "$r" -bench_seed $((seed + row)) -bench_tag "$pc,$P" -cube_n "$n" "$@" 2>&1)
  rc=$?
  echo "$log" | grep -E "^$pc,$P,[^,]+,[0-9]+," >> "$csv"
  { echo "## $pc P_sim $P"; echo "$log" | grep "^#"; } >> "$blog"
  echo "$log" | grep -E "^# identical" | sed 's/^# /  /'
  echo "$log" | grep "FAILED" | sed 's/^/  /'
  [ $rc -eq 0 ] || { echo "  run $pc P_sim $P FAILED (exit $rc):"; echo "$log" | tail -5 | sed 's/^/    /'; }
  echo "  $pc P_sim $P: $(($(date +%s) - t0)) s"
}

for pc in $pcs; do
  write_cfg "$(pc_options "$pc")"
  add_labels
  for P in $psims; do runrow "$pc" "$P" "$reps"; done
done

# AMG rows: the cube as aij, fewer configurations, P_sim values and repetitions (make bench's time budget).
# A PC this PETSc was built without (hypre in a PETSc configured without it) is probed once and skipped.
ex=$build/tests/pipeksp/tutorials/ex1
[ -n "$amg_pcs" ] && echo "amg_rows=$amg_pcs: P_sim {$amg_psims}, $amg_reps repetitions, cube as aij, $amg_solvers" >> "$out/bench_$stamp.meta"
for pc in $amg_pcs; do
  if [ -x "$ex" ] && ! why=$(mpiexec -n 1 "$ex" -cube_n 3 -cube_mat_type aij $(pc_options "$pc") -ksp_type cg 2>&1); then
    # PETSc's message: the line after the banner ("Unable to find requested PC type hypre" follows "Unknown type")
    why=$(echo "$why" | grep "ERROR" | grep -v -e "----" -e "Unknown type" | head -1 | sed 's/^\[[0-9]*\]PETSC ERROR: //')
    echo "  $pc rows skipped: this PETSc cannot run -pc_type $pc (${why:-probe failed})"
    echo "skipped_$pc=${why:-probe failed}" >> "$out/bench_$stamp.meta"
    continue
  fi
  write_amg_cfg "$(pc_options "$pc")"
  add_labels
  for P in $amg_psims; do runrow "$pc" "$P" "$amg_reps" -cube_mat_type aij; done
done

/usr/bin/python3 "$here/bench_report.py" "$csv" "$out" || echo "report FAILED"

# deep pipelines (pipeplcg, l = 1..4) up to P_sim 131072, with and without OS noise
bash "$here/plcg.sh" "$build" || echo "deep-pipeline section FAILED"

# single-node section: SpMV / PC-apply bandwidth against a STREAM triad in the same run
bw=$build/bench/asddic_bandwidth
{
  echo "single node, 1 rank, no emulation: asddic_bandwidth -cube_n $bwn (SpMV and PC apply vs STREAM triad in the same run)"
  if [ -x "$bw" ]; then
    mpiexec -n 1 "$bw" -cube_n $bwn -reps 10 2>&1 | grep -E "GB/s|bytes/apply|FAILED|rror" 
  else
    echo "asddic_bandwidth not built ($bw): skipped"
  fi
} > "$out/single_node.txt"
cat "$out/single_node.txt"
echo "results: $csv, $blog, $out/summary.csv, $out/speedup.png, $out/breakdown.png, $out/single_node.txt (finished $(date -u +%H:%M:%SZ))"
