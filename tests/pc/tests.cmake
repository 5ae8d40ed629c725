# Tests of PC asddic (issues 4, 11): colouring, symmetry, threads, icc equivalence, reuse, pivots, ASDD vs
# bjacobi, transpose, spectral safety (every configuration converges, P is SPD), PETSc's ex56.
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
  "bjacobi_np8|8|-test bjacobi -cube_n 17 -cube_mat_type baij"
  "transpose|1|-test transpose -cube_n 9 -cube_mat_type baij"
  "transpose_np2|2|-test transpose -cube_n 9 -cube_mat_type aij -pc_asddic_local sgs"
  "reestimate_np2|2|-test reestimate -cube_n 9 -cube_mat_type baij")
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

# -pc_view says which ordering and why, the bounds, the damping and the estimate's cost; a re-setup
# with new values re-estimates (the reestimate test prints the view after two set-ups)
set_tests_properties(pc_asddic_reestimate_np2 PROPERTIES PASS_REGULAR_EXPRESSION
  "re-estimated: yes.*ordering rcm \\(default for 1 thread.*sweeps chebyshev on \\[[0-9.e-]+, [0-9.e-]+\\] \\(estimated\\).*estimated by 10 CG steps.*s of the set-up's .* s \\(2 estimate\\(s\\) so far\\)")

# Spectral safety (issue 11): every nu x ordering x K x local converges with the defaults (on one rank
# with Richardson sweeps too) on cubes where the undamped sweeps fail (checked in the same run),
# iterations at nu = 0.3 within 5% of the undamped ones; and P is SPD at nu = 0.49, K = 2, mc (Lanczos
# on P A, random (x, P x)). The matrix runs skip the checking allocator: it slows them tenfold.
set(PIPEKSP_PC_SAFETY
  "matrix_np1|1|-cube_n 10 -sweeps chebyshev,richardson -expect_undamped_failure"
  "matrix_np4|4|-cube_n 10 -expect_undamped_failure"
  "matrix_np8|8|-cube_n 8 -expect_undamped_failure"
  "spd_mc_np1|1|-malloc_debug -malloc_dump -test spd -cube_n 10 -pc_asddic_ordering mc -pc_asddic_iterations 2"
  "spd_mc_richardson_np1|1|-test spd -cube_n 10 -pc_asddic_ordering mc -pc_asddic_iterations 2 -pc_asddic_sweep richardson"
  "spd_mc_np4|4|-test spd -cube_n 10 -pc_asddic_ordering mc -pc_asddic_iterations 2"
  "spd_mc_richardson_np4|4|-test spd -cube_n 10 -pc_asddic_ordering mc -pc_asddic_iterations 2 -pc_asddic_sweep richardson")
foreach(entry ${PIPEKSP_PC_SAFETY})
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 name)
  list(GET parts 1 np)
  list(GET parts 2 args)
  separate_arguments(args UNIX_COMMAND "${args}")
  add_test(NAME pc_asddic_safety_${name}
    COMMAND ${PIPEKSP_MPIEXEC} -n ${np} $<TARGET_FILE:pc_asddic_safety> ${args})
  set_tests_properties(pc_asddic_safety_${name} PROPERTIES ENVIRONMENT "${PIPEKSP_PC_ENV}"
    PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "bytes;FAILED" LABELS pc PROCESSORS ${np})
endforeach()

# PETSc's ex56 (installed examples) with -dll_append and -pc_type asddic; ex56 needs a cube number of ranks
set(PIPEKSP_PETSC_EX56 ${PIPEKSP_PETSC_EXAMPLES}/src/ksp/ksp/tutorials/ex56.c)
if(EXISTS ${PIPEKSP_PETSC_EX56})
  add_executable(pc_petsc_ex56 ${PIPEKSP_PETSC_EX56})
  target_link_libraries(pc_petsc_ex56 PRIVATE PkgConfig::PETSC MPI::MPI_C m)
  set_target_properties(pc_petsc_ex56 PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PIPEKSP_PC_TESTDIR} OUTPUT_NAME petsc_ex56)
  foreach(np 1 8)
    add_test(NAME pc_asddic_petsc_ex56_np${np}
      COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/ex56_asddic.py --mpiexec ${PIPEKSP_MPIEXEC} -n ${np}
        --exe $<TARGET_FILE:pc_petsc_ex56> --lib $<TARGET_FILE:pipeksp>)
    set_tests_properties(pc_asddic_petsc_ex56_np${np} PROPERTIES ENVIRONMENT "${PIPEKSP_PC_ENV}"
      PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL" LABELS pc PROCESSORS ${np})
  endforeach()
endif()

# bad options: a clear error, on every rank
set(PIPEKSP_PC_BAD
  "colors0|-s_pc_asddic_colors 0|number of colours must be at least 1"
  "iterations0|-s_pc_asddic_iterations 0|number of ASDD iterations must be at least 1"
  "threads0|-s_pc_asddic_threads 0|number of threads must be at least 1"
  "ordering|-s_pc_asddic_ordering foo|Unknown|foo"
  "local|-s_pc_asddic_local foo|Unknown|foo"
  "sweep|-s_pc_asddic_sweep foo|Unknown|foo"
  "safety|-s_pc_asddic_esteig_safety 0.5|safety factor on the largest eigenvalue must be at least 1"
  "eigenvalues|-s_pc_asddic_eigenvalues 2,1|eigenvalue bounds need 0 < emin < emax"
  "eigenvalues1|-s_pc_asddic_eigenvalues 2|needs two values emin,emax"
  "damping|-s_pc_asddic_damping 2.5|damping must be in"
  "steps|-s_pc_asddic_esteig_steps -2|estimate steps must be"
  "cheb_nobounds|-s_pc_asddic_esteig_steps 0|Chebyshev sweeps need bounds")
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

# the tuned triangular sweeps against the reference ones: same M^-1 b to 1e-12, same iterations
add_executable(pc_asddic_kernels ${CMAKE_CURRENT_LIST_DIR}/asddic_kernels.c)
target_link_libraries(pc_asddic_kernels PRIVATE pipeksp)
set_target_properties(pc_asddic_kernels PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PIPEKSP_PC_TESTDIR} OUTPUT_NAME asddic_kernels)
foreach(np 1 2)
  add_test(NAME pc_asddic_kernels_np${np}
    COMMAND ${PIPEKSP_MPIEXEC} -n ${np} $<TARGET_FILE:pc_asddic_kernels> -cube_n 7 -malloc_debug -malloc_dump)
  set_tests_properties(pc_asddic_kernels_np${np} PROPERTIES ENVIRONMENT "${PIPEKSP_PC_ENV}"
    PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "bytes;FAILED" LABELS pc PROCESSORS ${np})
endforeach()
