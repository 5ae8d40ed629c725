#!/bin/sh
# The emulator's flop clock (PIPEKSP_EMU_CLOCK=flops, bench_cube -bench_clock flops): compute priced from PETSc's
# flop counter at bench/smpi/rates.txt's costs, as the SIMULATED solves price it, so the host's speed drops out.
# Checks: two launches give the same time per iteration to the digit (IQR 0); cg pays exactly its blocking
# reductions over cg-limit (same compute): 3 per iteration of 6 rounds at P_sim 64, alpha 1 us, plus its start's
# reductions spread over the iterations (at most 15% more); pipegv with polling hides some of that.
# usage: flop_clock.sh <mpiexec> <libpipeksp_emu.so> <bench_cube> <source dir>
set -u
mpiexec=$1 emu=$2 drv=$3 src=$4
cfg=$(mktemp)
trap 'rm -f "$cfg"' EXIT
pc="-pc_type jacobi -ksp_rtol 1e-8 -ksp_norm_type unpreconditioned"
cat > "$cfg" <<CFG
cg|-ksp_type cg $pc
pipegv-poll|-ksp_type pipegv -ksp_pipe_progress poll $pc
cg-limit|-ksp_type cg $pc -bench_latency_free
CFG
run() {
  "$mpiexec" --oversubscribe -n 2 -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P=64 -x PIPEKSP_EMU_ALPHA_US=1 -x PIPEKSP_EMU_CLOCK=flops \
    -x PIPEKSP_EMU_P2P=point -x PIPEKSP_SMPI_RATES="$src/bench/smpi/rates.txt" "$drv" -bench_config "$cfg" -bench_reps 3 \
    -bench_tag flops,64 -bench_clock flops -cube_nx 14 -cube_ny 7 -cube_nz 7 -da_processors_x 2 -da_processors_y 1 -da_processors_z 1 2>&1
}
a=$(run) b=$(run)
echo "$a"
printf '%s\n=== second launch\n%s\n' "$a" "$b" | awk '
  /^=== second launch/ { second = 1 }
  /^# flops,64,[^:]*: median/ { split($2, w, ","); lab = w[3]; sub(/:$/, "", lab); med = $4
                                 if (second) b[lab] = med; else a[lab] = med
                                 if ($0 !~ /IQR [0-9.]+ us\/it \(0\.0%\)/) { print "FAIL: " lab " has an IQR: " $0; bad = 1 } }
  /^flops,64,cg,/ { split($0, f, ","); its = f[4] }
  /ERROR|FAILED/ { print "FAIL: " $0; bad = 1 }
  END {
    for (k in a) if (a[k] != b[k]) { print "FAIL: " k " differs between launches: " a[k] " and " b[k]; bad = 1 }
    if (!("cg" in a) || !("cg-limit" in a) || !("pipegv-poll" in a)) { print "FAIL: a configuration is missing"; exit 1 }
    d = a["cg"] - a["cg-limit"]
    printf "cg %.1f us/it, cg-limit %.1f, pipegv-poll %.1f: cg pays %.1f us/it for its reductions (3 x 6 rounds x 1 us = 18)\n", a["cg"], a["cg-limit"], a["pipegv-poll"], d
    if (d < 18 - 0.2 || d > 18 * 1.15) { print "FAIL: cg over cg-limit is " d " us/it, not 18 to 20.7"; bad = 1 }
    if (a["pipegv-poll"] >= a["cg"] - 0.5 * d) { print "FAIL: pipegv-poll hides less than half of cg'"'"'s reduction time"; bad = 1 }
    print (bad ? "flop clock check FAILED" : "flop clock check passed")
  }'
