# PipeKSPMatMult (src/mat/matmult.c) against MatMult on random SeqAIJ/MPIAIJ/SeqBAIJ/MPIBAIJ, shell and
# dense matrices; bad input; leaks (-malloc_dump prints unfreed blocks, which fails the test).
add_executable(test_matmult ${CMAKE_CURRENT_LIST_DIR}/test_matmult.c)
target_link_libraries(test_matmult PRIVATE pipeksp)
set_target_properties(test_matmult PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/matmult)
set(_mm_env "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1")
foreach(np 1 2 4)
  add_test(NAME matmult-np${np}
    COMMAND ${PIPEKSP_MPIEXEC} -n ${np} $<TARGET_FILE:test_matmult> -malloc_debug -malloc_dump)
endforeach()
# small chunks: many poll points per product, and the counter must see them
add_test(NAME matmult-np2-chunk7
  COMMAND ${PIPEKSP_MPIEXEC} -n 2 $<TARGET_FILE:test_matmult> -nb 90 -pipeksp_spmv_chunk 7 -malloc_debug -malloc_dump)
set_tests_properties(matmult-np1 matmult-np2 matmult-np4 matmult-np2-chunk7 PROPERTIES
  ENVIRONMENT "${_mm_env}"
  PASS_REGULAR_EXPRESSION "PASSED: 0 failure"
  FAIL_REGULAR_EXPRESSION "FAILED|bytes [A-Za-z_0-9]+\\(\\) at|PETSC ERROR"
  TIMEOUT 60)

# the cube matrix (bs 3 BAIJ and AIJ): equal to MatMult, and the split path taken; the timing it
# prints is informative only (the machine is shared), bench numbers come from larger -cube_n runs
add_executable(cube_matmult ${CMAKE_CURRENT_LIST_DIR}/cube_matmult.c)
target_link_libraries(cube_matmult PRIVATE pipeksp)
set_target_properties(cube_matmult PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/matmult)
foreach(mt baij aij)
  foreach(np 1 2)
    add_test(NAME matmult-cube-${mt}-np${np}
      COMMAND ${PIPEKSP_MPIEXEC} -n ${np} $<TARGET_FILE:cube_matmult> -cube_n 12 -cube_mat_type ${mt} -reps 5 -trials 2 -malloc_debug -malloc_dump)
    set_tests_properties(matmult-cube-${mt}-np${np} PROPERTIES
      ENVIRONMENT "${_mm_env}"
      PASS_REGULAR_EXPRESSION "split path yes"
      FAIL_REGULAR_EXPRESSION "bytes [A-Za-z_0-9]+\\(\\) at|PETSC ERROR"
      TIMEOUT 60)
  endforeach()
endforeach()

# -log_view: our SpMV counted in PETSc's MatMult row like cg's; -pipeksp_spmv_chunk in -help/-ksp_view
add_test(NAME matmult-log-view COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/log_view_check.sh ${PIPEKSP_MPIEXEC} $<TARGET_FILE:ex1>)
set_tests_properties(matmult-log-view PROPERTIES ENVIRONMENT "${_mm_env}" PASS_REGULAR_EXPRESSION "log_view check passed"
  FAIL_REGULAR_EXPRESSION "FAILED" TIMEOUT 120 PROCESSORS 2)
