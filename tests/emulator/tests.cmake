# The unit tests of the reduction-latency emulator (tools/emulator/pipeksp_emu.c, an LD_PRELOAD PMPI shim
# built by tools/emulator/emulator.cmake). The shim is EMULATION of a large machine's allreduce latency,
# see bench/README.md.

# the test program links MPI only: the shim comes in through LD_PRELOAD, as in the benchmarks
add_executable(emu_test ${CMAKE_CURRENT_LIST_DIR}/emu_test.c)
target_link_libraries(emu_test PRIVATE MPI::MPI_C)
set_target_properties(emu_test PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/emulator)
add_dependencies(emu_test pipeksp_emu)

# name, ranks, mode (calls|library|off), extra environment (VAR=value ..., given to the ranks with -x)
function(pipeksp_emu_test name np mode)
  set(_x -x LD_PRELOAD=$<TARGET_FILE:pipeksp_emu>)
  foreach(v ${ARGN})
    list(APPEND _x -x ${v})
  endforeach()
  add_test(NAME emulator-${name} COMMAND ${PIPEKSP_MPIEXEC} --oversubscribe -n ${np} ${_x} $<TARGET_FILE:emu_test> ${mode})
  # timing checks: keep other tests off the two cores while they run (SKIPPED: other jobs on the machine left an
  # upper bound unjudged)
  set_tests_properties(emulator-${name} PROPERTIES ENVIRONMENT "${PIPEKSP_MPI_ENV}" PASS_REGULAR_EXPRESSION "emu_test PASSED"
    SKIP_REGULAR_EXPRESSION "emu_test SKIPPED" FAIL_REGULAR_EXPRESSION "FAILED" TIMEOUT 120 RUN_SERIAL TRUE LABELS emulator)
endfunction()
# Virtual clock: the model checked exactly (discrete-event time inside the shim), 2 and 4 ranks.
set(_emu_virt PIPEKSP_EMU_CLOCK=virtual PIPEKSP_EMU_P=256 PIPEKSP_EMU_ALPHA_US=2)
pipeksp_emu_test(virtual-calls-2 2 calls ${_emu_virt} PIPEKSP_EMU_PROGRESS=calls)
pipeksp_emu_test(virtual-calls-4 4 calls ${_emu_virt} PIPEKSP_EMU_PROGRESS=calls)
pipeksp_emu_test(virtual-library-2 2 library ${_emu_virt} PIPEKSP_EMU_PROGRESS=library)
pipeksp_emu_test(virtual-library-4 4 library ${_emu_virt} PIPEKSP_EMU_PROGRESS=library)
pipeksp_emu_test(virtual-jitter-4 4 calls ${_emu_virt} PIPEKSP_EMU_JITTER_US=5 PIPEKSP_EMU_SEED=7)
# Wall clock, as the benchmarks run: P_sim 256 -> 8 rounds of 1 ms, large against the scheduling noise
# of a shared node; lower bounds exact, upper bounds loose.
set(_emu_wall PIPEKSP_EMU_P=256 PIPEKSP_EMU_ALPHA_US=1000)
pipeksp_emu_test(wall-calls-2 2 calls ${_emu_wall} PIPEKSP_EMU_PROGRESS=calls)
pipeksp_emu_test(wall-calls-4 4 calls ${_emu_wall} PIPEKSP_EMU_PROGRESS=calls)
pipeksp_emu_test(wall-library-2 2 library ${_emu_wall} PIPEKSP_EMU_PROGRESS=library)
pipeksp_emu_test(off-2 2 off)

# bad settings: a clear message from every rank, no hang
add_test(NAME emulator-bad-env COMMAND ${PIPEKSP_MPIEXEC} --oversubscribe -n 2 -x LD_PRELOAD=$<TARGET_FILE:pipeksp_emu>
  -x PIPEKSP_EMU_P=lots $<TARGET_FILE:emu_test> calls)
