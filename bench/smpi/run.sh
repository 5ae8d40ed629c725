#!/bin/bash
# Validation of the reduction-latency emulator against SimGrid's SMPI: `make bench-smpi`.
# The same micro-benchmark (bench/smpi/rd_bench.c: start a 16-byte allreduce, T us of compute with k tests
# spread inside, wait) runs
#   - under SMPI: a user-level recursive-doubling allreduce that advances one round per test/wait (as Open
#     MPI's libnbc), P ranks on a two-level fat tree (16 hosts per leaf switch, one top switch), simulated
#     compute (exact, no noise);
#   - under our emulator (LD_PRELOAD libpipeksp_emu.so, virtual clock): MPI_Iallreduce with P_sim = P and the
#     per-hop alpha the platform implies, once uniform (total latency / rounds) and once per round (the
#     latency of each round measured by SMPI with nothing overlapping: cheap inside a leaf, dearer across).
# It prints both predicted waits side by side and their difference. Optional: skipped with a message when
# SimGrid (smpicc, smpirun; Debian libsimgrid-dev) is not installed.
# usage: bash bench/smpi/run.sh <builddir>; environment: PIPEKSP_SMPI_P ["64 256 1024 4096"],
#   PIPEKSP_SMPI_T ["10 50"] (us of compute), PIPEKSP_SMPI_KS ["0,1,2,4,8,16"], PIPEKSP_SMPI_LAT_US [0.25] (per link)
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: bash bench/smpi/run.sh <builddir>"; exit 2; }
build=$(cd "$1" && pwd) || exit 2
if ! command -v smpicc >/dev/null || ! command -v smpirun >/dev/null; then
  echo "bench-smpi: SimGrid is not installed (smpicc/smpirun missing; Debian: apt-get install libsimgrid-dev): skipped"
  exit 0
fi
emu=$build/libpipeksp_emu.so
[ -e "$emu" ] || { echo "missing $emu: build first"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ps=${PIPEKSP_SMPI_P:-"64 256 1024 4096"}
ts=${PIPEKSP_SMPI_T:-"10 50"}
ks=${PIPEKSP_SMPI_KS:-"0,1,2,4,8,16"}
lat=${PIPEKSP_SMPI_LAT_US:-0.25}
work=$build/bench/smpi
mkdir -p "$work"
smpicc -O2 -DRD_SMPI -o "$work/rd_smpi" "$here/rd_bench.c" || { echo "smpicc FAILED"; exit 1; }
mpicc -O2 -o "$work/rd_emu" "$here/rd_bench.c" -ldl || { echo "mpicc FAILED"; exit 1; }
out=$here/../results
mkdir -p "$out"
csv=$out/smpi_vs_emu.csv
echo "P,T_us,k,smpi_wait_us,emu_uniform_us,emu_rounds_us,alpha_uniform_us,alphas_us" > "$csv"
cfg="--cfg=smpi/test:0 --cfg=smpi/host-speed:1Gf --cfg=smpi/simulate-computation:no --cfg=smpi/wtime:0"
echo "SMPI (SimGrid $(smpirun --version 2>&1 | awk '/SimGrid version/{print $3}')) vs the PipeKSP emulator: wait (us) after T us of compute with k tests"
echo "fat tree: 16 hosts per leaf switch, link latency $lat us, 12.5 GB/s; host speed 1 Gf/s (given explicitly); smpi/test:0"
printf "%6s %5s %3s | %10s | %10s %7s | %10s %7s\n" P T k SMPI "emu(unif)" diff "emu(round)" diff
for P in $ps; do
  plat=$(bash "$here/fattree.sh" "$P" "$lat" "$work") hosts=$work/hosts$P
  for T in $ts; do
    t0=$(date +%s.%N)
    s=$(cd "$work" && smpirun -np "$P" -platform "$plat" -hostfile "$hosts" $cfg ./rd_smpi -T "$T" -ks "$ks" -trials 1 2>&1 | grep -v xbt_cfg)
    ts_=$(echo "$(date +%s.%N) - $t0" | bc)
    tot=$(echo "$s" | awk '/^calib/{print $7}')
    R=$(echo "$s" | awk '/^calib/{print $5}')
    alphas=$(echo "$s" | awk '/^alphas_us/{print $2}')
    [ -n "$tot" ] && [ -n "$alphas" ] || { echo "SMPI run P=$P FAILED:"; echo "$s" | tail -5; continue; }
    au=$(echo "scale=6; $tot / $R" | bc)
    eu=$(mpiexec -n 2 -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P="$P" -x PIPEKSP_EMU_ALPHA_US="$au" -x PIPEKSP_EMU_CLOCK=virtual "$work/rd_emu" -T "$T" -ks "$ks" -trials 1 2>&1)
    er=$(mpiexec -n 2 -x LD_PRELOAD="$emu" -x PIPEKSP_EMU_P="$P" -x PIPEKSP_EMU_ALPHA_US="$alphas" -x PIPEKSP_EMU_CLOCK=virtual "$work/rd_emu" -T "$T" -ks "$ks" -trials 1 2>&1)
    for k in ${ks//,/ }; do
      a=$(echo "$s" | awk -v k=$k '$1=="P" && $4==k {print $8}')
      b=$(echo "$eu" | awk -v k=$k '$1=="P" && $4==k {print $8}')
      c=$(echo "$er" | awk -v k=$k '$1=="P" && $4==k {print $8}')
      printf "%6s %5s %3s | %10.3f | %10.3f %7s | %10.3f %7s\n" "$P" "$T" "$k" "$a" "$b" \
        "$(awk -v x=$a -v y=$b 'BEGIN{ if (x < 0.01 && y < 0.01) print "ok"; else if (x < 0.01) print "+" y; else printf "%+.0f%%", 100*(y-x)/x }')" "$c" \
        "$(awk -v x=$a -v y=$c 'BEGIN{ if (x < 0.01 && y < 0.01) print "ok"; else if (x < 0.01) print "+" y; else printf "%+.0f%%", 100*(y-x)/x }')"
      echo "$P,$T,$k,$a,$b,$c,$au,\"$alphas\"" >> "$csv"
    done
    echo "       (P=$P: $R rounds, SMPI alone total $tot us, per round $alphas us; SMPI run took $(printf %.1f "$ts_") s)"
  done
done
echo "results: $csv"
