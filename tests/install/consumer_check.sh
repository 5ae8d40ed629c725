#!/bin/sh
# Install the built tree into a scratch prefix and build a PETSc application against the INSTALLED copy
# only, both ways a user would: pkg-config (pipeksp.pc) and CMake find_package(PipeKSP). Each build of
# tutorials/ex1.c must then solve the cube with pipegv + asddic to the exact solution.
# usage: consumer_check.sh <build dir> <source dir> <scratch dir> <mpiexec>
set -e
BUILD=$1 SRC=$2 WORK=$3 MPIEXEC=$4
rm -rf "$WORK" && mkdir -p "$WORK"
cmake --install "$BUILD" --prefix "$WORK/prefix" > "$WORK/install.log"
for f in include/pipeksp.h lib/pkgconfig/pipeksp.pc lib/cmake/PipeKSP/PipeKSPConfig.cmake; do
  test -f "$WORK/prefix/$f" || { echo "FAILED: $f not installed"; exit 1; }
done
LIBDIR=$(dirname "$(find "$WORK/prefix" -name 'libpipeksp.so' | head -1)")

# 1. pkg-config: the .pc file must point into the prefix it was installed to
export PKG_CONFIG_PATH="$LIBDIR/pkgconfig:/usr/lib/petsc/lib/pkgconfig:${PKG_CONFIG_PATH:-}"
inc=$(pkg-config --variable=includedir pipeksp)
[ "$(cd "$inc" && pwd)" = "$(cd "$WORK/prefix/include" && pwd)" ] || { echo "FAILED: pipeksp.pc includedir $inc is not in $WORK/prefix"; exit 1; }
mpicc -o "$WORK/ex1_pc" "$SRC/tutorials/ex1.c" $(pkg-config --cflags --libs pipeksp) -Wl,-rpath,"$LIBDIR"

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

for exe in "$WORK/ex1_pc" "$WORK/cmk/build/ex1_cmake"; do
  ldd "$exe" | grep -q "$WORK/prefix" || { echo "FAILED: $exe does not load the installed libpipeksp"; exit 1; }
  out=$("$MPIEXEC" -n 2 "$exe" -cube_n 7 -ksp_type pipegv -pc_type asddic -ksp_rtol 1e-10 -check_error 1e-7 -malloc_dump)
  echo "$out"
  echo "$out" | grep -q "converged after" || { echo "FAILED: $exe did not converge"; exit 1; }
  echo "$out" | grep -q "NOT below" && { echo "FAILED: $exe error or residual too large"; exit 1; }
done
echo "installed consumers OK (pkg-config and find_package)"