set_tests_properties(emulator-bad-env PROPERTIES ENVIRONMENT "${PIPEKSP_MPI_ENV}" PASS_REGULAR_EXPRESSION "PIPEKSP_EMU_P=\"lots\" is invalid" TIMEOUT 60 LABELS emulator)
add_test(NAME emulator-bad-progress COMMAND ${PIPEKSP_MPIEXEC} --oversubscribe -n 2 -x LD_PRELOAD=$<TARGET_FILE:pipeksp_emu>
  -x PIPEKSP_EMU_P=64 -x PIPEKSP_EMU_PROGRESS=sometimes $<TARGET_FILE:emu_test> calls)
set_tests_properties(emulator-bad-progress PROPERTIES ENVIRONMENT "${PIPEKSP_MPI_ENV}" PASS_REGULAR_EXPRESSION "PIPEKSP_EMU_PROGRESS=\"sometimes\" is invalid: must be calls or library" TIMEOUT 60 LABELS emulator)

# bench_cube (bench/bench.cmake), the benchmark driver: many solver configurations on one cube in one run.
# the driver and the shim together on PETSc's and our solvers: correct answers, equal iteration
# counts, blocking variants hide nothing, pipegv+poll hides most of the modelled latency. The cube (11^3)
# gives an iteration enough work to overlap a 10-round reduction on a quiet machine too: at 7^3 the hidden
# fraction sat at 0.46-0.51 there, around the 0.5 bound, and passed only when the machine was loaded
foreach(np 2 4)
  add_test(NAME emulator-bench-smoke-${np} COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/bench_smoke.sh ${PIPEKSP_MPIEXEC} ${np}
    $<TARGET_FILE:pipeksp_emu> $<TARGET_FILE:bench_cube> 11)
  set_tests_properties(emulator-bench-smoke-${np} PROPERTIES ENVIRONMENT "${PIPEKSP_MPI_ENV}" PASS_REGULAR_EXPRESSION "bench smoke passed"
    FAIL_REGULAR_EXPRESSION "bench smoke FAILED" TIMEOUT 120 LABELS emulator)
endforeach()
# the driver's layouts (bench/hybrid.sh): hybrid configurations on rank 0 alone, flat ones on both ranks
add_test(NAME emulator-bench-layouts-2 COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/bench_layouts.sh ${PIPEKSP_MPIEXEC}
  $<TARGET_FILE:pipeksp_emu> $<TARGET_FILE:bench_cube>)
set_tests_properties(emulator-bench-layouts-2 PROPERTIES ENVIRONMENT "${PIPEKSP_MPI_ENV}" PASS_REGULAR_EXPRESSION "bench layouts check passed"
  FAIL_REGULAR_EXPRESSION "bench layouts check FAILED" TIMEOUT 120 LABELS emulator)
# how blocking point-to-point calls count (PIPEKSP_EMU_P2P), wall clock
pipeksp_emu_test(wall-p2p-interval-2 2 p2p ${_emu_wall} PIPEKSP_EMU_P2P=interval)
pipeksp_emu_test(wall-p2p-point-2 2 p2p ${_emu_wall} PIPEKSP_EMU_P2P=point)

# the per-process mode for hybrid runs (PIPEKSP_EMU_SELF=1): one-rank communicators pay the latency too
add_test(NAME emulator-self-1 COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/self_check.sh ${PIPEKSP_MPIEXEC} $<TARGET_FILE:pipeksp_emu> $<TARGET_FILE:ex1>)
set_tests_properties(emulator-self-1 PROPERTIES ENVIRONMENT "${PIPEKSP_MPI_ENV}" PASS_REGULAR_EXPRESSION "emulator self check passed"
  FAIL_REGULAR_EXPRESSION "FAILED" TIMEOUT 120 LABELS emulator)

# a thread team's master polls at every work item unless the user sets an interval (counts, not times)
if(OpenMP_C_FOUND)
  add_test(NAME emulator-master-poll COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/master_poll.sh ${PIPEKSP_MPIEXEC} $<TARGET_FILE:pipeksp_emu> $<TARGET_FILE:ex1>)
  set_tests_properties(emulator-master-poll PROPERTIES ENVIRONMENT "${PIPEKSP_MPI_ENV}" PASS_REGULAR_EXPRESSION "master poll check passed"
    FAIL_REGULAR_EXPRESSION "FAILED" TIMEOUT 120 LABELS emulator)
