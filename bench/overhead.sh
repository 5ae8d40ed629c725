#!/usr/bin/env bash
# Where our pipelined solvers compute more than PETSc's cg with the same PC, with no emulated latency
# (P_sim 1: no emulator loaded). Per PC, one bench_cube launch times every configuration, rotated over
# the repetitions, and prints each one's time per iteration divided by cg's of the same repetition
# (median [IQR]); cg-again, cg's twin, gives the run's noise. A second, short launch with -log_view
# counts, per solve: PC applications, our operator SpMVs (PipeMatMult), MPI_Test polls (PipeRedPoll),
# and the time of one PC application. From these, each ratio is split by source:
#   structural: the PC applications and SpMVs the algorithm needs beyond cg's for the same iterations
#     (pipegv: w_0 = A u_0, the PC and SpMV overlapped with the reduction that says "converged", the check
#     of the final x; p(l)-CG: the pipeline's l start-up ones and its norm, known 2l-1 iterations late with
#     the unpreconditioned norm), at their measured times, as a fraction of cg's iterations;
#   polls: the ratio with -ksp_pipe_progress poll minus the ratio with none;
#   emulator: polls per iteration x the emulator's cost per intercepted call (PIPEKSP_EMU_POLL_NS, 90 ns:
#     bench/emu_cost.sh, docs/emulator.md), what EMULATED figures count as compute on top of these;
#   the rest: vector passes and per-call overheads (what our fused kernels save).
# usage: bash bench/overhead.sh [builddir]   (< 60 s; PIPEKSP_OVH_REPS, default 9; PIPEKSP_OVH_PCS, default
#   "asddic asddic1 bjacobi gamg gamg17 jacobi1": 2 ranks on the 9^3 cube; asddic1 the same on 1 rank, gamg17
#   = gamg on 17^3, 1 rank; jacobi1: 1 rank, 9^3, 83 iterations, where the structural share is small;
#   PIPEKSP_OVH_CLOCK, default cpu: bench_cube -bench_clock, see its -help)
set -euo pipefail
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
build=${1:-build}
drv=$build/bench/bench_cube
[ -x "$drv" ] || { echo "overhead.sh: $drv missing: build first (make build)" >&2; exit 2; }
reps=${PIPEKSP_OVH_REPS:-9}
pcs=${PIPEKSP_OVH_PCS:-"asddic asddic1 bjacobi gamg gamg17 jacobi1"}
emu_ns=${PIPEKSP_EMU_POLL_NS:-90}
clock=${PIPEKSP_OVH_CLOCK:-cpu}
tmp=$(mktemp -d)
export tmp
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp

