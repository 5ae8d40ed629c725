set(_mm_env "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_MCA_mpi_yield_when_idle=1")

# -log_view: our SpMV counted in PETSc's MatMult row like cg's; -pipeksp_spmv_chunk in -help/-ksp_view
add_test(NAME matmult-log-view COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/log_view_check.sh ${PIPEKSP_MPIEXEC} $<TARGET_FILE:ex1>)
set_tests_properties(matmult-log-view PROPERTIES ENVIRONMENT "${_mm_env}" PASS_REGULAR_EXPRESSION "log_view check passed"
  FAIL_REGULAR_EXPRESSION "FAILED" TIMEOUT 120 PROCESSORS 2)
