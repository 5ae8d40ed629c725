#!/bin/bash
# The emulator extensions for deep pipelines (per-round alpha, OS noise), checked exactly on the virtual clock with the SMPI micro-benchmark's
# emulator build (bench/smpi/rd_bench.c): per-round hop latencies (PIPEKSP_EMU_ALPHA_US list) and the OS-noise
# model (PIPEKSP_EMU_NOISE_US / _PROB). usage: emu_rounds.sh <mpiexec> <rd_emu> <libpipeksp_emu.so>
set -u
mpx=$1 exe=$2 emu=$3
fails=0
run() { "$mpx" -n 2 -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_CLOCK=virtual "$@" 2>&1; }
expect() { # what, got, want
  if awk -v g="$2" -v w="$3" 'BEGIN{exit !(g != "" && g - w < 1e-6 && w - g < 1e-6)}'; then echo "ok   $1: $2"
  else echo "FAIL $1: got '$2', want $3"; fails=$((fails + 1)); fi
}
# P_sim 16: rounds 1, 1, 2, 2 us (the last value holds for later rounds)
o=$(run -x PIPEKSP_EMU_P=16 -x PIPEKSP_EMU_ALPHA_US=1,1,2 "$exe" -T 10 -ks 0,1,2,3 -trials 1)
expect "all rounds back to back" "$(echo "$o" | awk '/^calib/{print $7}')" 6
expect "k=0: round 1 in the compute, rounds 2-4 in the wait" "$(echo "$o" | awk '$1=="P" && $4==0 {print $8}')" 5
expect "k=1: rounds 3-4 left" "$(echo "$o" | awk '$1=="P" && $4==1 {print $8}')" 4
expect "k=2: round 4 left (the dear one)" "$(echo "$o" | awk '$1=="P" && $4==2 {print $8}')" 2
expect "k=3: nothing left" "$(echo "$o" | awk '$1=="P" && $4==3 {print $8}')" 0
# noise: chance 1 adds the delay to exactly one round of every reduction; chance 0 adds nothing
o=$(run -x PIPEKSP_EMU_P=16 -x PIPEKSP_EMU_ALPHA_US=1,1,2 -x PIPEKSP_EMU_NOISE_US=100 -x PIPEKSP_EMU_NOISE_PROB=1 "$exe" -T 0 -ks 0 -trials 3)
expect "noise chance 1: +100 us" "$(echo "$o" | awk '/^calib/{print $7}')" 106
o=$(run -x PIPEKSP_EMU_P=16 -x PIPEKSP_EMU_ALPHA_US=1,1,2 -x PIPEKSP_EMU_NOISE_US=100 -x PIPEKSP_EMU_NOISE_PROB=0 "$exe" -T 0 -ks 0 -trials 3)
expect "noise chance 0: nothing" "$(echo "$o" | awk '/^calib/{print $7}')" 6
# per-rank chance 1e-6 over 131072 ranks: 1 - (1 - 1e-6)^131072 = 0.122845 per reduction
o=$(run -x PIPEKSP_EMU_P=131072 -x PIPEKSP_EMU_NOISE_US=100 -x PIPEKSP_EMU_NOISE_PROB=1e-6 -x PIPEKSP_EMU_VERBOSE=1 "$exe" -T 0 -ks 0 -trials 1)
expect "chance that some rank of P_sim is hit" "$(echo "$o" | sed -n 's/.*OS noise 100 us with chance \([0-9.e-]*\) per reduction.*/\1/p')" 0.122845
# bad values are refused with the variable's name
o=$(run -x PIPEKSP_EMU_P=16 -x PIPEKSP_EMU_ALPHA_US=1,x "$exe" -T 0 -ks 0 -trials 1)
echo "$o" | grep -q 'PIPEKSP_EMU_ALPHA_US="1,x" is invalid' && echo "ok   bad alpha list refused" || { echo "FAIL bad alpha list accepted"; fails=$((fails + 1)); }
o=$(run -x PIPEKSP_EMU_P=16 -x PIPEKSP_EMU_NOISE_US=5 -x PIPEKSP_EMU_NOISE_PROB=2 "$exe" -T 0 -ks 0 -trials 1)
echo "$o" | grep -q 'PIPEKSP_EMU_NOISE_PROB="2" is invalid' && echo "ok   noise chance 2 refused" || { echo "FAIL noise chance 2 accepted"; fails=$((fails + 1)); }
[ $fails = 0 ] && echo "all checks passed" || echo "$fails check(s) FAILED"
