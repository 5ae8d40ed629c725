#!/usr/bin/env bash
# `make test search=...`: prints the ctest regular expression of a search, or fails with a hint when no test
# matches (ctest itself says "No tests were found!!!" and exits 0). A glob (*, ?) matches whole names, as
# PETSc's search= does; a bare name also matches a program's tests (ex3: tests-ex3_*, tutorials-ex3_*) and an
# area's (install: install-*).
# usage: test-search.sh <build dir> <search>
set -u
build=$1 search=$2
glob=$(printf '%s' "$search" | sed -e 's/[.+^$()|{}\\[]/\\&/g' -e 's/\*/.*/g' -e 's/?/./g')
re="^$glob\$"
case $search in
  *[*?]*) ;;
  *) re="$re|^$glob-|-${glob}_" ;;
esac
n=$(cd "$build" && ctest -N -R "$re" | grep -c "Test *#")
if [ "$n" -eq 0 ]; then
  echo "make test search='$search': no test matches. Names look like tests-ex3_ksp_cube_asddic_np2 or install-consumers;" >&2
  echo "  try search=ex3 (a program), search='tests-ex3_*' (a glob), ctest -L pc (an area), or list them: cd $build && ctest -N" >&2
  exit 1
fi
echo "$re"
