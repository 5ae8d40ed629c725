# Hybrid MPI+OpenMP (issue 15): threaded SpMV and KSP kernels against the single-thread ones, and a
# subset of the other areas' tests run again with OMP_NUM_THREADS=2 (so -pipeksp_threads defaults to 2).
add_executable(threads_check ${CMAKE_CURRENT_LIST_DIR}/threads_check.c)
target_link_libraries(threads_check PRIVATE pipeksp)
set_target_properties(threads_check PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/threads)
set(_thr_env "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1")
foreach(np 1 2)
  add_test(NAME threads-check-np${np}
    COMMAND ${PIPEKSP_MPIEXEC} -n ${np} $<TARGET_FILE:threads_check> -malloc_debug -malloc_dump)
  set_tests_properties(threads-check-np${np} PROPERTIES ENVIRONMENT "${_thr_env}"
    PASS_REGULAR_EXPRESSION "all checks passed"
    FAIL_REGULAR_EXPRESSION "FAIL|bytes [A-Za-z_0-9]+\\(\\) at|PETSC ERROR"
    TIMEOUT 120)
endforeach()

# A subset of the other areas' tests again with OMP_NUM_THREADS=2: -pipeksp_threads defaults to 2, and
# -pipeksp_threads_min_rows 0 threads even these small problems, so the threaded SpMV, KSP kernels and
# asddic sweeps run under those tests' own checks. (The whole suite also passes with OMP_NUM_THREADS=2;
# there the default min rows keeps its small problems on one thread.)
set(_thr_env2 "${_thr_env};OMP_NUM_THREADS=2")
set(PIPEKSP_THREADS_SUBSET
  "matmult-np2|2|$<TARGET_FILE:test_matmult>|-pipeksp_threads_min_rows 0 -malloc_debug -malloc_dump|PASSED: 0 failure"
  "matmult-np2-chunk7|2|$<TARGET_FILE:test_matmult>|-pipeksp_threads_min_rows 0 -nb 90 -pipeksp_spmv_chunk 7 -malloc_debug -malloc_dump|PASSED: 0 failure"
  "matmult-cube-baij-np1|1|$<TARGET_FILE:cube_matmult>|-pipeksp_threads_min_rows 0 -cube_n 12 -cube_mat_type baij -reps 5 -trials 2|split path yes"
  "ksp-cube-jacobi-np1|1|${PROJECT_BINARY_DIR}/tests/ksp/cubecmp|-pipeksp_threads_min_rows 0 -cube_n 10 -pc_type jacobi -ksp_pipe_poll_interval 0|all checks passed"
  "ksp-cube-jacobi-np2|2|${PROJECT_BINARY_DIR}/tests/ksp/cubecmp|-pipeksp_threads_min_rows 0 -cube_n 10 -pc_type jacobi -ksp_pipe_poll_interval 0|all checks passed"
  "ksp-cube-asddic-np2|2|${PROJECT_BINARY_DIR}/tests/ksp/cubecmp|-pipeksp_threads_min_rows 0 -cube_n 8 -pc_type asddic|all checks passed"
  "ksp-cube-malloc-np2|2|${PROJECT_BINARY_DIR}/tests/ksp/cubecmp|-pipeksp_threads_min_rows 0 -cube_n 6 -pc_type jacobi -malloc_debug -malloc_dump|all checks passed"
  # no -malloc_dump: its rejected options (-ksp_pipe_progress bogus, ...) leave the strings of PETSc's own
  # options block unfreed, as any SetFromOptions error does
  "ksp-indef-np2|2|${PROJECT_BINARY_DIR}/tests/ksp/indef|-pipeksp_threads_min_rows 0|all checks passed"
  "pc-threads|1|${PROJECT_BINARY_DIR}/tests/pc/asddic_test|-test threads -cube_n 13 -cube_mat_type baij -malloc_debug -malloc_dump|"
  "pc-spd|1|${PROJECT_BINARY_DIR}/tests/pc/asddic_test|-test spd -cube_n 17 -cube_mat_type baij|")
foreach(entry ${PIPEKSP_THREADS_SUBSET})
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 name)
  list(GET parts 1 np)
  list(GET parts 2 exe)
  list(GET parts 3 args)
  list(LENGTH parts nparts)
  separate_arguments(args UNIX_COMMAND "${args}")
  add_test(NAME threads-omp2-${name} COMMAND ${PIPEKSP_MPIEXEC} -n ${np} ${exe} ${args})
  set_tests_properties(threads-omp2-${name} PROPERTIES ENVIRONMENT "${_thr_env2}" TIMEOUT 180
    FAIL_REGULAR_EXPRESSION "FAIL|ERROR|bytes [A-Za-z_0-9]+\\(\\) at|NOT below|[Uu]nfreed")
  if(nparts GREATER 4)
    list(GET parts 4 pass)
    if(pass)
      set_tests_properties(threads-omp2-${name} PROPERTIES PASS_REGULAR_EXPRESSION "${pass}")
    endif()
  endif()
endforeach()

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
