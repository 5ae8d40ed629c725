#!/bin/sh
# tutorials/ex1.py's own usage line works as written (run from the source tree), and an interpreter without
# petsc4py (here /usr/bin/python3 -S: no site packages) gets one line naming the one to use, not a traceback.
# usage: ex1_usage.sh <source dir> <mpiexec> [python]: the build's Python stands in for /usr/bin/python3 (a build
# against another PETSc has its own petsc4py)
SRC=$1 MPIEXEC=$2 PY=${3:-/usr/bin/python3}
cd "$SRC" || exit 1
line=$(sed -n 's/^ *mpiexec -n 4 \(.*tutorials\/ex1.py .*\)$/\1/p' tutorials/ex1.py | head -1)
[ -n "$line" ] || { echo "FAILED: no usage line in tutorials/ex1.py"; exit 1; }
line=$(echo "$line" | sed "s#/usr/bin/python3#$PY#")
out=$(eval "$MPIEXEC -n 4 $line" 2>&1)
echo "$out" | tail -3
echo "$out" | grep -q "converged after" || { echo "FAILED: the usage line did not solve"; exit 1; }
out=$(/usr/bin/python3 -S tutorials/ex1.py 2>&1)
echo "$out"
[ "$(echo "$out" | wc -l)" -eq 1 ] && echo "$out" | grep -q "has no petsc4py; run it with the Python that has it, Debian's /usr/bin/python3" ||
  { echo "FAILED: no one-line message naming the interpreter"; exit 1; }
echo "ex1.py usage OK"
