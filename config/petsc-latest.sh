#!/usr/bin/env bash
# Build the pinned newest PETSc and petsc4py from their sources on the Python package index, into a cache
# outside the work tree, and print the PETSc prefix. Reused when the cache holds the same version built
# the same way. Usage: config/petsc-latest.sh [--print-prefix | --fetch-source]
#   --fetch-source  only download PETSc's source (config/petsc-smpi.sh builds from it) and print its path
#   PIPEKSP_CACHE   cache folder (default ${XDG_CACHE_HOME:-~/.cache}/pipeksp)
#   PETSC_LATEST    version (default below)
set -euo pipefail

VERSION=${PETSC_LATEST:-3.26.1}
CACHE=${PIPEKSP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pipeksp}
PREFIX=$CACHE/petsc-$VERSION
# no --download-*: nothing but the package index is reachable; Debian's MPI, BLAS and LAPACK are found
CONFIGURE="--with-debugging=0 --with-fc=0 --with-cc=mpicc --with-cxx=mpicxx --with-shared-libraries=1 --with-x=0"
STAMP="petsc $VERSION: $CONFIGURE"
JOBS=${JOBS:-2}

log() { echo "petsc-latest: $*" >&2; }

if [ "${1:-}" = "--print-prefix" ]; then
  echo "$PREFIX"
  exit 0
fi

if [ "${1:-}" != "--fetch-source" ] && [ -f "$PREFIX/.pipeksp-stamp" ] && [ "$(cat "$PREFIX/.pipeksp-stamp")" = "$STAMP" ] &&
  [ -f "$PREFIX/lib/pkgconfig/PETSc.pc" ] && [ -f "$PREFIX/py/.petsc4py-stamp" ]; then
  log "reusing PETSc $VERSION and petsc4py in $PREFIX"
  echo "$PREFIX"
  exit 0
fi

mkdir -p "$CACHE/src"
# pip from a venv of Debian's python3 (python3-venv): the python3 of a fresh machine may have no pip
PIP="$CACHE/pip-venv/bin/python -m pip"
# pip download prepares an sdist's metadata, and petsc's setup.py needs wheel for it: without build isolation
# (which would build setuptools and wheel from their sdists too, --no-binary :all:) the venv must hold them.
# config/petsc-smpi.sh gets its source here too (--fetch-source): its own copy of this download had no wheel
# and failed on a fresh machine whenever make petsc-smpi ran before make petsc-latest.
[ -x "$CACHE/pip-venv/bin/python" ] || /usr/bin/python3 -m venv "$CACHE/pip-venv" >&2
if [ ! -f "$CACHE/pip-venv/.pipeksp-tools" ]; then
  $PIP install -q setuptools wheel packaging >&2 || { log "installing setuptools, wheel and packaging into $CACHE/pip-venv failed"; exit 1; }
  touch "$CACHE/pip-venv/.pipeksp-tools"
fi
fetch() { # fetch NAME: the sdist NAME-VERSION.tar.gz into $CACHE/src
  local name=$1 f="$CACHE/src/$1-$VERSION.tar.gz"
  [ -s "$f" ] && return 0
  log "downloading $name $VERSION source"
  $PIP download -q --no-deps --no-binary :all: --no-build-isolation -d "$CACHE/src" "$name==$VERSION" >&2 || true
  [ -s "$f" ] || { log "no $f after download"; exit 1; }
}

if [ "${1:-}" = "--fetch-source" ]; then
  fetch petsc
  echo "$CACHE/src/petsc-$VERSION.tar.gz"
  exit 0
fi

if ! { [ -f "$PREFIX/.pipeksp-stamp" ] && [ "$(cat "$PREFIX/.pipeksp-stamp")" = "$STAMP" ]; }; then
  fetch petsc
  t0=$(date +%s)
  rm -rf "$PREFIX" "$CACHE/build/petsc-$VERSION"
  mkdir -p "$CACHE/build"
  tar -xzf "$CACHE/src/petsc-$VERSION.tar.gz" -C "$CACHE/build"
  cd "$CACHE/build/petsc-$VERSION"
  log "configuring PETSc $VERSION (log: $CACHE/build/petsc-$VERSION/configure.log)"
  # shellcheck disable=SC2086
  /usr/bin/python3 ./configure --prefix="$PREFIX" $CONFIGURE PETSC_ARCH=arch-pipeksp >"$CACHE/build/configure.out" 2>&1 ||
    { tail -30 "$CACHE/build/configure.out" >&2; exit 1; }
  log "building PETSc $VERSION (about 6 minutes on 2 cores)"
  make PETSC_DIR="$PWD" PETSC_ARCH=arch-pipeksp MAKE_NP="$JOBS" all >"$CACHE/build/make.out" 2>&1 ||
    { tail -30 "$CACHE/build/make.out" >&2; exit 1; }
  make PETSC_DIR="$PWD" PETSC_ARCH=arch-pipeksp install >"$CACHE/build/install.out" 2>&1 ||
    { tail -30 "$CACHE/build/install.out" >&2; exit 1; }
  echo "$STAMP" >"$PREFIX/.pipeksp-stamp"
  log "PETSc $VERSION built in $(($(date +%s) - t0)) s"
  cd /
  rm -rf "$CACHE/build/petsc-$VERSION"
fi

# petsc4py for Debian's /usr/bin/python3 (its numpy and pytest), in a venv that sees the system packages.
# Its build requirements name petsc itself: build and download it against ours, without isolation.
if [ ! -f "$PREFIX/py/.petsc4py-stamp" ]; then
  t0=$(date +%s)
  rm -rf "$PREFIX/py"
  /usr/bin/python3 -m venv --system-site-packages "$PREFIX/py"
  PY="$PREFIX/py/bin/python"
  "$PY" -m pip install -q "cython>=3" setuptools wheel >&2
  export PETSC_DIR="$PREFIX" PETSC_ARCH=""
  PIP="$PY -m pip" fetch petsc4py
  log "building petsc4py $VERSION against $PREFIX"
  "$PY" -m pip install -q --no-deps --no-build-isolation "$CACHE/src/petsc4py-$VERSION.tar.gz" >&2
  "$PY" -c "from petsc4py import PETSc; assert PETSc.Sys.getVersion()[:2] == tuple(map(int, '$VERSION'.split('.')))[:2]"
  echo "petsc4py $VERSION" >"$PREFIX/py/.petsc4py-stamp"
  log "petsc4py $VERSION built in $(($(date +%s) - t0)) s"
fi
echo "$PREFIX"
