#!/bin/bash
# bench/smpi/solve_shim.c under SMPI without PETSc (tests/smpi/shim_check.c): P = 16 (power of two: the
# one-round-per-call MPI_Iallreduce) and P = 6 (SMPI's own MPI_Iallreduce; the scans) on a flat cluster.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v smpicc >/dev/null || { echo "skipped: no smpicc"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
wraps=$(sed 's/^/-Wl,--wrap=/' "$root/bench/smpi/solve_shim.wraps" | tr '\n' ' ')
# shellcheck disable=SC2086
smpicc -O2 -o shim_check "$root/tests/smpi/shim_check.c" "$root/bench/smpi/solve_shim.c" "$root/bench/smpi/flop_price.c" $wraps 2>&1 | grep -v "^Warning: smpicc"
[ -x shim_check ] || { echo "FAIL: building shim_check"; exit 1; }
cat > flat.xml <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-15" speed="1Gf" bw="12.5GBps" lat="1us"/>
</platform>
XML
seq 0 15 | sed 's/^/node-/' > hosts
echo "* 1e-9" > rates
rc=0
for P in 16 6; do
  PIPEKSP_SMPI_RATES=$work/rates PIPEKSP_SMPI_TEST_S=1e-7 timeout 120 smpirun -np $P -platform flat.xml -hostfile hosts \
    --cfg=smpi/simulate-computation:no --cfg=smpi/host-speed:1Gf --cfg=smpi/test:0 --cfg=smpi/wtime:0 \
    --cfg=smpi/privatization:mmap --log=root.thr:critical ./shim_check > out 2>&1
  r=$?
  grep -E "^(P=|shim_check|FAIL)" out
  grep -q "shim_check PASSED (P=$P)" out && [ $r -eq 0 ] || { tail -5 out; echo "FAIL: shim_check at P=$P (exit $r)"; rc=1; }
done
exit $rc
