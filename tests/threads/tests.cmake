# asddic's default ordering follows the sweeps' threads: cmrcm with 2 (1 thread gets rcm: tests/pc)
if(OpenMP_C_FOUND)
  add_test(NAME threads-asddic-default-ordering
    COMMAND ${PIPEKSP_MPIEXEC} -n 1 ${PIPEKSP_TUTDIR}/ex1 -cube_n 12 -ksp_type pipegv -pc_type asddic
            -pipeksp_threads 2 -pipeksp_threads_min_rows 0 -ksp_rtol 1e-8 -ksp_view)
  set_tests_properties(threads-asddic-default-ordering PROPERTIES ENVIRONMENT "${PIPEKSP_TEST_ENV}" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "ordering cmrcm \\(default for 2 threads.*converged after"
    FAIL_REGULAR_EXPRESSION "ERROR|diverged")
endif()

# the SpMV chunk (the threads' work item) shows wherever the SpMV runs: chrongear's -ksp_view, asddic's
# -pc_view under PETSc's cg (the ASDD corrections' products)
foreach(case "chrongear;jacobi;7" "cg;asddic;9")
  list(GET case 0 ksp)
  list(GET case 1 pc)
  list(GET case 2 chunk)
  add_test(NAME threads-view-chunk-${pc}
    COMMAND ${PIPEKSP_MPIEXEC} -n 2 ${PIPEKSP_TUTDIR}/ex1 -cube_n 6 -ksp_type ${ksp} -pc_type ${pc}
            -pipeksp_threads 2 -pipeksp_spmv_chunk ${chunk} -pipeksp_threads_min_rows 0 -ksp_view)
  set_tests_properties(threads-view-chunk-${pc} PROPERTIES ENVIRONMENT "${PIPEKSP_TEST_ENV}" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "SpMV: split product, a poll point every ${chunk} rows.*converged after"
    FAIL_REGULAR_EXPRESSION "ERROR|diverged")
endforeach()

# OMP_NUM_THREADS that is not a positive number gives 1 thread, as unset does (libgomp would take every
# core); one above PipeKSP's limit is refused unless -pipeksp_threads overrides it, as -pipeksp_threads and
# -pc_asddic_threads above it are
if(OpenMP_C_FOUND)
  add_test(NAME threads-omp-env-invalid
    COMMAND ${PIPEKSP_MPIEXEC} -n 2 ${PIPEKSP_TUTDIR}/ex1 -cube_n 5 -ksp_type pipegv -ksp_view)
  set_tests_properties(threads-omp-env-invalid PROPERTIES ENVIRONMENT "${PIPEKSP_TEST_ENV};OMP_NUM_THREADS=abc" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "threads 1 \\(OpenMP available.*converged after" FAIL_REGULAR_EXPRESSION "ERROR|diverged")
  add_test(NAME threads-omp-env-huge
    COMMAND ${PIPEKSP_MPIEXEC} -n 2 ${PIPEKSP_TUTDIR}/ex1 -cube_n 5 -ksp_type pipegv)
  set_tests_properties(threads-omp-env-huge PROPERTIES ENVIRONMENT "${PIPEKSP_TEST_ENV};OMP_NUM_THREADS=99999999999" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "OMP_NUM_THREADS=99999999999: PipeKSP takes at most 4096 threads per process")
  add_test(NAME threads-omp-env-huge-overridden
    COMMAND ${PIPEKSP_MPIEXEC} -n 2 ${PIPEKSP_TUTDIR}/ex1 -cube_n 5 -ksp_type pipegv -pipeksp_threads 2 -ksp_view)
  set_tests_properties(threads-omp-env-huge-overridden PROPERTIES ENVIRONMENT "${PIPEKSP_TEST_ENV};OMP_NUM_THREADS=5000" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "threads 2 \\(OpenMP\\).*converged after" FAIL_REGULAR_EXPRESSION "ERROR|diverged")
  add_test(NAME threads-option-huge
    COMMAND ${PIPEKSP_MPIEXEC} -n 2 ${PIPEKSP_TUTDIR}/ex1 -cube_n 5 -ksp_type pipegv -pipeksp_threads 5000)
  set_tests_properties(threads-option-huge PROPERTIES ENVIRONMENT "${PIPEKSP_TEST_ENV}" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "-pipeksp_threads 5000: the number of threads must be 1 to 4096, or 0 for the default")
endif()

# -pipeksp_threads 0 (and -pc_asddic_threads 0) is the default, OMP_NUM_THREADS here, whatever the KSP: PETSc's
# cg, which never reads the option, and ours, which refused it before, sweep asddic with the same 2 threads
if(OpenMP_C_FOUND)
  foreach(ksp cg pipegropp pipegv chrongear pipeplcg)
    add_test(NAME threads-zero-default-${ksp}
      COMMAND ${PIPEKSP_MPIEXEC} -n 1 ${PIPEKSP_TUTDIR}/ex1 -cube_n 6 -ksp_type ${ksp} -pc_type asddic
              -pipeksp_threads 0 -pc_asddic_threads 0 -ksp_view)
    set_tests_properties(threads-zero-default-${ksp} PROPERTIES ENVIRONMENT "${PIPEKSP_TEST_ENV};OMP_NUM_THREADS=2" TIMEOUT 120
      PASS_REGULAR_EXPRESSION "threads 2 \\(OpenMP, -pipeksp_threads\\).*converged after" FAIL_REGULAR_EXPRESSION "ERROR|diverged")
  endforeach()
endif()
