# Tests of PC asddic (issue 4): colouring, symmetry, threads, icc equivalence, reuse, pivots, ASDD vs bjacobi.
set(PIPEKSP_PC_TESTDIR ${PROJECT_BINARY_DIR}/tests/pc)
set(PIPEKSP_PC_ENV "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;OMP_NUM_THREADS=1")
add_executable(pc_asddic_test ${CMAKE_CURRENT_LIST_DIR}/asddic_test.c)
target_link_libraries(pc_asddic_test PRIVATE pipeksp)
set_target_properties(pc_asddic_test PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PIPEKSP_PC_TESTDIR} OUTPUT_NAME asddic_test)
add_executable(pc_asddic_safety ${CMAKE_CURRENT_LIST_DIR}/asddic_safety.c)
target_link_libraries(pc_asddic_safety PRIVATE pipeksp)
set_target_properties(pc_asddic_safety PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PIPEKSP_PC_TESTDIR} OUTPUT_NAME asddic_safety)

# name | ranks | arguments. Every run checks for leaks (-malloc_debug -malloc_dump prints "bytes" lines).
set(PIPEKSP_PC_TESTS
  "coloring_aij|1|-test coloring -cube_n 9 -cube_mat_type aij -pc_asddic_ordering cmrcm -pc_asddic_check"
  "coloring_baij|2|-test coloring -cube_n 9 -cube_mat_type baij -pc_asddic_ordering cmrcm -pc_asddic_colors 3"
  "coloring_sbaij|2|-test coloring -cube_n 9 -cube_mat_type sbaij -pc_asddic_ordering cmrcm -pc_asddic_colors 20"
  "coloring_point|1|-test coloring -cube_n 7 -cube_mat_type aij -pc_asddic_block 0 -pc_asddic_ordering cmrcm -pc_asddic_colors 2"
  "coloring_mc|4|-test coloring -cube_n 9 -cube_mat_type baij -pc_asddic_ordering mc"
  "coloring_K1|1|-test coloring -cube_n 7 -pc_asddic_ordering cmrcm -pc_asddic_colors 1"
  "symmetry|1|-test symmetry -cube_n 9 -cube_mat_type baij"
  "symmetry_point|1|-test symmetry -cube_n 9 -cube_mat_type aij -pc_asddic_block 0 -pc_asddic_iterations 3"
  "symmetry_np4|4|-test symmetry -cube_n 9 -cube_mat_type aij"
  "symmetry_np4_sbaij|4|-test symmetry -cube_n 9 -cube_mat_type sbaij -pc_asddic_ordering rcm"
  "threads|1|-test threads -cube_n 13 -cube_mat_type baij -pc_asddic_ordering cmrcm"
  "threads_point|2|-test threads -cube_n 11 -cube_mat_type aij -pc_asddic_block 0 -pc_asddic_ordering mc"
  "icc_n33|1|-test icc -cube_n 33 -cube_mat_type aij -a_pc_asddic_block 0"
  "reuse|2|-test reuse -cube_n 9 -cube_mat_type baij"
  "reuse_point|2|-test reuse -cube_n 9 -cube_mat_type aij -pc_asddic_block 0"
  "reuse_generic|2|-test reuse -cube_n 9 -cube_mat_type aij"
  "reuse_baij_point|2|-test reuse -cube_n 9 -cube_mat_type baij -pc_asddic_block 0"
  "symmetry_baij_point|2|-test symmetry -cube_n 9 -cube_mat_type baij -pc_asddic_block 0"
  "layouts_block|2|-test layouts -cube_n 9 -cube_mat_type baij"
  "layouts_point|2|-test layouts -cube_n 9 -cube_mat_type baij -l_pc_asddic_block 0"
  "pivot_point|1|-test pivot -cube_n 7 -cube_mat_type aij -n_pc_asddic_block 0 -d_pc_asddic_block 0"
  "pivot_block|2|-test pivot -cube_n 7 -cube_mat_type baij"
  "spd|1|-test spd -cube_n 17 -cube_mat_type baij"
  "spd_np8|8|-test spd -cube_n 13 -cube_mat_type baij"
  "bjacobi_np8|8|-test bjacobi -cube_n 17 -cube_mat_type baij")
