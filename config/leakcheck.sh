#!/usr/bin/env bash
# Runs one run script of PETSc's test harness and fails the entry when its program leaked.
# config/harness.cmake registers every C test entry (tests/ex*.c, tutorials/ex*.c) through this script.
# The harness's scripts add -malloc_dump; the entry's filter shows the diff only what it greps, so a
# leak (PETSc prints "[ 0] 1600 bytes VecCreate() at ...", the exit code stays 0) never reaches the
# diff. Here the program's raw output (stdout and stderr, kept in the script's run folder) is searched
# instead, and a leak adds a "not ok" TAP line, which ctest fails on. -malloc_debug (PETSc's heap checks
# at every allocation) is on for every entry; an entry that cannot afford it passes -malloc_debug 0 and
# says why in its TEST block.
# usage: leakcheck.sh <leak regex (extended)> <run script> [script options]
regex=$1
script=$2
shift 2
export PETSC_OPTIONS="${PETSC_OPTIONS:+$PETSC_OPTIONS }-malloc_debug"
bash "$script" "$@"
rundir=$(dirname "$script")/$(basename "$script" .sh)
label=$(sed -n "s/^label='\(.*\)'$/\1/p" "$script")
leaks=$(cat "$rundir"/*.tmp "$rundir"/*.err 2>/dev/null | grep -E -- "$regex")
if [ -n "$leaks" ]; then
  echo "not ok leak-$label # memory not freed at PetscFinalize() (-malloc_dump):"
  printf '%s\n' "$leaks" | head -n 20 | sed 's/^/#\t/'
else
  echo "ok leak-$label"
fi
