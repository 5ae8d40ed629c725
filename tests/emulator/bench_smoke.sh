#!/bin/sh
# PETSc's and our CG variants under the emulator, through bench_cube: every solve must be correct
# (converged, error vs the exact solution below 1e-3) with the same iteration count as cg (+-2),
# blocking cg must hide nothing and pipegv with poll must hide most of the modelled latency. The driver
# must shuffle the order per repetition (seeded, printed) and compare the identical cg / cg-again pair.
# usage: bench_smoke.sh <mpiexec> <np> <libpipeksp_emu.so> <bench_cube> [cube n]
set -u
mpiexec=$1 np=$2 emu=$3 drv=$4 n=${5:-7}
cfg=$(mktemp)
trap 'rm -f "$cfg"' EXIT
pc="-pc_type bjacobi -sub_pc_type icc -ksp_rtol 1e-8 -ksp_norm_type unpreconditioned"
cat > "$cfg" <<CFG
cg|-ksp_type cg $pc
chrongear|-ksp_type chrongear $pc
groppcg|-ksp_type groppcg $pc
pipecg|-ksp_type pipecg $pc
pipegropp-none|-ksp_type pipegropp -ksp_pipe_progress none $pc
pipegv-AR|-ksp_type pipegv -ksp_pipe_progress blocking $pc
pipegv-poll|-ksp_type pipegv -ksp_pipe_progress poll -ksp_pipe_poll_interval 0 $pc
pipegv-thread|-ksp_type pipegv -ksp_pipe_progress thread $pc
cg-again|-ksp_type cg $pc
CFG
out=$("$mpiexec" --oversubscribe -n "$np" -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P=1024 -x PIPEKSP_EMU_ALPHA_US=20 \
  -x PIPEKSP_EMU_JITTER_US=1 -x PIPEKSP_EMU_P2P=point "$drv" -bench_config "$cfg" -bench_reps 2 -bench_seed 3 -bench_tag smoke,1024 \
  -cube_n "$n" -malloc_debug -malloc_dump 2>&1)
echo "$out"
echo "$out" | awk -F, '
  /^smoke,1024,/ { if (NF != 12) { print "bad line: " $0; bad = 1; next }
                   n++; its[$3] = $5; hid[$3] = $10; if ($11 != 1) { print "WRONG ANSWER: " $3; bad = 1 } }
  /FAILED|ERROR/ { print "error: " $0; bad = 1 }
  /^# order shuffle, seed 3/ { seeded = 1 }
  /^# rep [01] order:/ { split($0, w, " "); ord[w[3]] = $0; sub(/^# rep [01] order:/, "", ord[w[3]]) }
  /^# identical smoke,1024,cg = cg-again: / { twin = 1 }
  END {
    if (n != 18) { print "expected 18 solves, got " n; bad = 1 }
    if (!seeded) { print "no seed line"; bad = 1 }
    if (ord[0] == "" || ord[0] == ord[1]) { print "repetitions not reordered: [" ord[0] "] [" ord[1] "]"; bad = 1 }
    if (!twin) { print "no identical-configuration check for cg / cg-again"; bad = 1 }
    for (k in its) if (its[k] < its["cg"] - 2 || its[k] > its["cg"] + 2) { print "iterations differ: " k " " its[k] " vs cg " its["cg"]; bad = 1 }
    if (hid["cg"] != 0) { print "blocking cg hid latency: " hid["cg"]; bad = 1 }
    if (hid["pipegv-AR"] != 0) { print "pipegv blocking hid latency: " hid["pipegv-AR"]; bad = 1 }
    if (!(hid["pipegv-poll"] > 0.5)) { print "pipegv poll hid only " hid["pipegv-poll"]; bad = 1 }
    if (bad) { print "bench smoke FAILED"; exit 1 } else print "bench smoke passed"
  }'
