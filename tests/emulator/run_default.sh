#!/bin/sh
# bench/run-default.sh (`make run`) on a tiny cube: every row ok with an x limit without latency and under
# the emulator (cg's own 1.00, a hidden share per row), exit status 0; with the emulator missing, the table
# says that the EMULATED column was not run and the run still succeeds.
# usage: run_default.sh <source dir> <build dir>
set -u
src=$1 build=$2
fail() { echo "run-default check FAILED: $*"; exit 1; }
out=$(PIPEKSP_RUN_N=5 PIPEKSP_RUN_REPS=2 bash "$src/bench/run-default.sh" "$build" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "exit status $rc"
echo "$out" | grep -q "^all solves converged" || fail "no 'all solves converged'"
echo "$out" | grep -q "EMULATED column not run" && fail "the emulator was not used"
for pc in jacobi asddic; do
  echo "$out" | grep -Eq "^cg +$pc .* \| +1\.00 +[0-9.]+ +0\.00  ok$" || fail "cg + $pc: no x limit 1.00, EMULATED x limit and hidden 0.00"
  rows=$(echo "$out" | grep -Ec "^[a-z].* $pc .* \| +[0-9.]+ +[0-9.]+ +[0-9.]+  ok$")
  [ "$rows" -eq 13 ] || fail "$pc: $rows of 13 rows with both x limits and a hidden share"
done
out=$(PIPEKSP_RUN_N=5 PIPEKSP_RUN_REPS=1 PIPEKSP_RUN_EMU=/nonexistent/libpipeksp_emu.so bash "$src/bench/run-default.sh" "$build" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "exit status $rc without the emulator"
echo "$out" | grep -q "EMULATED column not run: the emulator cannot be used here: /nonexistent/libpipeksp_emu.so not built" ||
  fail "no message about the missing emulator"
echo "$out" | grep -Eq "^cg +jacobi .* \| +1\.00 +not run +-  ok$" || fail "cg + jacobi row without the emulator"
echo "run-default check passed"
