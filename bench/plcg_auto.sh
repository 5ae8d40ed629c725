#!/bin/bash
# -ksp_pipe_depth auto against the fixed depths 0-4 of pipeplcg, in the SAME runs (bench_cube rotates the
# configurations over the repetitions), on the cube with bjacobi+icc and asddic, at P_sim 1 (no emulated
# latency), 4096 and 131072 under the EMULATED allreduce latency (the per-round fat-tree alpha of
# bench/plcg.sh) -- EMULATION, not a cluster measurement (bench/README.md). Prints per case the depth auto
# chose, each configuration's median seconds per solve [IQR], the best fixed depth, and auto's time over the
# best fixed depth's: the median [IQR] of the per-repetition ratios (goal <= 1.05), and the ratio of the minima.
# Standalone (not in `make bench`: about 60-75 s on the loaded development VM, over the ~40 s allowed there).
# usage: bash bench/plcg_auto.sh <builddir>; environment: PIPEKSP_AUTO_PSIM ["1 4096 131072"],
#   PIPEKSP_AUTO_PCS ["bjacobi asddic"], PIPEKSP_AUTO_REPS [15], PIPEKSP_AUTO_N [9], PIPEKSP_BENCH_NP [2],
#   PIPEKSP_AUTO_OUT [bench/results]
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: bash bench/plcg_auto.sh <builddir>"; exit 2; }
build=$(cd "$1" && pwd) || exit 2
np=${PIPEKSP_BENCH_NP:-2}
psims=${PIPEKSP_AUTO_PSIM:-"1 4096 131072"}
pcs=${PIPEKSP_AUTO_PCS:-"bjacobi asddic"}
reps=${PIPEKSP_AUTO_REPS:-15}
n=${PIPEKSP_AUTO_N:-9}
alphas="1.5,1.5,1.5,1.5,1.5,2.5,2.5,2.5,2.5,2.5,3.5"
emu=$build/libpipeksp_emu.so drv=$build/bench/bench_cube
for f in "$emu" "$drv"; do [ -e "$f" ] || { echo "missing $f: build first"; exit 1; }; done
out=${PIPEKSP_AUTO_OUT:-$here/results}
mkdir -p "$out"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
csv=$out/plcg_auto_$stamp.csv log=$out/plcg_auto_$stamp.log
cfg=$(mktemp)
trap 'rm -f "$cfg"' EXIT
echo "pipeplcg -ksp_pipe_depth auto vs fixed depths 0-4: $np ranks, cube $n^3, $reps repetitions (rotated), P_sim {$psims} (EMULATED above 1), per-round alpha {$alphas} us"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) ($(nproc 2>/dev/null) cores)"
: > "$log"
echo "pc,psim,label,rep,its,seconds,seconds_per_it,red_model_s,red_exposed_s,hidden,ok,pos" > "$csv"
t00=$(date +%s)
for pc in $pcs; do
  case $pc in
  bjacobi) pco="-pc_type bjacobi -sub_pc_type icc" ;;
  *) pco="-pc_type $pc" ;;
  esac
  {
    echo "auto|-ksp_type pipeplcg -ksp_pipe_depth auto -ksp_rtol 1e-8 $pco"
    for l in 0 1 2 3 4; do echo "l$l|-ksp_type pipeplcg -ksp_pipe_depth $l -ksp_rtol 1e-8 $pco"; done
  } > "$cfg"
  for P in $psims; do
    t0=$(date +%s)
    res=$(mpiexec --oversubscribe -n "$np" -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P="$P" -x PIPEKSP_EMU_ALPHA_US="$alphas" \
      -x PIPEKSP_EMU_JITTER_US=0.2 -x PIPEKSP_EMU_SEED=12345 -x PIPEKSP_EMU_P2P=point \
      "$drv" -bench_config "$cfg" -bench_reps "$reps" -bench_order rotate -bench_tag "$pc,$P" -cube_n "$n" 2>&1)
    echo "$res" >> "$log"
    echo "$res" | grep -E "^$pc,$P,[^,]+,[0-9]+," >> "$csv"
    echo "$res" | grep -E "FAILED|ERROR" | sed 's/^/  /'
    echo "  $pc P_sim $P: $(($(date +%s) - t0)) s"
  done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null); total $(($(date +%s) - t00)) s"
/usr/bin/python3 - "$csv" "$log" <<'EOF' || echo "report FAILED"
import csv, re, sys
from statistics import median
def q(v, p):
    v = sorted(v); k = (len(v) - 1) * p; i = int(k)
    return v[i] if i + 1 >= len(v) else v[i] + (v[i + 1] - v[i]) * (k - i)
rows = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["ok"] != "1":
        continue
    rows.setdefault((r["pc"], int(r["psim"])), {}).setdefault(r["label"], {})[int(r["rep"])] = float(r["seconds"])
depth = {}
for line in open(sys.argv[2]):
    m = re.match(r"# depth ([^,]+),(\d+),auto: (-?\d+)", line)
    if m:
        depth[(m.group(1), int(m.group(2)))] = int(m.group(3))
print("%-8s %7s %5s  %-58s %5s %-22s %s" % ("pc", "P_sim", "auto", "ms per solve: median [IQR] of auto, l0 .. l4", "best", "auto/best: med [IQR]", "min/min (best by min)"))
for key in sorted(rows):
    d = rows[key]
    labs = ["auto"] + ["l%d" % l for l in range(5)]
    meds = {k: median(d[k].values()) for k in labs if k in d and d[k]}
    cells = " ".join("%.2f[%.2f]" % (1e3 * meds[k], 1e3 * (q(d[k].values(), .75) - q(d[k].values(), .25))) if k in meds else "-" for k in labs)
    fixed = [k for k in labs[1:] if k in meds]
    best = min(fixed, key=lambda k: meds[k])
    rat = [d["auto"][r] / d[best][r] for r in d.get("auto", {}) if r in d[best]]
    tag = "%.3f [%.3f, %.3f]" % (median(rat), q(rat, .25), q(rat, .75)) if rat else "n/a"
    mins = {k: min(d[k].values()) for k in meds}
    bmin = min(fixed, key=lambda k: mins[k])
    print("%-8s %7d %5s  %-58s %5s %-22s %.3f (%s)%s" % (key[0], key[1], depth.get(key, "?"), cells, best, tag,
          mins["auto"] / mins[bmin] if "auto" in mins else float("nan"), bmin, "" if key[1] == 1 else "  EMULATED"))
print("goal: auto/best <= 1.05 (auto's solve over the best fixed depth's solve of the same repetition); min/min: the\n"
      "fastest auto solve over the fastest solve of the fixed depth fastest by that measure (steadier on a loaded machine)")
EOF
echo "results: $csv, $log"
