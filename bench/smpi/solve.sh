#!/bin/bash
# Whole PipeKSP solves under SimGrid SMPI (SIMULATED) side by side with the emulator (EMULATED):
# `make bench-smpi-solve`. Optional: skipped with a message when SimGrid (smpicc, smpirun) is missing.
#   SMPI: config/petsc-smpi.sh's driver (bench_cube + bench/smpi/solve_shim.c, PETSc 3.26.1 for SMPI), P ranks on
#     bench/smpi's fat tree (16 hosts per leaf switch, one top switch, 0.25 us and 12.5 GB/s per link), Open
#     MPI's collectives (smpi/coll-selector:ompi) but recursive doubling for MPI_Allreduce (smpi/allreduce:rdb: the
#     algorithm of the non-blocking one and of the emulator's model), a one-round-per-call MPI_Iallreduce,
#     recursive-doubling scans, and deterministic compute: smpi/simulate-computation:no plus PETSc's flops times a cost per flop
#     of each event, measured once natively (rates.sh -> $out/smpi_rates.txt).
#   emulator: the native bench_cube on 2 ranks (by default on the emulator's flop clock: its compute priced as
#     the SMPI side prices it, PIPEKSP_SMPI_EMU_CLOCK below) with the same rows per rank (7 x 7 x 7 nodes, 1,029 rows, as
#     close as a cube block gets to make bench's 9^3 on 2 ranks, 1,094), PIPEKSP_EMU_P = P, progress=calls,
#     halo calls as points, no jitter, and the per-round alpha SMPI's fat tree gives (bench/smpi/README.md:
#     1.0106 us inside a leaf, 2.02 us across).
# The limit ("x limit"): cg's time per iteration with zero network latency on the same platform: under SMPI a
# cg run on the same fat tree with 0 latency, under the emulator cg-limit (-bench_latency_free).
# usage: bash bench/smpi/solve.sh <builddir>; environment: PIPEKSP_SMPI_SOLVE_P ["64 256 1024"],
#   PIPEKSP_SMPI_SOLVE_PCS ["jacobi bjacobi asddic gamg"], PIPEKSP_SMPI_SOLVE_REPS [3] (SMPI; deterministic), PIPEKSP_SMPI_WARMUP [1: untimed
#   solves of each SMPI launch first; 0 halves a launch's iterations, for large P],
#   PIPEKSP_SMPI_SOLVE_EMU_REPS [25; 3 with the flop clock], PIPEKSP_SMPI_EMU_ROUNDS [1: the emulated side this many times in all, the
#   later rounds PIPEKSP_SMPI_EMU_GAP (240) s apart after the SMPI launches, each in $work/emu-runs/<stamp>/], PIPEKSP_SMPI_TEST_US [measured: bench/emu_cost.sh's 0.065 us],
#   PIPEKSP_SMPI_JOBS [the cores: SMPI launches at once, one per P, PC and solver],
#   PIPEKSP_SMPI_ONE_LAUNCH_P [1024: from this P on one launch per P and PC runs all its solvers, the set-up paid once;
#   a launch that holds PETSc's pipelcg then runs without warm-up, one solve, as pipelcg's own launch does], PIPEKSP_SMPI_TIMEOUT [none: seconds
#   per SMPI launch], PIPEKSP_SMPI_MAXIT [none: -ksp_max_it of the SMPI solves, for large P], PIPEKSP_SMPI_WINDOW [4,12: time per iteration between
#   iterations k1 and k2 of a solve capped at k2 + 2 (bench_cube -bench_window); empty: whole solves], PIPEKSP_SMPI_DRIVER [built by config/petsc-smpi.sh] and PIPEKSP_SMPIRUN [smpirun] (to run a driver
#   built elsewhere, e.g. on a machine without smpicc), PIPEKSP_SMPI_SOLVE_SOLVERS [all], PIPEKSP_SMPI_SOLVE_WHAT ["smpi emu"] (either alone: one side, e.g. to run the
#   emulated side while the SMPI build runs; the report reads whatever the work folder holds),
#   PIPEKSP_SMPI_SOLVE_RUNS ["lat limit default"]: which SMPI launches (the solvers on the fat tree, cg on it with 0 us
#   links, SMPI's default MPI_Test cost), e.g. limit alone for a limit that was not run,
#   PIPEKSP_SMPI_DEFAULT_TEST_PMAX [256] (up to this P, cg and pipegv none/poll also with SMPI's default MPI_Test
#   cost), PIPEKSP_SMPI_PRIV [mmap], PIPEKSP_SMPI_EMU_CLOCK [flops: the emulator's virtual clock moved by
#   PETSc's flop counter at the rates the SMPI side charges, so both sides compute alike and only the models of the
#   network and of progress differ; cpu: real compute, timed in process CPU time, which a loaded machine's
#   descheduling does not inflate; wall as make bench], PIPEKSP_SMPI_EMU_BUILD [the flop clock: the native build
#   against PETSc $PETSC_LATEST that make test-petsc-latest makes (3.20's log callbacks), else <builddir>], PIPEKSP_SMPI_EMU_NP [2, as make bench; with the flop clock "2 64": the
#   real ranks of the emulated side, on a grid as cubic as powers of two go, each count a run of its own (at most P);
#   one rank would run PETSc's own solvers on sequential vectors, with no reduction to emulate] PIPEKSP_SMPI_RATES [bench/smpi/rates.txt; bench/smpi/rates.sh measures it again], PIPEKSP_SMPI_RATES_GAMG [bench/smpi/rates-gamg.txt: gamg's, on the AIJ matrix]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/cases.sh" # pc_options, mat_options, write_cfg, smpi_solvers
[ $# -ge 1 ] || { echo "usage: bash bench/smpi/solve.sh <builddir>"; exit 2; }
build=$(cd "$1" && pwd) || exit 2
smpirun=${PIPEKSP_SMPIRUN:-smpirun}
if { [ -z "${PIPEKSP_SMPI_DRIVER:-}" ] && ! command -v smpicc >/dev/null; } || ! command -v "$smpirun" >/dev/null; then
  echo "bench-smpi-solve: SimGrid is not installed (smpicc/smpirun missing; Debian: apt-get install libsimgrid-dev): skipped"
  exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
ps=${PIPEKSP_SMPI_SOLVE_P:-"64 256 1024"}
pcs=${PIPEKSP_SMPI_SOLVE_PCS:-"jacobi bjacobi asddic gamg"}
reps=${PIPEKSP_SMPI_SOLVE_REPS:-3}
test_us=${PIPEKSP_SMPI_TEST_US:-0.065}
solvers=${PIPEKSP_SMPI_SOLVE_SOLVERS:-$smpi_solvers}
what=${PIPEKSP_SMPI_SOLVE_WHAT:-"smpi emu"}
runs=${PIPEKSP_SMPI_SOLVE_RUNS:-"lat limit default"}
priv=${PIPEKSP_SMPI_PRIV:-mmap}
eclock=${PIPEKSP_SMPI_EMU_CLOCK:-flops}
# the flop clock is deterministic (3 repetitions agree to the digit) and blind to oversubscription: 64 real ranks
# then give the emulator SMPI's own layout at P = 64 (interior ranks, 26 neighbours), 2 the layout of make bench
if [ "$eclock" = flops ]; then enp=${PIPEKSP_SMPI_EMU_NP:-"2 64"} ereps=${PIPEKSP_SMPI_SOLVE_EMU_REPS:-3}
else enp=${PIPEKSP_SMPI_EMU_NP:-2} ereps=${PIPEKSP_SMPI_SOLVE_EMU_REPS:-25}; fi
defmax=${PIPEKSP_SMPI_DEFAULT_TEST_PMAX:-256}
onep=${PIPEKSP_SMPI_ONE_LAUNCH_P:-1024}
eround=${PIPEKSP_SMPI_EMU_ROUNDS:-1} egap=${PIPEKSP_SMPI_EMU_GAP:-240}
lat=0.25
alphas="1.0106,1.0106,1.0106,1.0106,2.02"
ebuild=$build
# the flop clock: the native build against config/petsc-latest.sh's PETSc (make test-petsc-latest's build-petsc-<version>)
[ "$eclock" = flops ] && ebuild=$root/build-$(basename "$(bash "$root/config/petsc-latest.sh" --print-prefix)")
ebuild=${PIPEKSP_SMPI_EMU_BUILD:-$ebuild}
emu=$ebuild/libpipeksp_emu.so
drv=$ebuild/bench/bench_cube
case " $what " in *" emu "*)
  [ -x "$drv" ] && [ -f "$emu" ] || { echo "bench-smpi-solve: no emulated side: $drv or $emu is missing (the flop clock needs PETSc 3.20 or newer: make test-petsc-latest builds $ebuild; or PIPEKSP_SMPI_EMU_CLOCK=cpu)"; exit 1; } ;;