foreach(entry ${PIPEKSP_PC_TESTS})
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 name)
  list(GET parts 1 np)
  list(GET parts 2 args)
  separate_arguments(args UNIX_COMMAND "${args}")
  if(NOT name STREQUAL "icc_n33") # the large one runs without the slow checking allocator
    list(APPEND args -malloc_debug -malloc_dump)
  endif()
  add_test(NAME pc_asddic_${name}
    COMMAND ${PIPEKSP_MPIEXEC} -n ${np} $<TARGET_FILE:pc_asddic_test> ${args})
  set_tests_properties(pc_asddic_${name} PROPERTIES ENVIRONMENT "${PIPEKSP_PC_ENV}"
    FAIL_REGULAR_EXPRESSION "bytes;FAILED;NOT below" LABELS pc PROCESSORS ${np})
endforeach()

# bad options: a clear error, on every rank
set(PIPEKSP_PC_BAD
  "colors0|-s_pc_asddic_colors 0|number of colours must be at least 1"
  "iterations0|-s_pc_asddic_iterations 0|number of ASDD iterations must be at least 1"
  "threads0|-s_pc_asddic_threads 0|number of threads must be at least 1"
  "ordering|-s_pc_asddic_ordering foo|Unknown|foo")
foreach(entry ${PIPEKSP_PC_BAD})
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 name)
  list(GET parts 1 args)
  list(GET parts 2 msg)
  separate_arguments(args UNIX_COMMAND "${args}")
  add_test(NAME pc_asddic_bad_${name}
    COMMAND ${PIPEKSP_MPIEXEC} -n 2 $<TARGET_FILE:pc_asddic_test> -test solve -cube_n 5 ${args})
  set_tests_properties(pc_asddic_bad_${name} PROPERTIES ENVIRONMENT "${PIPEKSP_PC_ENV}" PASS_REGULAR_EXPRESSION "${msg}" LABELS pc PROCESSORS 2)
endforeach()

# zero pivot with -pc_asddic_shift none and -ksp_error_if_not_converged: a clear collective error
add_test(NAME pc_asddic_bad_pivot_error
  COMMAND ${PIPEKSP_MPIEXEC} -n 2 $<TARGET_FILE:pc_asddic_test> -test solve -cube_n 5 -break_pivot -s_pc_asddic_shift none -s_ksp_error_if_not_converged)
set_tests_properties(pc_asddic_bad_pivot_error PROPERTIES ENVIRONMENT "${PIPEKSP_PC_ENV}" PASS_REGULAR_EXPRESSION "non-positive pivot on rank 0.*use -pc_asddic_shift diagonal" LABELS pc PROCESSORS 2)

# bench programs (bench/asddic_*): built here, small runs as tests so they keep working
add_executable(pc_asddic_bandwidth ${PROJECT_SOURCE_DIR}/bench/asddic_bandwidth.c)
target_link_libraries(pc_asddic_bandwidth PRIVATE pipeksp)
if(OpenMP_C_FOUND)
  target_link_libraries(pc_asddic_bandwidth PRIVATE OpenMP::OpenMP_C)
endif()
set_target_properties(pc_asddic_bandwidth PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PIPEKSP_PC_TESTDIR} OUTPUT_NAME asddic_bandwidth)
add_test(NAME pc_asddic_bench_bandwidth
  COMMAND ${PIPEKSP_MPIEXEC} -n 1 $<TARGET_FILE:pc_asddic_bandwidth> -cube_n 13 -reps 3 -stream_n 1000000)
set_tests_properties(pc_asddic_bench_bandwidth PROPERTIES ENVIRONMENT "${PIPEKSP_PC_ENV}"
  PASS_REGULAR_EXPRESSION "asddic local solve: [0-9.]+ GB/s   STREAM triad: [0-9.]+ GB/s" LABELS pc)
add_test(NAME pc_asddic_bench_colors COMMAND sh ${PROJECT_SOURCE_DIR}/bench/asddic_colors.sh ${PROJECT_BINARY_DIR} 13)
set_tests_properties(pc_asddic_bench_colors PROPERTIES LABELS pc)
