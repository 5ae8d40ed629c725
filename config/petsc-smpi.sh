#!/usr/bin/env bash
# Build PETSc for SimGrid's SMPI (static, smpicc) and PipeKSP's SMPI driver (bench_cube + bench/smpi/solve_shim.c)
# into the cache, from the same PETSc source that config/petsc-latest.sh downloads. Reused when the cache holds
# the same version built the same way; the driver is rebuilt when a PipeKSP source is newer.
# Usage: config/petsc-smpi.sh [--print-driver]   (prints the driver's path)
#   PIPEKSP_CACHE   cache folder (default ${XDG_CACHE_HOME:-~/.cache}/pipeksp)
#   PETSC_LATEST    version (default below)
# Needs smpicc (Debian libsimgrid-dev). About 5 minutes of configure + 10 of build on 2 shared cores.
set -euo pipefail

VERSION=${PETSC_LATEST:-3.26.1}
CACHE=${PIPEKSP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pipeksp}
PREFIX=$CACHE/petsc-$VERSION-smpi
DRVDIR=$CACHE/pipeksp-smpi
DRIVER=$DRVDIR/bench_cube_smpi
# static, -fPIC (smpirun loads the program as one shared object, which links libpetsc.a in), no Fortran, no C++, SimGrid's malloc left alone
CONFIGURE=(--with-cc=smpicc --with-cxx=0 --with-fc=0 --with-shared-libraries=0 --with-debugging=0 --with-x=0 --with-ssl=0
  COPTFLAGS=-O2 "CFLAGS=-DSMPI_NO_OVERRIDE_MALLOC -fPIC" --with-mpiexec=smpirun)
STAMP="petsc $VERSION smpi: ${CONFIGURE[*]}"
JOBS=${JOBS:-2}
here=$(cd "$(dirname "$0")/.." && pwd)
self=$here/config/$(basename "$0") # $0 may be relative, and the build cd-s away

log() { echo "petsc-smpi: $*" >&2; }

if [ "${1:-}" = "--print-driver" ]; then
  echo "$DRIVER"
  exit 0
fi
command -v smpicc >/dev/null || { log "smpicc missing (Debian: apt-get install libsimgrid-dev)"; exit 1; }

src=${PIPEKSP_PETSC_SRC:-$CACHE/src/petsc-$VERSION.tar.gz} # PIPEKSP_PETSC_SRC: that tarball instead
if ! { [ -f "$PREFIX/.pipeksp-stamp" ] && [ "$(cat "$PREFIX/.pipeksp-stamp")" = "$STAMP" ]; }; then
  # the source petsc-latest.sh downloads: wait for a download in flight (another build), else fetch it the same way
  for _ in $(seq 1 120); do
    [ -s "$src" ] && break
    pgrep -f "pip download .*petsc==$VERSION" >/dev/null || break
    log "waiting for the PETSc $VERSION download in flight ($src)"
    sleep 15
  done
  [ -s "$src" ] || src=$(bash "$here/config/petsc-latest.sh" --fetch-source) || { log "no PETSc $VERSION source"; exit 1; }
  t0=$(date +%s)
  bdir=$CACHE/build-smpi
  rm -rf "$PREFIX" "$bdir"
  mkdir -p "$bdir"
  tar -xzf "$src" -C "$bdir"
  cd "$bdir/petsc-$VERSION"
  log "configuring PETSc $VERSION for SMPI (log: $bdir/petsc-$VERSION/configure.log)"
  # SMPI_PRETEND_CC: smpicc builds plain executables, so configure can run its test programs
  SMPI_PRETEND_CC=1 /usr/bin/python3 ./configure --prefix="$PREFIX" "${CONFIGURE[@]}" PETSC_ARCH=arch-smpi >"$bdir/configure.out" 2>&1 ||
    { tail -30 "$bdir/configure.out" >&2; exit 1; }
  log "building PETSc $VERSION for SMPI"
  SMPI_PRETEND_CC=1 make PETSC_DIR="$PWD" PETSC_ARCH=arch-smpi MAKE_NP="$JOBS" all >"$bdir/make.out" 2>&1 ||
    { tail -30 "$bdir/make.out" >&2; exit 1; }
  SMPI_PRETEND_CC=1 make PETSC_DIR="$PWD" PETSC_ARCH=arch-smpi install >"$bdir/install.out" 2>&1 ||
    { tail -30 "$bdir/install.out" >&2; exit 1; }
  echo "$STAMP" >"$PREFIX/.pipeksp-stamp"
  log "PETSc $VERSION for SMPI built in $(($(date +%s) - t0)) s"
  cd /
  rm -rf "$bdir"
fi

# the driver: PipeKSP's sources, bench_cube and the shim, one shared object for smpirun (no OpenMP: one
# thread per simulated rank). Every MPI call the shim takes over is wrapped at link time.
srcs=$(ls "$here"/src/*.c "$here"/src/sys/*.c "$here"/src/mat/*.c "$here"/src/ksp/*.c "$here"/src/pc/*.c "$here"/src/mesh/*.c "$here"/bench/bench_cube.c "$here"/bench/smpi/solve_shim.c "$here"/bench/smpi/flop_price.c)
newest=$(ls -t $srcs "$here/bench/smpi/solve_shim.wraps" "$here"/bench/smpi/flop_price.h "$here"/include/*.h "$here"/include/pipeksp/*.h "$PREFIX/.pipeksp-stamp" "$self" | head -1)
if [ ! -x "$DRIVER" ] || [ "$newest" -nt "$DRIVER" ]; then
  mkdir -p "$DRVDIR/obj"
  wraps=$(sed 's/^/-Wl,--wrap=/' "$here/bench/smpi/solve_shim.wraps" | tr '\n' ' ')
  libs=$(sed -n 's/^Libs.private: //p' "$PREFIX/lib/pkgconfig/PETSc.pc")
  objs=""
  for s in $srcs; do
    o=$DRVDIR/obj/$(echo "${s#"$here"/}" | tr / _).o
    # -ffp-contract=off: the compensated sums (CMakeLists.txt says why)
    smpicc -O2 -ffp-contract=off -fPIC -DSMPI_NO_OVERRIDE_MALLOC -DPIPEKSP_SMPI -I"$here/include" -I"$PREFIX/include" -c "$s" -o "$o" 2>&1 | grep -v "^Warning: smpicc" >&2 || true
    [ -s "$o" ] || { log "compiling $s FAILED"; exit 1; }
    objs="$objs $o"
  done
  # shellcheck disable=SC2086
  smpicc -O2 -o "$DRIVER.tmp" $objs "$PREFIX/lib/libpetsc.a" $libs $wraps -lm || { log "linking $DRIVER FAILED"; exit 1; }
  mv "$DRIVER.tmp" "$DRIVER"
  log "built $DRIVER"
fi
echo "$DRIVER"