common="-ksp_rtol 1e-8 -ksp_norm_type unpreconditioned"
echo "# overhead.sh: time per iteration / cg's with the same PC, same run, P_sim 1 (no emulator), $reps rotated repetitions, $clock clock"
echo "# PC/s, SpMV/s: PC applications and operator SpMVs per solve (cg: one of each per iteration); struct = (extra PC x t(PC) + extra SpMV x t(SpMV)) / (its x cg's t(it));"
echo "# polls = ratio(poll) - ratio(none); emu = polls/it x $emu_ns ns / cg's t(it) (EMULATED runs only: the emulator's own cost); rest = ratio - 1 - struct - polls"
printf '%-8s %-14s %4s %6s %6s %8s %21s %7s %6s %6s %7s\n' PC solver its PC/s SpMV/s polls/it "ratio [IQR]" struct polls emu rest
for pc in $pcs; do
  np=2 n=9 extra=""
  case $pc in
    asddic) pco="-pc_type asddic" ;;
    asddic1) pco="-pc_type asddic" np=1 ;;
    jacobi1) pco="-pc_type jacobi" np=1 ;;
    bjacobi) pco="-pc_type bjacobi -sub_pc_type icc" ;;
    gamg) pco="-pc_type gamg" extra="-cube_mat_type aij" ;;
    gamg17) pco="-pc_type gamg" extra="-cube_mat_type aij" np=1 n=17 ;;
    *) pco="-pc_type $pc" ;;
  esac
  cfg=$tmp/cfg
  {
    echo "cg|-ksp_type cg $common $pco"
    for k in pipegv pipeplcg; do
      # pipeplcg at depth 2: auto, its default, chooses depth 0 here (no latency), Gropp's CG, which has no basis pipeline to measure
      dep=; [ $k = pipeplcg ] && dep="-ksp_pipe_depth 2"
      for pol in none poll auto; do echo "$k-$pol|-ksp_type $k $dep -ksp_pipe_progress $pol $common $pco"; done
    done
    echo "cg-again|-ksp_type cg $common $pco"
  } > "$cfg"
  # shellcheck disable=SC2086
  mpiexec -n $np "$drv" -bench_config "$cfg" -bench_reps "$reps" -bench_order rotate -bench_clock "$clock" -cube_n $n $extra > "$tmp/t" 2>&1 || { echo "$pc: timing run FAILED"; tail -5 "$tmp/t"; continue; }
  # shellcheck disable=SC2086
  mpiexec -n $np "$drv" -bench_config "$cfg" -bench_reps 2 -bench_warmup 1 -bench_order fixed -cube_n $n $extra -log_view > "$tmp/l" 2>&1 || { echo "$pc: counting run FAILED"; tail -5 "$tmp/l"; continue; }
  awk -v pc="$pc" -v emu="$emu_ns" '
    function Min(a, b) { return a < b ? a : b }
    FNR == 1 { f++ }
    f == 1 && /^,[^,]+,[0-9]+,[0-9]+,/ { split($0, a, ","); its[a[2]] = a[4] }
    f == 1 && /^# paired ,/ { split($3, a, /[,\/]/); lab = a[2]; ratio[lab] = $5 + 0; x = $8; gsub(/[\[,]/, "", x); lo[lab] = x + 0; x = $9; gsub(/[\],]/, "", x); hi[lab] = x + 0 }
    f == 1 && /^# identical/ { ident = $0 }
    f == 2 && /^--- Event Stage [0-9]+: / { st = $5; seen[st]++ }
    f == 2 && st != "" && seen[st] == 1 && /^(KSPSolve|PCApply|MatMult|PipeMatMult|PipeRedPoll) / { cnt[st, $1] = $2 + 0; tim[st, $1] = $4 + 0 }
    END {
      # per solve, from cg (and cg-again: the smaller, as for every per-call time here: a load burst on this
      # shared node only adds): t(PC), t(iteration), MatMult events per PC application (cg: one operator
      # SpMV per iteration); t(SpMV) from our PipeMatMult events (operator products, and those of asddic)
      ns = cnt["cg", "KSPSolve"]; pcc = cnt["cg", "PCApply"] / ns; itc = its["cg"]
      tpc = Min(tim["cg", "PCApply"] / cnt["cg", "PCApply"], tim["cg-again", "PCApply"] / cnt["cg-again", "PCApply"])
      tit = Min(tim["cg", "KSPSolve"], tim["cg-again", "KSPSolve"]) / ns / itc
      mpp = (cnt["cg", "MatMult"] / ns - itc) / pcc
      tmv = 0
      for (key in cnt) { split(key, kk, SUBSEP); if (kk[2] == "PipeMatMult" && cnt[key] > 0 && (!tmv || tim[key] / cnt[key] < tmv)) tmv = tim[key] / cnt[key] }
      n0 = split("cg pipegv-none pipegv-poll pipegv-auto pipeplcg-none pipeplcg-poll pipeplcg-auto cg-again", L, " ")
      for (k = 1; k <= n0; k++) {
        l = L[k]; ns = cnt[l, "KSPSolve"]; if (!ns) continue
        npc = cnt[l, "PCApply"] / ns; nmv = cnt[l, "MatMult"] / ns - mpp * npc; it = its[l] ? its[l] : 1
        st = ((npc - pcc) * tpc + (nmv - itc) * tmv) / (it * tit)
        ppi = cnt[l, "PipeRedPoll"] / ns / it; e = ppi * emu * 1e-9 / tit
        s = l; sub(/-(none|poll|auto)$/, "", s)
        pol = l ~ /-poll$/ ? ratio[l] - ratio[s "-none"] : 0
        if (l == "cg") { printf "%-8s %-14s %4d %6.1f %6.1f %8s %21s\n", pc, l, it, npc, itc, "-", "1 (base)"; continue }
        r = sprintf("%.3f [%.3f,%.3f]", ratio[l], lo[l], hi[l])
        if (l == "cg-again") printf "%-8s %-14s %4d %6.1f %6.1f %8s %21s\n", pc, l, it, npc, itc, "-", r
        else printf "%-8s %-14s %4d %6.1f %6.1f %8.1f %21s %+7.3f %+6.3f %+6.3f %+7.3f\n", pc, l, it, npc, nmv, ppi, r, st, pol, e, ratio[l] - 1 - st - pol
      }
      sub(/^# identical [^,]*,/, "", ident); print "         noise: " ident
      print tit > (ENVIRON["tmp"] "/tit_" pc)
    }' "$tmp/t" "$tmp/l"
done

# EMULATED: the emulator's own cost in an emulated run. Its polls per iteration at P_sim 4096 (asddic, 2 ranks,
# alpha 2 us: the reductions stay pending longer, so the poll hook reaches MPI more often) times its cost per
# intercepted call, as a fraction of cg's iteration at P_sim 1 above
emu=$build/libpipeksp_emu.so
if [ -e "$emu" ] && [ -s "$tmp/tit_asddic" ] && [ "${PIPEKSP_OVH_EMU:-1}" != 0 ]; then
  {
    for k in pipegv "pipeplcg -ksp_pipe_depth 2"; do echo "${k%% *}-poll|-ksp_type $k -ksp_pipe_progress poll $common -pc_type asddic"; done
  } > "$tmp/cfg"
  mpiexec -n 2 -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P=4096 -x PIPEKSP_EMU_ALPHA_US=2 -x PIPEKSP_EMU_P2P=point "$drv" -bench_config "$tmp/cfg" -bench_reps 2 -bench_order fixed -cube_n 9 -log_view > "$tmp/e" 2>&1 || { echo "EMULATED run FAILED"; tail -5 "$tmp/e"; exit 1; }
  awk -v emu="$emu_ns" -v tit="$(cat "$tmp/tit_asddic")" '
    /^,[^,]+,[0-9]+,[0-9]+,/ { split($0, a, ","); its[a[2]] = a[4] }
    /^--- Event Stage [0-9]+: / { st = $5; seen[st]++ }
    st != "" && seen[st] == 1 && /^(KSPSolve|PipeRedPoll) / { cnt[st, $1] = $2 + 0 }
    END {
      for (l in its) {
        ppi = cnt[l, "PipeRedPoll"] / cnt[l, "KSPSolve"] / its[l]
        printf "EMULATED P_sim 4096, asddic, %-14s %5.1f polls/it x %d ns = %5.2f us/it = %.3f of cg'"'"'s iteration at P_sim 1 (the emulator'"'"'s share of its compute)\n", l, ppi, emu, ppi * emu * 1e-3, ppi * emu * 1e-9 / tit
      }
    }' "$tmp/e"
fi