esac
out=$root/bench/results
work=$build/bench/smpi-solve
mkdir -p "$out" "$work/one"
jobs=${PIPEKSP_SMPI_JOBS:-$(nproc)}
case " $what " in *" smpi "*)
  sdrv=${PIPEKSP_SMPI_DRIVER:-$(nice -n 15 bash "$root/config/petsc-smpi.sh")} || { echo "bench-smpi-solve: building the SMPI PETSc/driver FAILED"; exit 1; } ;;
esac
rates=${PIPEKSP_SMPI_RATES:-$here/rates.txt} rates_gamg=${PIPEKSP_SMPI_RATES_GAMG:-$here/rates-gamg.txt}
[ -s "$rates" ] || bash "$here/rates.sh" "$build" "$rates" || { echo "bench-smpi-solve: measuring the compute rates FAILED"; exit 1; }
case " $pcs " in *" gamg "*)
  [ -s "$rates_gamg" ] || bash "$here/rates.sh" "$build" "$rates_gamg" gamg || { echo "bench-smpi-solve: measuring GAMG's rates FAILED"; exit 1; } ;;
esac
rates_of() { if [ -n "$(mat_options "$1")" ]; then echo "$rates_gamg"; else echo "$rates"; fi; }

grid() { # P -> "px py pz": powers of two, as cubic as they go
  local P=$1 a=1 b=1 c=1
  while [ $((a * b * c)) -lt "$P" ]; do
    if [ $a -le $b ] && [ $a -le $c ]; then a=$((a * 2)); elif [ $b -le $c ]; then b=$((b * 2)); else c=$((c * 2)); fi
  done
  echo "$a $b $c"
}
platform() { # P latency_us -> platform file (and $work/hosts<P>)
  bash "$here/fattree.sh" "$1" "$2" "$work"
}
# one SMPI launch: P pc latency_us test_s reps solver(s, joined by +) -> $work/one/smpi_<tag>__<solvers>.log, its
# wall s and peak RSS in runs.txt. One warm-up solve, as make bench: a first solve differs even with deterministic compute
# (pipegv-poll's first solve at P = 16 takes 0.8% longer per iteration: its first-use costs).
smpi_one() {
  local P=$1 pc=$2 l=$3 ts=$4 r=$5 k=$6 tag cfg wu=${PIPEKSP_SMPI_WARMUP:-1}
  read -r px py pz <<< "$(grid "$P")"
  tag=${pc}_${P}_lat${l}_test${ts}__$k
  # the cost of MPI_Test, measured (charged by the shim) or SMPI's default: smpi_cfg.sh
  if [ "$ts" = default ]; then
    cfg=$(bash "$here/smpi_cfg.sh" default "$priv"); export PIPEKSP_SMPI_TEST_S=0
  else
    cfg=$(bash "$here/smpi_cfg.sh" measured "$priv"); export PIPEKSP_SMPI_TEST_S=$ts
  fi
  # PIPEKSP_SMPI_MAXIT: each SMPI solve stops there (time per iteration over its first iterations; the accuracy
  # check then fails and the report says so), for P whose whole solves take longer than the time there is
  # PIPEKSP_SMPI_WINDOW k1,k2: steady iterations only (within 1.2% of whole solves at P = 64 with jacobi), except
  # PETSc's pipelcg, whose capped warm-up leaves its pipeline's reductions to the timed solve (+29% at P = 64):
  # no warm-up and one solve for it there (-2.4%)
  local cap=${PIPEKSP_SMPI_MAXIT:-} win=${PIPEKSP_SMPI_WINDOW-4,12}
  if [ -n "$win" ]; then cap=$((${win#*,} + 2)); case "+$k+" in *+pipelcg+*) wu=0 r=1 ;; esac; echo "$win" > "$work/one/win_${pc}_$P"; fi
  write_cfg "$work/one/cfg_$tag" "$(pc_options "$pc")${cap:+ -ksp_max_it $cap}" ${k//+/ }
  local plat=$work/ft${P}_$l.xml
  local t0=$SECONDS timer=(/usr/bin/time -f "%e %M" -o "$work/one/time_$tag")
  [ -x /usr/bin/time ] || timer=() # elsewhere: wall seconds below, no RSS
  PIPEKSP_SMPI_RATES=$(rates_of "$pc") "${timer[@]}" ${PIPEKSP_SMPI_TIMEOUT:+timeout $PIPEKSP_SMPI_TIMEOUT} nice -n 15 $smpirun -np "$P" -platform "$plat" -hostfile "$work/hosts$P" \
    $cfg \
    "$sdrv" -bench_config "$work/one/cfg_$tag" -bench_reps "$r" -bench_warmup "$wu" ${win:+-bench_window $win} -bench_order rotate \
    -bench_tag "SIMULATED,$pc,$P" -cube_nx $((7 * px)) -cube_ny $((7 * py)) -cube_nz $((7 * pz)) \
    -da_processors_x "$px" -da_processors_y "$py" -da_processors_z "$pz" $(mat_options "$pc") > "$work/one/smpi_$tag.log" 2>&1
  local rc=$?
  [ ${#timer[@]} -gt 0 ] || echo "$((SECONDS - t0)) n/a" > "$work/one/time_$tag"
  echo "$tag: exit $rc, wall/RSS: $(tail -1 "$work/one/time_$tag")" >> "$work/runs.txt"
}
# P pc latency_us test_s reps solvers...: one launch per solver in the background, at most $jobs at once; merge()
# after the last joins each group's logs into one. From P = PIPEKSP_SMPI_ONE_LAUNCH_P on, one launch runs all the
# group's solvers: there the set-up is most of a launch (P = 1,024 with asddic: over an hour of wall time, its
# 14-iteration solve minutes), so six launches would cost six set-ups
merges=()
smpi_run() {
  local P=$1 pc=$2 l=$3 ts=$4 r=$5 k ks
  shift 5
  platform "$P" "$l" > /dev/null
  ks=("$@")
  [ "$P" -ge "$onep" ] && ks=("$(IFS=+; echo "$*")")
  for k in "${ks[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    smpi_one "$P" "$pc" "$l" "$ts" "$r" "$k" &
  done
  merges+=("smpi_${pc}_${P}_lat${l}_test${ts} ${ks[*]}")
}
merge() {
  local m g k
  wait
  for m in "${merges[@]}"; do
    read -r g k <<< "$m"
    for k in $k; do cat "$work/one/${g}__$k.log" 2>/dev/null; done > "$work/$g.log"
  done
}
emu_run() { # P pc [folder] -> $work/emu_<pc>_<P>.log (2 real ranks; emu_<pc>_<P>_np<n>.log for n others), or in folder, and a
  # copy in this round's $work/emu-runs/<stamp>; n real ranks on the grid() of n, 7^3 nodes each (2: a line of two, as make bench)
  local P=$1 pc=$2 to=${3:-$work} n f px py pz
  mkdir -p "$to" "$work/emu-runs/$stamp"
  write_cfg "$work/cfg_emu_$pc" "$(pc_options "$pc")" $solvers cg-limit
  rm -f "$to/emu_${pc}_${P}_np"*.log # a layout of an earlier run must not stand in for this one's
  for n in $enp; do
    [ "$n" -le "$P" ] || continue
    read -r px py pz <<< "$(grid "$n")"
    f=emu_${pc}_$P.log
    [ "$n" = 2 ] || f=emu_${pc}_${P}_np$n.log
    { echo "# EMULATED side: $n real ranks ($px x $py x $pz), $eclock clock"
      nice -n 15 mpiexec -n "$n" --bind-to none -x OMPI_MCA_mpi_yield_when_idle=1 -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P="$P" -x PIPEKSP_EMU_ALPHA_US="$alphas" \
        -x PIPEKSP_EMU_JITTER_US=0 -x PIPEKSP_EMU_PROGRESS=calls -x PIPEKSP_EMU_P2P=point -x PIPEKSP_EMU_CLOCK="$eclock" -x PIPEKSP_SMPI_RATES="$(rates_of "$pc")" \
        "$drv" -bench_config "$work/cfg_emu_$pc" -bench_reps "$ereps" -bench_tag "EMULATED,$pc,$P" -bench_clock "$eclock" \
        -cube_nx $((7 * px)) -cube_ny $((7 * py)) -cube_nz $((7 * pz)) -da_processors_x "$px" -da_processors_y "$py" -da_processors_z "$pz" $(mat_options "$pc") 2>&1
    } > "$to/$f"
    [ "$to" = "$work/emu-runs/$stamp" ] || cp "$to/$f" "$work/emu-runs/$stamp/"
  done
}

echo "PipeKSP whole solves: SIMULATED (SimGrid $($smpirun --version 2>&1 | awk '/SimGrid version/{print $3}') SMPI) vs EMULATED (tools/emulator, $enp real ranks, $eclock clock)"
echo "  fat tree of 16-host leaves, $lat us/link; 7^3 nodes (1,029 rows) per rank; rtol 1e-8; MPI_Test cost $test_us us (SMPI)"
touch "$work/runs.txt"
stamp=$(date +%Y%m%d-%H%M%S)
for P in $ps; do
  for pc in $pcs; do
    t0=$(date +%s)
    case " $what " in *" smpi "*)
      case " $runs " in *" lat "*) smpi_run "$P" "$pc" "$lat" "${test_us}e-6" "$reps" $solvers ;; esac
      case " $runs " in *" limit "*) smpi_run "$P" "$pc" 0 "${test_us}e-6" 1 cg ;; esac
      case " $runs " in *" default "*) [ "$P" -le "$defmax" ] && smpi_run "$P" "$pc" "$lat" default 1 cg pipegv-none pipegv-poll ;; esac ;;
    esac
    case " $what " in *" emu "*) emu_run "$P" "$pc" ;; esac
    echo "  $pc P=$P: $(($(date +%s) - t0)) s (SMPI launches started; they run on in the background)"
  done
done
merge
# more emulated rounds, on a machine the SMPI launches have left: this VM changes state within minutes (two ranks
# at once computing up to 1.8 times slower than alone), and the report pairs only the rounds whose cg-limit
# matches SMPI's limit (solve_report.py)
case " $what " in *" emu "*)
  for ((round = 2; round <= eround; round++)); do
    sleep "$egap"
    stamp=$(date +%Y%m%d-%H%M%S)
    for P in $ps; do for pc in $pcs; do emu_run "$P" "$pc" "$work/emu-runs/$stamp"; done; done
  done ;;
esac
python3 "$here/solve_report.py" "$work" | tee "$out/smpi_solve.txt"
