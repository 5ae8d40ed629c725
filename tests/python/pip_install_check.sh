#!/bin/sh
# `pip install ./python` offline into a scratch prefix, then use the installed copy from outside the source
# tree with no PIPEKSP_LIB: it must load the libpipeksp.so bundled next to the package.
# usage: pip_install_check.sh <python> <repo> <scratch dir> <libpipeksp.so to bundle>
set -e
PY=$1 REPO=$2 WORK=$3 LIB=$4
rm -rf "$WORK" && mkdir -p "$WORK/src"
cp -r "$REPO/python/." "$WORK/src/"          # build outside the source tree (setuptools writes build/)
rm -rf "$WORK/src/build" "$WORK/src/"*.egg-info
PIPEKSP_LIB="$LIB" "$PY" -m pip install --no-build-isolation --no-deps --no-index --disable-pip-version-check --no-cache-dir \
  --target "$WORK/site" "$WORK/src"
test -f "$WORK/site/pipeksp/libpipeksp.so"
cd "$WORK"
env -u PIPEKSP_LIB -u PIPEKSP_DIR PYTHONPATH="$WORK/site" "$PY" -c '
import os, pipeksp
from petsc4py import PETSc
p = pipeksp.register()
assert p == os.path.join(os.path.dirname(pipeksp.__file__), "libpipeksp.so"), p
c = pipeksp.Cube(n=4, from_options=False)
ksp = PETSc.KSP().create(); ksp.setOperators(c.A); ksp.setType("chrongear"); ksp.setTolerances(rtol=1e-10)
x = c.b.duplicate(); ksp.solve(c.b, x)
assert ksp.getConvergedReason() > 0 and c.error(x) < 1e-7, (ksp.getConvergedReason(), c.error(x))
print("installed pipeksp OK: %s, chrongear %d its, error %.1e" % (p, ksp.getIterationNumber(), c.error(x)))
for o in (x, ksp, c): o.destroy()
'
