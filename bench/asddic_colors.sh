#!/bin/sh
# CG iterations of cube + asddic (1 rank, localized IC(0), 1 ASDD iteration) against the number of
# colours K of CM-RCM, and for plain RCM. The published behaviour (docs/algorithms.md, section 3):
# iterations fall toward the RCM count as K grows. Exits 1 when they do not.
# Usage: bench/asddic_colors.sh [build dir] [cube nodes per side] [matrix type]
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
B=${1:-$(dirname "$0")/../build}
N=${2:-25}
T=${3:-baij}
EXE=$B/tests/pipeksp/tests/ex10 # tests/ex10.c (asddic)
[ -x "$EXE" ] || { echo "missing $EXE: build first (cmake --build $B)"; exit 2; }
run() { "$EXE" -test solve -cube_n "$N" -cube_mat_type "$T" -s_pc_asddic_iterations 1 "$@" -s_ksp_view |
        awk '/colours used/ {c=$7} /^iterations/ {print $2, c, $8}'; }
printf "cube %s^3 nodes, %s, cg + asddic (1 rank, 1 ASDD iteration), rtol 1e-8\n" "$N" "$T"
printf "%-8s %10s %8s %8s\n" K iterations colours time_s
prev=1000000; first=0; status=0
for K in 2 5 10 20 50; do
  set -- $(run -s_pc_asddic_ordering cmrcm -s_pc_asddic_colors $K)
  printf "%-8s %10s %8s %8s\n" $K "$1" "$2" "$3"
  [ "$first" -eq 0 ] && first=$1
  # allow +2 for rounding noise between neighbouring K, but the trend must be down
  [ "$1" -gt $((prev + 2)) ] && { echo "  iterations rose from $prev to $1"; status=1; }
  prev=$1; last=$1
done
set -- $(run -s_pc_asddic_ordering rcm)
printf "%-8s %10s %8s %8s\n" rcm "$1" "seq" "$3"
[ "$last" -lt "$first" ] || { echo "  K=50 ($last) not better than K=2 ($first)"; status=1; }
[ "$1" -le "$last" ] || { echo "  RCM ($1) worse than K=50 ($last)"; status=1; }
[ $status -eq 0 ] && echo "iterations decrease toward the RCM count as K grows: yes" || echo "iterations decrease toward the RCM count: NO"
exit $status
