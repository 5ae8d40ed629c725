#!/bin/sh
# bench_cube's layouts (bench/hybrid.sh): configurations with -bench_ranks 1 -pipeksp_threads 2 run on
# rank 0 alone, on its own copy of the cube, while the other rank sleeps; the others on both ranks. Under
# the emulator with PIPEKSP_EMU_SELF=1 every solve must reach the exact solution with cg's iterations (+-2),
# the one-rank blocking chrongear must pay its whole modelled latency and the one-rank pipegv+poll hide most of
# it, the paired ratios to the base (not the first configuration) must be printed, no leak. A processor
# grid that rank 0's copy of the cube cannot take fails the hybrid configurations on every rank (FAILED,
# no hang) while the flat ones run; an unknown -bench_base and -bench_ranks other than 1 or all are refused.
# usage: bench_layouts.sh <mpiexec> <libpipeksp_emu.so> <bench_cube>
set -u
mpiexec=$1 emu=$2 drv=$3
cfg=$(mktemp)
trap 'rm -f "$cfg"' EXIT
c="-ksp_rtol 1e-8 -ksp_norm_type unpreconditioned -pc_type jacobi"
cat > "$cfg" <<CFG
flat-cg|-ksp_type cg $c
flat-pipegv|-ksp_type pipegv -ksp_pipe_progress poll $c
hyb-pipegv|-bench_ranks 1 -pipeksp_threads 2 -pipeksp_spmv_schedule static -ksp_type pipegv -ksp_pipe_progress poll -ksp_pipe_poll_interval 0 $c
hyb-chrongear|-bench_ranks 1 -pipeksp_threads 2 -ksp_type chrongear $c
CFG
emuenv="-x LD_PRELOAD=$emu -x PIPEKSP_EMU_P=1024 -x PIPEKSP_EMU_ALPHA_US=5 -x PIPEKSP_EMU_SELF=1 -x PIPEKSP_EMU_P2P=point"
out=$("$mpiexec" --oversubscribe --bind-to none -n 2 $emuenv "$drv" -bench_config "$cfg" -bench_reps 2 -bench_base flat-pipegv \
  -bench_tag lay -cube_n 11 -pipeksp_threads_min_rows 0 -malloc_debug -malloc_dump 2>&1)
echo "$out"
bad=0
echo "$out" | awk -F, '
  /^lay,/ { if (NF != 11) { print "bad line: " $0; bad = 1; next }
            n++; its[$2] = $4; hid[$2] = $9; if ($10 != 1) { print "WRONG ANSWER: " $2; bad = 1 } }
  /FAILED|ERROR|bytes [A-Za-z_0-9]+\(\) at/ { print "error: " $0; bad = 1 }
  /^# hyb-pipegv: rank 0 alone, 2 thread\(s\), schedule static; the other 1 rank\(s\) sleep/ { alone1 = 1 }
  /^# hyb-chrongear: rank 0 alone, 2 thread\(s\), schedule dynamic; the other 1 rank\(s\) sleep/ { alone2 = 1 }
  /^# flat-pipegv: rank 0 alone/ { print "flat configuration ran alone"; bad = 1 }
  /^# paired lay,hyb-pipegv\/flat-pipegv: median [0-9.]+, IQR [0-9.]+ \[[0-9.]+, [0-9.]+\], 2 repetitions/ { p1 = 1 }
  /^# paired lay,flat-cg\/flat-pipegv: / { p2 = 1 }
  /^# paired lay,flat-pipegv\// { print "the base was compared with itself: -bench_base ignored"; bad = 1 }
  END {
    if (n != 8) { print "expected 8 solves, got " n; bad = 1 }
    if (!alone1 || !alone2) { print "the hybrid configurations were not announced as rank 0 alone with their threads"; bad = 1 }
    if (!p1 || !p2) { print "paired ratios to the base missing"; bad = 1 }
    for (k in its) if (its[k] < its["flat-cg"] - 2 || its[k] > its["flat-cg"] + 2) { print "iterations differ: " k " " its[k] " vs cg " its["flat-cg"]; bad = 1 }
    if (hid["hyb-chrongear"] != 0) { print "one-rank blocking chrongear hid latency (" hid["hyb-chrongear"] "): its communicator was not emulated as one rank of P_sim"; bad = 1 }
    if (!(hid["hyb-pipegv"] > 0.5)) { print "one-rank pipegv+poll hid only " hid["hyb-pipegv"]; bad = 1 }
    exit bad
  }' || bad=1
# -da_processors_x 2 fits the 2-rank cube, not rank 0's copy
out=$("$mpiexec" --oversubscribe --bind-to none -n 2 "$drv" -bench_config "$cfg" -bench_reps 1 -bench_tag grid -cube_n 7 -da_processors_x 2 -da_processors_y 1 -da_processors_z 1 -malloc_debug -malloc_dump 2>&1)
echo "$out" | grep -q "^grid,hyb-pipegv,FAILED set-up" && echo "$out" | grep -q "^grid,hyb-chrongear,FAILED set-up" &&
  echo "$out" | grep -Eq "^grid,flat-cg,0,[0-9]+,.*,1,[0-9]+$" && ! echo "$out" | grep -q "bytes [A-Za-z_0-9]*() at" ||
  { echo "$out" | tail -8; echo "a copy that cannot be built did not fail the hybrid configurations cleanly"; bad=1; }
# an unknown base is refused
out=$("$mpiexec" --oversubscribe -n 2 "$drv" -bench_config "$cfg" -bench_base nosuch -cube_n 5 2>&1)
echo "$out" | grep -q "bench_base nosuch: no configuration has that label" || { echo "$out" | tail -5; echo "unknown -bench_base not refused"; bad=1; }
# -bench_ranks must be 1 or all ranks
printf 'odd|-bench_ranks 3 -ksp_type cg\n' > "$cfg"
out=$("$mpiexec" --oversubscribe -n 2 "$drv" -bench_config "$cfg" -cube_n 5 2>&1)
echo "$out" | grep -q "odd: -bench_ranks 3 must be 1 or all 2 ranks" || { echo "$out" | tail -5; echo "-bench_ranks 3 not refused"; bad=1; }
if [ $bad = 0 ]; then echo "bench layouts check passed"; else echo "bench layouts check FAILED"; exit 1; fi
