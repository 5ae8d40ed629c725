# PC asddic: the checks that drive other programs (PETSc's ex56 under -dll_append) and small runs of the
# asddic bench programs. The C tests are tests/ex10.c-ex12.c (tests/README.md).
set(PIPEKSP_PC_TESTDIR ${PROJECT_BINARY_DIR}/tests/pc)
set(PIPEKSP_PC_ENV "${PIPEKSP_TEST_ENV};OMP_NUM_THREADS=1")

# PETSc's ex56 (installed examples) with -dll_append and -pc_type asddic; ex56 needs a cube number of ranks
set(PIPEKSP_PETSC_EX56 ${PIPEKSP_PETSC_EXAMPLES}/src/ksp/ksp/tutorials/ex56.c)
if(EXISTS ${PIPEKSP_PETSC_EX56})
  add_executable(pc_petsc_ex56 ${PIPEKSP_PETSC_EX56})
  set_target_properties(pc_petsc_ex56 PROPERTIES COMPILE_OPTIONS "") # PETSc's code, not ours
  target_link_libraries(pc_petsc_ex56 PRIVATE PkgConfig::PETSC MPI::MPI_C m)
  set_target_properties(pc_petsc_ex56 PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PIPEKSP_PC_TESTDIR} OUTPUT_NAME petsc_ex56)
  foreach(np 1 8)
    add_test(NAME pc_asddic_petsc_ex56_np${np}
      COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/ex56_asddic.py --mpiexec ${PIPEKSP_MPIEXEC} -n ${np}
        --exe $<TARGET_FILE:pc_petsc_ex56> --lib $<TARGET_FILE:pipeksp> --source ${PIPEKSP_PETSC_EX56})
    set_tests_properties(pc_asddic_petsc_ex56_np${np} PROPERTIES ENVIRONMENT "${PIPEKSP_PC_ENV}"
      PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL: ;check\\(s\\) FAILED" LABELS pc PROCESSORS ${np})
  endforeach()
endif()

# bench programs (bench/asddic_*, built by bench/bench.cmake): small runs as tests so they keep working
add_test(NAME pc_asddic_bench_bandwidth
  COMMAND ${PIPEKSP_MPIEXEC} -n 1 $<TARGET_FILE:asddic_bandwidth> -cube_n 13 -reps 3 -stream_n 1000000)
set_tests_properties(pc_asddic_bench_bandwidth PROPERTIES ENVIRONMENT "${PIPEKSP_PC_ENV}"
  PASS_REGULAR_EXPRESSION "asddic local solve: [0-9.]+ GB/s   STREAM triad: [0-9.]+ GB/s" LABELS pc)
add_test(NAME pc_asddic_bench_colors COMMAND sh ${PROJECT_SOURCE_DIR}/bench/asddic_colors.sh ${PROJECT_BINARY_DIR} 13)
set_tests_properties(pc_asddic_bench_colors PROPERTIES LABELS pc)

# asddic's setters and getters on PCs of other types (PetscTryMethod / PetscUseMethod), no leaks
add_executable(pc_asddic_api ${CMAKE_CURRENT_LIST_DIR}/asddic_api.c)
target_link_libraries(pc_asddic_api PRIVATE pipeksp)
set_target_properties(pc_asddic_api PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PIPEKSP_PC_TESTDIR} OUTPUT_NAME asddic_api)
foreach(np 1 2)
  add_test(NAME pc_asddic_api_np${np} COMMAND ${PIPEKSP_MPIEXEC} --oversubscribe -n ${np} $<TARGET_FILE:pc_asddic_api> -malloc_debug -malloc_dump)
  set_tests_properties(pc_asddic_api_np${np} PROPERTIES ENVIRONMENT "${PIPEKSP_PC_ENV}" PASS_REGULAR_EXPRESSION "all checks passed"
    FAIL_REGULAR_EXPRESSION "FAIL|[0-9]+ bytes" TIMEOUT 60 LABELS pc PROCESSORS ${np})
endforeach()

# asddic's view follows PETSc's levels: a few lines at any size by default, the per-rank lines (one per rank)
# only under ::ascii_info_detail (8 ranks)
add_test(NAME pc_asddic_view_levels_np8
  COMMAND ${PIPEKSP_MPIEXEC} --oversubscribe -n 8 ${PIPEKSP_TUTDIR}/ex1 -cube_n 9 -ksp_type pipegv -pc_type asddic -ksp_view)
set_tests_properties(pc_asddic_view_levels_np8 PROPERTIES ENVIRONMENT "${PIPEKSP_TEST_ENV}" TIMEOUT 300 PROCESSORS 2
  PASS_REGULAR_EXPRESSION "factor block size 3, colours used.*converged after"
  FAIL_REGULAR_EXPRESSION "\\[[0-9]\\] [0-9]+ block rows;estimated by 10 CG steps;ERROR")
add_test(NAME pc_asddic_view_detail_np8
  COMMAND ${PIPEKSP_MPIEXEC} --oversubscribe -n 8 ${PIPEKSP_TUTDIR}/ex1 -cube_n 9 -ksp_type pipegv -pc_type asddic -ksp_view ::ascii_info_detail)
set_tests_properties(pc_asddic_view_detail_np8 PROPERTIES ENVIRONMENT "${PIPEKSP_TEST_ENV}" TIMEOUT 300 PROCESSORS 2
  PASS_REGULAR_EXPRESSION "\\[0\\] [0-9]+ block rows.*\\[7\\] [0-9]+ block rows.*converged after" FAIL_REGULAR_EXPRESSION "ERROR")
