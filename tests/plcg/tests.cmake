# Tests of KSP pipeplcg (p(l)-CG, issue 16) and of the engine's several reductions in flight.
set(PIPEKSP_PLCG_TESTDIR ${PROJECT_BINARY_DIR}/tests/plcg)
set(PIPEKSP_PLCG_ENV "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1")
foreach(prog plcg_cube plcg_breakdown)
  add_executable(${prog} ${CMAKE_CURRENT_LIST_DIR}/${prog}.c)
  target_link_libraries(${prog} PRIVATE pipeksp)
  set_target_properties(${prog} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PIPEKSP_PLCG_TESTDIR})
endforeach()
# breakdowns give cg's reasons, the KSP stays usable, bad settings are refused; no leaks
foreach(np 1 2)
  add_test(NAME plcg-breakdown-np${np} COMMAND ${PIPEKSP_MPIEXEC} -n ${np} ${PIPEKSP_PLCG_TESTDIR}/plcg_breakdown -malloc_debug -malloc_dump)
  set_tests_properties(plcg-breakdown-np${np} PROPERTIES ENVIRONMENT "${PIPEKSP_PLCG_ENV}"
    PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL|[Uu]nfreed")
endforeach()

# cube, jacobi / bjacobi+icc / asddic in one process each; depths 1-3 vs cg and pipegv, every policy at depth 2
foreach(np 1 4 8)
  add_test(NAME plcg-cube-np${np}
    COMMAND ${PIPEKSP_MPIEXEC} -n ${np} ${PIPEKSP_PLCG_TESTDIR}/plcg_cube -cube_n 8 -ksp_pipe_poll_interval 0)
  set_tests_properties(plcg-cube-np${np} PROPERTIES ENVIRONMENT "${PIPEKSP_PLCG_ENV}"
    PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL|ERROR")
endforeach()
# the other norms (unpreconditioned keeps M-images of the bases), a nonzero guess, leaks
set(PIPEKSP_PLCG_VARIANTS
  "unprec|-ksp_norm_type unpreconditioned"
  "natural|-ksp_norm_type natural"
  "guess|-nonzero_guess"
  "malloc|-malloc_debug -malloc_dump")
foreach(entry ${PIPEKSP_PLCG_VARIANTS})
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 name)
  list(GET parts 1 vargs)
  separate_arguments(vargs)
  add_test(NAME plcg-cube-${name}-np2
    COMMAND ${PIPEKSP_MPIEXEC} -n 2 ${PIPEKSP_PLCG_TESTDIR}/plcg_cube -cube_n 7 -pcs jacobi,asddic ${vargs})
  set_tests_properties(plcg-cube-${name}-np2 PROPERTIES ENVIRONMENT "${PIPEKSP_PLCG_ENV}"
    PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL|ERROR|[Uu]nfreed")
endforeach()

# PETSc's ex2 / ex56 (built by tests/ksp) under -dll_append: pipeplcg at cg's iterations where PETSc's
# pipelcg with its defaults needs several times more
foreach(ex ${PIPEKSP_KSP_PETSC_EXES})
  if(ex STREQUAL "ex56")
    set(nps 1 8)
  else()
    set(nps 1 4)
  endif()
  foreach(np ${nps})
    add_test(NAME plcg-petsc-${ex}-np${np}
      COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/petsc_plcg.py --mpiexec ${PIPEKSP_MPIEXEC} -n ${np}
        --exe ${PIPEKSP_KSP_TESTDIR}/petsc_${ex} --lib $<TARGET_FILE:pipeksp> --example ${ex})
    set_tests_properties(plcg-petsc-${ex}-np${np} PROPERTIES ENVIRONMENT "${PIPEKSP_PLCG_ENV}"
      PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL")
  endforeach()
endforeach()

# emulator extensions (per-round hop latency, OS noise), exact on the virtual clock, with the SMPI
# micro-benchmark's emulator build
add_executable(rd_emu ${PROJECT_SOURCE_DIR}/bench/smpi/rd_bench.c)
target_link_libraries(rd_emu PRIVATE MPI::MPI_C ${CMAKE_DL_LIBS})
set_target_properties(rd_emu PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PIPEKSP_PLCG_TESTDIR})
add_test(NAME plcg-emulator-rounds-noise
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/emu_rounds.sh ${PIPEKSP_MPIEXEC} $<TARGET_FILE:rd_emu> $<TARGET_FILE:pipeksp_emu>)
set_tests_properties(plcg-emulator-rounds-noise PROPERTIES ENVIRONMENT "${PIPEKSP_PLCG_ENV}"
  PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL")

# bench/plcg.sh end to end on a tiny run: its CSV must match bench_cube's columns, so every speedup is a number
add_test(NAME plcg-bench-smoke
  COMMAND ${CMAKE_COMMAND} -E env PIPEKSP_PLCG_PSIM=1\ 1024 PIPEKSP_PLCG_NOISE_PSIM=1024 PIPEKSP_PLCG_REPS=3
          PIPEKSP_PLCG_N=5 PIPEKSP_PLCG_OUT=${PROJECT_BINARY_DIR}/tests/plcg/bench
          bash ${PROJECT_SOURCE_DIR}/bench/plcg.sh ${PROJECT_BINARY_DIR})
set_tests_properties(plcg-bench-smoke PROPERTIES LABELS plcg TIMEOUT 300
  ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1"
  PASS_REGULAR_EXPRESSION "l=3: hidden [0-9.]+ .*vs cg [0-9.]+x / [0-9.]+x"
  FAIL_REGULAR_EXPRESSION "nan|FAILED|missing")

# adaptive residual replacement fires where the recurrences alone stall above rtol (ill-conditioned diagonal)
add_executable(plcg_replace ${CMAKE_CURRENT_LIST_DIR}/plcg_replace.c)
target_link_libraries(plcg_replace PRIVATE pipeksp)
set_target_properties(plcg_replace PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PIPEKSP_PLCG_TESTDIR})
foreach(np 1 2)
  add_test(NAME plcg-replace-np${np} COMMAND ${PIPEKSP_MPIEXEC} -n ${np} ${PIPEKSP_PLCG_TESTDIR}/plcg_replace -malloc_debug -malloc_dump)
  set_tests_properties(plcg-replace-np${np} PROPERTIES ENVIRONMENT "${PIPEKSP_PLCG_ENV}"
    PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL|[Uu]nfreed")
endforeach()
