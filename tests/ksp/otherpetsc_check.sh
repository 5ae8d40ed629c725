#!/bin/sh
# A libpipeksp built for another PETSc, loaded with -dll_append into PETSc's ex2 of this build's PETSc, refuses
# at once with one line naming both versions (before: it registered, then "No method setup for KSP of type
# pipeplcg"); one built for the same PETSc still works. The other build is any sibling build folder
# (make test-petsc-latest's beside make test's); skipped (77) where there is none.
# A sibling library older than the registrar's source predates the check (a stale build folder): skipped.
# usage: otherpetsc_check.sh <this build dir> <this PETSc version> <ex2> <mpiexec> <source dir>
BUILD=$1 VERSION=$2 EX2=$3 MPIEXEC=$4 SRC=$5
fail() { echo "FAILED: $*"; exit 1; }
found=0
for lib in "$(dirname "$BUILD")"/*/libpipeksp.so; do
  [ -f "$lib" ] || continue
  [ "$(cd "$(dirname "$lib")" && pwd -P)" = "$(cd "$BUILD" && pwd -P)" ] && continue
  [ "$lib" -ot "$SRC/src/dlregispipeksp.c" ] && { echo "$lib: older than the registrar's source, skipped"; continue; }
  out=$($MPIEXEC -n 2 "$EX2" -dll_append "$lib" -ksp_type pipeplcg 2>&1)
  rc=$?
  if echo "$out" | grep -q "libpipeksp was built for PETSc"; then
    line=$(echo "$out" | grep -m1 "libpipeksp was built for PETSc")
    built=$(echo "$line" | sed -n 's/.*built for PETSc \([0-9.]*\),.*/\1/p')
    runs=$(echo "$line" | sed -n 's/.*this program runs PETSc \([0-9.]*\):.*/\1/p')
    [ "$runs" = "$VERSION" ] || fail "$line: names $runs, not this PETSc $VERSION"
    [ -n "$built" ] && [ "$built" != "$VERSION" ] || fail "$line: refused the same version"
    [ "$rc" -ne 0 ] || fail "$lib: refused but exited 0"
    # every rank refuses, but mpiexec may stop a rank before it prints once the first has exited: one line at least
    echo "$out" | grep -q "No method\|Segmentation\|signal" && fail "$lib: refused, but something else broke too"
    echo "$lib refused: $line"
    found=$((found + 1))
  else
    [ "$rc" -eq 0 ] && echo "$out" | grep -q "Norm of error" || { echo "$out" | tail -5; fail "$lib: neither refused nor solved"; }
    echo "$lib (same PETSc) solves"
  fi
done
[ "$found" -gt 0 ] || { echo "no libpipeksp built for another PETSc beside $BUILD: skipped"; exit 77; }
echo "other PETSc refused OK"
