#!/bin/sh
# First-hour traps of the top-level Makefile:
# - a failed configure (PETSC_DIR=/nonexistent) does not block its build folder: it fails again with the
#   command that starts over, and `make configure` with a good PETSc redoes it (before: "No rule to make
#   target 'Makefile'" for good);
# - `make test search=...` that matches nothing fails with a hint (ctest alone says "No tests were found!!!"
#   and exits 0), and a bare program name (search=ex3) selects that program's tests.
# usage: make_traps.sh <source dir> <build dir> <scratch dir>
SRC=$1 BUILD=$2 WORK=$3
unset MAKEFLAGS MFLAGS MAKELEVEL CMAKE_FLAGS # make test-petsc-latest exports its -DPETSC_DIR, which would mend the bad one
rm -rf "$WORK" && mkdir -p "$WORK"
fail() { echo "FAILED: $*"; exit 1; }
bad=$WORK/build-bad
PETSC_DIR=/nonexistent make --no-print-directory -C "$SRC" configure BUILD="$bad" > "$WORK/1.log" 2>&1 && fail "configure with PETSC_DIR=/nonexistent succeeded"
PETSC_DIR=/nonexistent make --no-print-directory -C "$SRC" configure BUILD="$bad" > "$WORK/2.log" 2>&1 && fail "second configure with PETSC_DIR=/nonexistent succeeded"
grep -q "No rule to make target" "$WORK/2.log" && { cat "$WORK/2.log"; fail "the failed configure blocks $bad"; }
grep -q "start over with: make clean BUILD=$bad && make BUILD=$bad" "$WORK/2.log" || { cat "$WORK/2.log"; fail "no command that starts over"; }
grep -q "PETSC_DIR=/nonexistent is not a PETSc installation" "$WORK/2.log" || { cat "$WORK/2.log"; fail "no reason"; }
echo "failed configure refused again with: $(grep 'start over' "$WORK/2.log")"
env -u PETSC_DIR make --no-print-directory -C "$SRC" configure BUILD="$bad" > "$WORK/3.log" 2>&1 || { tail -5 "$WORK/3.log"; fail "configure after a failed one, without PETSC_DIR, failed"; }
[ -f "$bad/Makefile" ] || fail "no $bad/Makefile after the redone configure"
echo "failed configure redone OK"
make --no-print-directory -C "$SRC" test BUILD="$BUILD" search='tests-ex99_*' > "$WORK/s.log" 2>&1 && fail "a search that matches nothing passed"
grep -q "no test matches" "$WORK/s.log" || { cat "$WORK/s.log"; fail "no hint for a search that matches nothing"; }
re=$(bash "$SRC/config/test-search.sh" "$BUILD" ex3) || fail "search=ex3 matches nothing"
list=$(cd "$BUILD" && ctest -N -R "$re" | sed -n 's/.*Test *#[0-9]*: //p')
[ -n "$list" ] || fail "search=ex3 lists no test"
echo "$list" | grep -v -e '^tests-ex3_' -e '^tutorials-ex3_' -e '^tmpdirs-' && fail "search=ex3 selects other tests (tmpdirs- is a fixture)"
echo "search=ex3 selects $(echo "$list" | wc -l) tests, tests-ex99_* refused"
echo "make traps OK"
