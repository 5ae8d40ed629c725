#!/bin/bash
# A self-contained copy of the SMPI side of `make bench-smpi-solve`, to run it on another x86-64 Linux machine
# without SimGrid (one with more cores: the SMPI launches are single-threaded and independent): SimGrid's
# smpimain and smpirun, the driver that config/petsc-smpi.sh builds, and every shared library they load,
# glibc and its loader included (smpirun starts smpimain through that loader, so the other machine's own
# libraries are never used). The simulated figures do not depend on the machine: the compute is priced from
# PETSc's flop counts (bench/smpi/rates.txt), not timed.
# usage: bash bench/smpi/bundle.sh <out.tar.xz>; there, in a PipeKSP checkout:
#   tar -xJf out.tar.xz && export SMPI_BUNDLE=$PWD/smpi-bundle PIPEKSP_SMPIRUN=$PWD/smpi-bundle/bin/smpirun \
#     PIPEKSP_SMPI_DRIVER=$PWD/smpi-bundle/bin/bench_cube_smpi PIPEKSP_SMPI_SOLVE_WHAT=smpi
#   bash bench/smpi/solve.sh <scratch folder>     (then copy <scratch>/bench/smpi-solve back: solve_report.py)
set -euo pipefail
out=${1:?usage: bundle.sh <out.tar.xz>}
root=$(cd "$(dirname "$0")/../.." && pwd)
main=/usr/lib/x86_64-linux-gnu/simgrid/smpimain
[ -x "$main" ] && command -v smpirun >/dev/null || { echo "bundle: SimGrid's smpimain/smpirun missing (apt-get install libsimgrid-dev)"; exit 1; }
drv=$(bash "$root/config/petsc-smpi.sh")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
b=$tmp/smpi-bundle
mkdir -p "$b/lib" "$b/bin"
# shellcheck disable=SC2046
cp -L $( (ldd "$main"; ldd "$drv") | awk '/=>/ { print $3 } /ld-linux/ { print $1 }' | sort -u) "$b/lib/"
cp "$main" "$drv" "$b/bin/"
strip "$b/bin/$(basename "$drv")"
# smpirun starts smpimain by its absolute path: through the bundled loader and libraries instead
sed "s|\"$main\"|\"\$SMPI_BUNDLE/lib/ld-linux-x86-64.so.2\" --library-path \"\$SMPI_BUNDLE/lib\" \"\$SMPI_BUNDLE/bin/smpimain\"|" \
  "$(command -v smpirun)" > "$b/bin/smpirun"
chmod +x "$b/bin/smpirun"
grep -q 'SMPI_BUNDLE/bin/smpimain' "$b/bin/smpirun" || { echo "bundle: smpirun no longer starts $main: patch it by hand"; exit 1; }
tar -C "$tmp" -cJf "$out" smpi-bundle
echo "bundle: $out ($(du -h "$out" | cut -f1)), $(ls "$b/lib" | wc -l) libraries"
