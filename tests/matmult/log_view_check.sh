#!/bin/sh
# -log_view's MatMult row must count every SpMV of our solvers as it does for PETSc's cg (our poll-point
# SpMV is logged as MatMult with PipeMatMult nested in it), the fused vector pass of each iteration must show
# as PipeVecPass, and -pipeksp_spmv_chunk must be a real option:
# listed by -help with its setter, honoured, and shown by -ksp_view; -log_exclude pipeksp leaves our events out.
# usage: log_view_check.sh <mpiexec> <ex1>
set -u
mpiexec=$1 ex1=$2
bad=0
common="-cube_n 9 -pc_type jacobi -ksp_rtol 1e-8"
# MatMult count per iteration of each solver; pipegv/pipegropp/chrongear must be within 0.15 of cg's
# (they add the initial residual and residual replacements: 1-3 products per solve)
for k in cg pipecg pipegv pipegropp chrongear; do
  out=$("$mpiexec" -n 2 "$ex1" $common -ksp_type $k -log_view 2>&1)
  its=$(echo "$out" | sed -n 's/.*converged after \([0-9]*\) iterations.*/\1/p')
  mm=$(echo "$out" | awk '$1 == "MatMult" { print $2; exit }')
  pm=$(echo "$out" | awk '$1 == "PipeMatMult" { print $2; exit }')
  vp=$(echo "$out" | awk '$1 == "PipeVecPass" { print $2; exit }')
  [ -n "$its" ] && [ -n "$mm" ] || { echo "FAILED: $k: no iteration count or no MatMult row"; echo "$out" | tail -20; bad=1; continue; }
  echo "$k: $its iterations, MatMult $mm, PipeMatMult ${pm:-0}, PipeVecPass ${vp:-0}"
  case $k in pipegv | pipegropp | chrongear)
    [ "${vp:-0}" -ge "$its" ] || { echo "FAILED: $k: PipeVecPass ${vp:-0} below its $its iterations (one fused pass each)"; bad=1; } ;;
  esac
  eval "its_$k=$its mm_$k=$mm pm_$k=${pm:-0}"
done
awk -v c="${its_cg:-0} ${mm_cg:-0}" -v l="pipegv ${its_pipegv:-0} ${mm_pipegv:-0} ${pm_pipegv:-0}
pipegropp ${its_pipegropp:-0} ${mm_pipegropp:-0} ${pm_pipegropp:-0}
chrongear ${its_chrongear:-0} ${mm_chrongear:-0} ${pm_chrongear:-0}
pipecg ${its_pipecg:-0} ${mm_pipecg:-0} 0" 'BEGIN {
  split(c, cg, " "); if (cg[1] < 10) { print "FAILED: cg did not run"; exit 1 }
  rcg = cg[2] / cg[1]; n = split(l, lines, "\n")
  for (i = 1; i <= n; i++) {
    split(lines[i], f, " ")
    if (f[2] < 10) { print "FAILED: " f[1] " did not run"; bad = 1; continue }
    r = f[3] / f[2]
    printf "%s: MatMult per iteration %.3f (cg %.3f)\n", f[1], r, rcg
    if (r < rcg - 0.15 || r > rcg + 0.15) { print "FAILED: " f[1] " MatMult count not comparable with cg"; bad = 1 }
    if (f[4] > f[3]) { print "FAILED: " f[1] " PipeMatMult " f[4] " not nested in MatMult " f[3]; bad = 1 }
  }
  exit bad }' || bad=1
[ "${pm_pipegv:-0}" -gt 0 ] || { echo "FAILED: pipegv logged no PipeMatMult"; bad=1; }

# the chunk option: in -help with its setter, validated, honoured and shown by -ksp_view
out=$("$mpiexec" -n 2 "$ex1" $common -ksp_type pipegv -help 2>&1)
# (PETSc 3.26 prints a colon after the option name)
echo "$out" | grep -q -- "-pipeksp_spmv_chunk:\{0,1\} <now 256 .*(PipeKSPMatSetSpMVChunk)" || { echo "FAILED: -help does not list -pipeksp_spmv_chunk with its setter"; bad=1; }
out=$("$mpiexec" -n 2 "$ex1" $common -ksp_type pipegv -pipeksp_spmv_chunk 33 -ksp_view 2>&1)
echo "$out" | grep -q "a poll point every 33 rows" || { echo "FAILED: -ksp_view does not show -pipeksp_spmv_chunk 33"; bad=1; }
echo "$out" | grep -q "converged after" || { echo "FAILED: pipegv with chunk 33 did not converge"; bad=1; }
out=$("$mpiexec" -n 2 "$ex1" $common -ksp_type pipegv -pipeksp_spmv_chunk 0 2>&1)
echo "$out" | grep -q "pipeksp_spmv_chunk 0: the number of rows between poll points must be >= 1" || { echo "FAILED: chunk 0 not rejected"; bad=1; }
# -log_exclude pipeksp drops our class's events from -log_view (the registrar honours it as PETSc's packages do)
out=$("$mpiexec" -n 2 "$ex1" $common -ksp_type pipegv -log_view -log_exclude pipeksp 2>&1)
echo "$out" | grep -q "converged after" || { echo "FAILED: pipegv with -log_exclude pipeksp did not converge"; bad=1; }
echo "$out" | awk '$1 == "PipeMatMult" || $1 == "PipeVecPass" { f = 1 } END { exit f }' || { echo "FAILED: -log_exclude pipeksp still logs PipeMatMult/PipeVecPass"; bad=1; }
echo "$out" | awk '$1 == "MatMult" { f = 1 } END { exit !f }' || { echo "FAILED: -log_exclude pipeksp dropped PETSc's own MatMult row"; bad=1; }
if [ $bad = 0 ]; then echo "log_view check passed"; else echo "log_view check FAILED"; exit 1; fi
