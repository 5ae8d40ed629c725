#!/bin/sh
# Install the built tree the README's way (`make install PREFIX=...`, with build/ already configured for
# another prefix) and build a PETSc application against the INSTALLED copy only, both ways a user would:
# pkg-config (the README's own `mpicc app.c $(... pkg-config ...)` line, run verbatim with the prefix
# substituted, no LD_LIBRARY_PATH) and CMake find_package(PipeKSP). Each build of tutorials/ex1.c must
# then solve the cube with pipegv + asddic to the exact solution.
# usage: consumer_check.sh <build dir> <source dir> <scratch dir> <mpiexec>
set -e
BUILD=$1 SRC=$2 WORK=$3 MPIEXEC=$4
rm -rf "$WORK" && mkdir -p "$WORK"
unset LD_LIBRARY_PATH MAKEFLAGS MFLAGS MAKELEVEL
# 0. `make install PREFIX=` is honoured every time, whatever prefix build/ was configured with
cfgprefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$BUILD/CMakeCache.txt")
[ "$cfgprefix" != "$WORK/prefix" ] || { echo "FAILED: the build is configured for the test prefix; cannot test PREFIX"; exit 1; }
for p in "$WORK/first" "$WORK/prefix"; do
  make --no-print-directory -C "$SRC" install BUILD="$BUILD" PREFIX="$p" > "$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; echo "FAILED: make install PREFIX=$p"; exit 1; }
  for f in include/pipeksp.h lib/pkgconfig/pipeksp.pc lib/cmake/PipeKSP/PipeKSPConfig.cmake; do
    test -f "$p/$f" || { echo "FAILED: make install PREFIX=$p did not install $f there (configure-time prefix: $cfgprefix)"; exit 1; }
  done
done
echo "make install PREFIX=... honoured twice (build configured for $cfgprefix)"
# a summary, not screens of the sub-makes' "Entering/Leaving directory"
cat "$WORK/install.log"
[ "$(wc -l < "$WORK/install.log")" -le 2 ] && ! grep -q "Entering directory" "$WORK/install.log" && grep -q "^make install: PipeKSP into $WORK/prefix" "$WORK/install.log" ||
  { echo "FAILED: make install printed more than its summary"; exit 1; }
# `make clean` must never remove an install tree, even with PREFIX in the environment (conda, Termux)
if PREFIX="$WORK/prefix" make -n --no-print-directory -C "$SRC" clean BUILD="$BUILD" | grep -q "$WORK/prefix"; then
  echo "FAILED: make clean would delete the install tree \$PREFIX"; exit 1
fi
LIBDIR=$(dirname "$(find "$WORK/prefix" -name 'libpipeksp.so' | head -1)")

# 1. pkg-config, exactly as the README shows it (its /opt/pipeksp replaced by our prefix)
line=$(grep -m1 '^mpicc app.c .*pkg-config' "$SRC/README.md") || { echo "FAILED: no 'mpicc app.c ... pkg-config' line in README.md"; exit 1; }
line=$(echo "$line" | sed "s#/opt/pipeksp#$WORK/prefix#g")
echo "README line: $line"
# pipeksp.pc carries its PETSc's flags and run path: no PETSc.pc on PKG_CONFIG_PATH
inc=$(PKG_CONFIG_PATH="$LIBDIR/pkgconfig" pkg-config --variable=includedir pipeksp)
[ "$(cd "$inc" && pwd)" = "$(cd "$WORK/prefix/include" && pwd)" ] || { echo "FAILED: pipeksp.pc includedir $inc is not in $WORK/prefix"; exit 1; }
cp "$SRC/tutorials/ex1.c" "$WORK/app.c"
(cd "$WORK" && eval "$line") || { echo "FAILED: the README's mpicc line did not build"; exit 1; }
mv "$WORK/a.out" "$WORK/ex1_pc"

# 1b. a RELATIVE PKG_CONFIG_PATH: the run path must still be absolute, so the program runs from anywhere
rel=${LIBDIR#$WORK/}/pkgconfig
libs=$(cd "$WORK" && PKG_CONFIG_PATH=$rel pkg-config --libs pipeksp)
echo "$libs" | grep -q -- "-Wl,-rpath,$WORK/prefix/" || { echo "FAILED: PKG_CONFIG_PATH=$rel gives the run path of: $libs"; exit 1; }
(cd "$WORK" && PKG_CONFIG_PATH=$rel mpicc app.c -o ex1_rel $(PKG_CONFIG_PATH=$rel pkg-config --cflags --libs pipeksp)) || { echo "FAILED: build with a relative PKG_CONFIG_PATH"; exit 1; }

# 2. CMake package
mkdir -p "$WORK/cmk"
cat > "$WORK/cmk/CMakeLists.txt" <<CMK
cmake_minimum_required(VERSION 3.18)
project(consumer C)
find_package(PipeKSP 0.1 REQUIRED)
add_executable(ex1_cmake $SRC/tutorials/ex1.c)
target_link_libraries(ex1_cmake PRIVATE PipeKSP::pipeksp)
CMK
cmake -S "$WORK/cmk" -B "$WORK/cmk/build" -DCMAKE_PREFIX_PATH="$WORK/prefix" > "$WORK/cmake.log"
cmake --build "$WORK/cmk/build" > "$WORK/build.log"

cd /
for exe in "$WORK/ex1_pc" "$WORK/ex1_rel" "$WORK/cmk/build/ex1_cmake"; do
  ldd "$exe" | grep -q "$WORK/prefix" || { echo "FAILED: $exe does not load the installed libpipeksp"; exit 1; }
  ldd "$exe" | grep "not found" && { echo "FAILED: $exe needs LD_LIBRARY_PATH"; exit 1; }
  [ -z "$PIPEKSP_PETSC_LIBDIR" ] || ldd "$exe" | grep -q "libpetsc.* => $PIPEKSP_PETSC_LIBDIR/" ||
    { ldd "$exe" | grep libpetsc; echo "FAILED: $exe does not load the PETSc in $PIPEKSP_PETSC_LIBDIR"; exit 1; }
  out=$("$MPIEXEC" -n 2 "$exe" -cube_n 7 -ksp_type pipegv -pc_type asddic -ksp_rtol 1e-10 -check_error 1e-7 -malloc_dump)
  echo "$out"
  echo "$out" | grep -q "converged after" || { echo "FAILED: $exe did not converge"; exit 1; }
  echo "$out" | grep -q "NOT below" && { echo "FAILED: $exe error or residual too large"; exit 1; }
done
echo "installed consumers OK (pkg-config and find_package)"
