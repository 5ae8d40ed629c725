#!/bin/bash
# SIMULATED (SimGrid SMPI): cg against pipegv with progress poll, jacobi, 16 ranks (4 x 2 x 2, 7^3 nodes per
# rank) on bench/smpi's fat tree, the measured MPI_Test cost (0.065 us), deterministic compute from the
# committed bench/smpi/rates.txt. Asserts: every solve passes the accuracy check; the two repetitions of each
# solver agree within 0.1% (the compute is deterministic); pipegv-poll is faster than cg (speedup > 1) and
# the speedup lies in a band: the measured 1.5072 (2026-11-27: cg 52.25 us/it, pipegv-poll 34.67; PETSc cg
# makes three blocking reductions per iteration, recursive doubling (smpi/allreduce:rdb, as the non-blocking
# one), 4 rounds of 1-2 us each on this tree, against about 30 us of compute at the rates of bench/smpi/rates.txt)
# +-5%, room for another BLAS's flop count or a SimGrid release (PIPEKSP_SMPI_TEST_LO/HI override it).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v smpirun >/dev/null || { echo "skipped: no smpirun"; exit 77; }
drv=$(bash "$root/config/petsc-smpi.sh" --print-driver)
[ -x "$drv" ] || { echo "skipped: the SMPI driver $drv is not built (make petsc-smpi)"; exit 77; }
# a build older than a PipeKSP source is rebuilt first (a minute: the driver only, PETSc is reused)
bash "$root/config/petsc-smpi.sh" >/dev/null || { echo "FAIL: rebuilding the SMPI driver"; exit 1; }
lo=${PIPEKSP_SMPI_TEST_LO:-1.43} hi=${PIPEKSP_SMPI_TEST_HI:-1.58}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
plat=$(bash "$root/bench/smpi/fattree.sh" 16 0.25 "$work")
. "$root/bench/smpi/cases.sh" # the solvers' options, as make bench-smpi-solve runs them
write_cfg "$work/cfg" "$(pc_options jacobi)" cg pipegv-poll
t0=$(date +%s)
out=$(cd "$work" && PIPEKSP_SMPI_RATES="$root/bench/smpi/rates.txt" PIPEKSP_SMPI_TEST_S=0.065e-6 smpirun -np 16 -platform "$plat" -hostfile "$work/hosts16" \
  $(bash "$root/bench/smpi/smpi_cfg.sh" measured mmap) \
  "$drv" -bench_config cfg -bench_reps 2 -bench_order rotate -bench_tag SIMULATED,jacobi,16 \
  -cube_nx 28 -cube_ny 14 -cube_nz 14 -da_processors_x 4 -da_processors_y 2 -da_processors_z 2 2>&1)
rc=$?
echo "$out" | grep -E "^SIMULATED|^# (SIMULATED|paired)"
echo "SMPI run: exit $rc, $(($(date +%s) - t0)) s of wall time"
[ $rc -eq 0 ] || { echo "$out" | tail -20; echo "FAIL: smpirun exited with $rc"; exit 1; }
echo "$out" | python3 -c '
import re, sys
lo, hi = float(sys.argv[1]), float(sys.argv[2])
spi, bad = {}, 0
for line in sys.stdin:
    w = line.strip().split(",")
    if len(w) == 13 and w[0] == "SIMULATED":
        spi.setdefault(w[3], []).append(float(w[7]))
        bad += w[11] != "1"
ok = True
def fail(m):
    global ok
    print("FAIL: " + m); ok = False
if sorted(spi) != ["cg", "pipegv-poll"] or any(len(v) != 2 for v in spi.values()): fail("expected 2 solves of cg and of pipegv-poll, got %s" % spi)
else:
    if bad: fail("%d solves missed the accuracy check" % bad)
    for k, v in spi.items():
        if abs(v[1] - v[0]) > 1e-3 * v[0]: fail("%s: repetitions differ (%g, %g s/it): the simulated compute is not deterministic" % (k, v[0], v[1]))
    s = spi["cg"][0] / spi["pipegv-poll"][0]
    print("SIMULATED speedup of pipegv-poll over cg at P=16: %.4f (cg %.2f us/it, pipegv-poll %.2f us/it; band [%g, %g])" % (s, 1e6 * spi["cg"][0], 1e6 * spi["pipegv-poll"][0], lo, hi))
    if s <= 1: fail("pipegv-poll is not faster than cg under SMPI (speedup %.4f)" % s)
    if not lo <= s <= hi: fail("speedup %.4f outside the band [%g, %g]" % (s, lo, hi))
if ok: print("smpi_solve PASSED")
' "$lo" "$hi"