endif()
# no blocking reduction inside the iterations of the pipelined KSPs (the emulator counts them)
add_test(NAME emulator-no-blocking COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/no_blocking.sh ${PIPEKSP_MPIEXEC} $<TARGET_FILE:pipeksp_emu> $<TARGET_FILE:ex1>)
set_tests_properties(emulator-no-blocking PROPERTIES ENVIRONMENT "${PIPEKSP_MPI_ENV}" PASS_REGULAR_EXPRESSION "no blocking reduction check passed"
  FAIL_REGULAR_EXPRESSION "FAILED" TIMEOUT 300 LABELS emulator)
# `make run` (bench/run-default.sh) on a tiny cube, with the emulator and without it
add_test(NAME emulator-run-default COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_default.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
set_tests_properties(emulator-run-default PROPERTIES ENVIRONMENT "${PIPEKSP_MPI_ENV}" PASS_REGULAR_EXPRESSION "run-default check passed"
  FAIL_REGULAR_EXPRESSION "run-default check FAILED" TIMEOUT 600 LABELS emulator)
# the flop clock on a legal program whose ranks meet a reduction at different points: no hang
add_executable(emu_asym ${CMAKE_CURRENT_LIST_DIR}/asym.c)
target_link_libraries(emu_asym PRIVATE MPI::MPI_C ${CMAKE_DL_LIBS})
set_target_properties(emu_asym PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/emulator)
add_test(NAME emulator-flops-asymmetric COMMAND ${PIPEKSP_MPIEXEC} --oversubscribe -n 2 -x LD_PRELOAD=$<TARGET_FILE:pipeksp_emu>
  -x PIPEKSP_EMU_P=64 -x PIPEKSP_EMU_CLOCK=flops -x PIPEKSP_EMU_P2P=point $<TARGET_FILE:emu_asym>)
set_tests_properties(emulator-flops-asymmetric PROPERTIES ENVIRONMENT "${PIPEKSP_MPI_ENV}" PASS_REGULAR_EXPRESSION "asymmetric check passed"
  FAIL_REGULAR_EXPRESSION "FAILED" TIMEOUT 60 LABELS emulator)
# the flop clock (PIPEKSP_EMU_CLOCK=flops, bench_cube -bench_clock flops; bench/smpi/solve.sh's emulated side):
# deterministic, and cg pays exactly its modelled reductions over cg-limit. PETSc 3.18/3.19 lack the log
# callbacks it needs: there the driver must refuse the clock with a clear error
if(PETSC_VERSION VERSION_GREATER_EQUAL 3.20)
  add_test(NAME emulator-flop-clock COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/flop_clock.sh ${PIPEKSP_MPIEXEC}
    $<TARGET_FILE:pipeksp_emu> $<TARGET_FILE:bench_cube> ${PROJECT_SOURCE_DIR})
  set_tests_properties(emulator-flop-clock PROPERTIES ENVIRONMENT "${PIPEKSP_MPI_ENV}" PASS_REGULAR_EXPRESSION "flop clock check passed"
    FAIL_REGULAR_EXPRESSION "FAIL" TIMEOUT 120 LABELS emulator)
else()
  add_test(NAME emulator-flop-clock-refused COMMAND ${PIPEKSP_MPIEXEC} --oversubscribe -n 2 -x LD_PRELOAD=$<TARGET_FILE:pipeksp_emu>
    -x PIPEKSP_EMU_P=64 -x PIPEKSP_EMU_CLOCK=flops $<TARGET_FILE:bench_cube> -bench_config unused -bench_clock flops)
  set_tests_properties(emulator-flop-clock-refused PROPERTIES ENVIRONMENT "${PIPEKSP_MPI_ENV}"
    PASS_REGULAR_EXPRESSION "-bench_clock flops needs PETSc 3.20 or newer" TIMEOUT 60 LABELS emulator)
endif()
