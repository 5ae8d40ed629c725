#!/bin/sh
# bench/run-default.sh (`make run`) on a tiny cube: every row ok with ratios to cg without latency and under
# the emulator (cg's own 1.00, a hidden share per row), the noise-check row, one verdict sentence per PC, exit
# status 0; with the emulator missing, the table says that the EMULATED columns were not run and the run
# still succeeds.
# usage: run_default.sh <source dir> <build dir>
set -u
src=$1 build=$2
fail() { echo "run-default check FAILED: $*"; exit 1; }
out=$(PIPEKSP_RUN_N=5 PIPEKSP_RUN_REPS=3 PIPEKSP_RUN_BUSY=1000 bash "$src/bench/run-default.sh" "$build" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "exit status $rc"
echo "$out" | grep -q "^all solves converged" || fail "no 'all solves converged'"
echo "$out" | grep -q "EMULATED columns not run" && fail "the emulator was not used"
for pc in jacobi asddic; do
  echo "$out" | grep -Eq "^cg +[0-9-]+ \| 1\.00 \[1\.00-1\.00\] +\| 1\.00 \[1\.00-1\.00\] +[0-9.]+ \[[0-9.-]+\] +0\.00 \| ok$" ||
    fail "$pc: cg's row is not 1.00 in both modes with an x limit and hidden 0.00"
  echo "$out" | grep -Eq "^  $pc: under the EMULATED latency of 4,096 nodes pipeplcg \(default options\) takes [0-9.]+x cg's time per iteration \(IQR [0-9.]+-[0-9.]+; cg against itself [0-9.]+-[0-9.]+\): (faster than cg|slower than cg|within noise, the IQRs overlap)\.$" ||
    fail "$pc: no verdict sentence"
done
rows=$(echo "$out" | grep -Ec "^[a-z][^|]* [0-9-]+ \| [0-9.]+ \[[0-9.-]+\] +\| [0-9.]+ \[[0-9.-]+\] +[0-9.]+ \[[0-9.-]+\] +[0-9.]+ \| ")
[ "$rows" -eq 28 ] || fail "$rows of 28 rows with both ratios, an x limit and a hidden share"
[ "$(echo "$out" | grep -c "noise check$")" -eq 2 ] || fail "no 'cg (again)' noise-check row per PC"
out=$(PIPEKSP_RUN_N=5 PIPEKSP_RUN_REPS=2 PIPEKSP_RUN_BUSY=1000 PIPEKSP_RUN_EMU=/nonexistent/libpipeksp_emu.so bash "$src/bench/run-default.sh" "$build" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "exit status $rc without the emulator"
echo "$out" | grep -q "EMULATED columns not run: the emulator cannot be used here: /nonexistent/libpipeksp_emu.so not built" ||
  fail "no message about the missing emulator"
echo "$out" | grep -Eq "^  jacobi: without latency pipeplcg" || fail "no verdict without the emulator"
echo "run-default check passed"
