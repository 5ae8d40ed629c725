set(_thr_env "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_MCA_mpi_yield_when_idle=1")

# bench/hybrid_bandwidth.c (a benchmark, built here, not run by ctest): SpMV vs STREAM triad, 1 and 2 threads
add_executable(hybrid_bandwidth ${PROJECT_SOURCE_DIR}/bench/hybrid_bandwidth.c)
target_link_libraries(hybrid_bandwidth PRIVATE pipeksp)
if(OpenMP_C_FOUND)
  target_link_libraries(hybrid_bandwidth PRIVATE OpenMP::OpenMP_C)
endif()
set_target_properties(hybrid_bandwidth PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bench)

# asddic's default ordering follows the sweeps' threads: cmrcm with 2 (1 thread gets rcm: tests/pc)
if(OpenMP_C_FOUND)
  add_test(NAME threads-asddic-default-ordering
    COMMAND ${PIPEKSP_MPIEXEC} -n 1 ${PIPEKSP_TUTDIR}/ex1 -cube_n 12 -ksp_type pipegv -pc_type asddic
            -pipeksp_threads 2 -pipeksp_threads_min_rows 0 -ksp_rtol 1e-8 -ksp_view)
  set_tests_properties(threads-asddic-default-ordering PROPERTIES ENVIRONMENT "${_thr_env}" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "ordering cmrcm \\(default for 2 threads.*converged after"
    FAIL_REGULAR_EXPRESSION "ERROR|diverged")
endif()
