
# -log_view: our SpMV counted in PETSc's MatMult row like cg's; -pipeksp_spmv_chunk in -help/-ksp_view
add_test(NAME matmult-log-view COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/log_view_check.sh ${PIPEKSP_MPIEXEC} $<TARGET_FILE:ex1>)
set_tests_properties(matmult-log-view PROPERTIES ENVIRONMENT "${PIPEKSP_TEST_ENV}" PASS_REGULAR_EXPRESSION "log_view check passed"
  FAIL_REGULAR_EXPRESSION "FAILED" TIMEOUT 120 PROCESSORS 2)
