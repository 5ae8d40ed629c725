#!/bin/sh
# configure refuses a PETSC_DIR that is not a PETSc, and a PETSc older than 3.18, each with one line saying
# what it found and what is needed (a fake prefix whose PETSc.pc says 3.17.4 stands for the old one).
# usage: badpetsc_check.sh <source dir> <scratch dir>
SRC=$1 WORK=$2
rm -rf "$WORK" && mkdir -p "$WORK/notpetsc" "$WORK/old/lib/pkgconfig" "$WORK/old/include"
cat > "$WORK/old/lib/pkgconfig/PETSc.pc" <<PC
prefix=$WORK/old
libdir=\${prefix}/lib
includedir=\${prefix}/include
Name: PETSc
Description: Library to solve ODEs and algebraic equations
Version: 3.17.4
Cflags: -I\${includedir}
Libs: -L\${libdir} -lpetsc
PC
fails=0
check() { # check <name> <PETSC_DIR> <expected text>
  out=$(env -u PETSC_ARCH cmake -S "$SRC" -B "$WORK/build-$1" -DPETSC_DIR="$2" 2>&1)
  rc=$?
  # CMake wraps the message: join its lines before matching
  msg=$(echo "$out" | sed -n '/CMake Error/,/^$/p' | tr -s ' \n' ' ')
  if [ $rc -eq 0 ] || ! echo "$msg" | grep -qF "$3"; then
    echo "FAILED: PETSC_DIR=$2: configure rc $rc, expected \"$3\""; echo "$out" | tail -8; fails=$((fails + 1))
  else
    echo "refused: $(echo "$msg" | sed 's/.*(message): //')"
  fi
}
check notpetsc "$WORK/notpetsc" "PETSC_DIR=$WORK/notpetsc is not a PETSc installation (no lib/pkgconfig/PETSc.pc): PipeKSP needs PETSc 3.18 to 3.26"
check old "$WORK/old" "found PETSc 3.17.4 in $WORK/old/lib/pkgconfig: PipeKSP needs PETSc 3.18 to 3.26"
[ $fails -eq 0 ] && echo "bad PETSC_DIR refused OK"
