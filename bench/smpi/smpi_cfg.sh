#!/bin/bash
# The smpirun settings of every whole solve under SMPI (bench/smpi/solve.sh and the smpi test), written once:
# Open MPI's collectives but recursive doubling for MPI_Allreduce (as the shim's MPI_Iallreduce and the
# emulator's model), deterministic compute at the platform's 1 Gf/s, no clock cost, the given privatization,
# and the cost of MPI_Test: "measured" (the shim charges PIPEKSP_SMPI_TEST_S per call, SMPI nothing) or
# "default" (SMPI's own 1e-4 s per tested request, growing with each failed test). Prints the options.
# usage: smpi_cfg.sh <measured|default> <privatization>
case $1 in
  default) test="--cfg=smpi/test:1e-4 --cfg=smpi/iprobe:1e-4" ;;
  measured) test="--cfg=smpi/test:0 --cfg=smpi/iprobe:0 --cfg=smpi/grow-injected-times:no" ;;
  *) echo "usage: smpi_cfg.sh <measured|default> <privatization>" >&2; exit 2 ;;
esac
echo "--cfg=smpi/coll-selector:ompi --cfg=smpi/allreduce:rdb --cfg=smpi/simulate-computation:no --cfg=smpi/host-speed:1Gf" \
  "--cfg=smpi/wtime:0 $test --cfg=smpi/privatization:$2 --log=root.thr:critical"
