# The KSP types and the engine: the checks that drive other programs (PETSc's ex2/ex56 under -dll_append,
# petsc4py, nesting in PETSc's -pc_type ksp). The C tests are tests/ex3.c-ex7.c (tests/README.md).
set(PIPEKSP_KSP_TESTDIR ${PROJECT_BINARY_DIR}/tests/ksp)

# PETSc's own shipped tutorials, built from the installed examples (not copied into the repo),
# to show -dll_append works on programs that know nothing about us.
set(PIPEKSP_PETSC_TUT ${PIPEKSP_PETSC_EXAMPLES}/src/ksp/ksp/tutorials)
foreach(ex ex2 ex56)
  if(EXISTS ${PIPEKSP_PETSC_TUT}/${ex}.c)
    add_executable(ksp_petsc_${ex} ${PIPEKSP_PETSC_TUT}/${ex}.c)
    set_target_properties(ksp_petsc_${ex} PROPERTIES COMPILE_OPTIONS "") # PETSc's code, not ours
    target_link_libraries(ksp_petsc_${ex} PRIVATE PkgConfig::PETSC MPI::MPI_C m)
    set_target_properties(ksp_petsc_${ex} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PIPEKSP_KSP_TESTDIR} OUTPUT_NAME petsc_${ex})
    list(APPEND PIPEKSP_KSP_PETSC_EXES ${ex})
  endif()
endforeach()

# PETSc's ex2 / ex56 with -dll_append: each type converges like cg
foreach(ex ${PIPEKSP_KSP_PETSC_EXES})
  # ex56 partitions by hand and needs a cube number of ranks
  if(ex STREQUAL "ex56")
    set(nps 1 8)
  else()
    set(nps 1 4)
  endif()
  foreach(np ${nps})
    add_test(NAME ksp-petsc-${ex}-np${np}
      COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/petsccmp.py --mpiexec ${PIPEKSP_MPIEXEC} -n ${np}
        --exe ${PIPEKSP_KSP_TESTDIR}/petsc_${ex} --lib $<TARGET_FILE:pipeksp> --example ${ex})
    set_tests_properties(ksp-petsc-${ex}-np${np} PROPERTIES ENVIRONMENT "${PIPEKSP_TEST_ENV}"
      PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL")
  endforeach()
endforeach()

# error paths: a Python PC / matrix raising inside the overlapped work, then re-solve and KSPReset
add_test(NAME ksp-errpath-np2 COMMAND ${PIPEKSP_MPIEXEC} -n 2 ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/errpath.py $<TARGET_FILE:pipeksp>)
set_tests_properties(ksp-errpath-np2 PROPERTIES ENVIRONMENT "${PIPEKSP_TEST_ENV}" LABELS petsc4py
  PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL")

# petsc4py: -dll_append from Python
add_test(NAME ksp-petsc4py COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/petsc4py_types.py $<TARGET_FILE:pipeksp>)
set_tests_properties(ksp-petsc4py PROPERTIES ENVIRONMENT "${PIPEKSP_TEST_ENV}" LABELS petsc4py
  PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL")

# nesting: a pipelined KSP inside the PC of another one (-pc_type ksp), both with poll
if(ex2 IN_LIST PIPEKSP_KSP_PETSC_EXES)
  add_test(NAME ksp-nested-np2
    COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/nested.py --mpiexec ${PIPEKSP_MPIEXEC} -n 2
      --exe ${PIPEKSP_KSP_TESTDIR}/petsc_ex2 --lib $<TARGET_FILE:pipeksp>)
  set_tests_properties(ksp-nested-np2 PROPERTIES ENVIRONMENT "${PIPEKSP_TEST_ENV}"
    PASS_REGULAR_EXPRESSION "all checks passed" FAIL_REGULAR_EXPRESSION "FAIL")
endif()


# a libpipeksp built for another PETSc (make test-petsc-latest's build beside make test's) refuses in PETSc's
# ex2 with both versions named; skipped where no such build exists yet
if(TARGET ksp_petsc_ex2)
  add_test(NAME ksp-other-petsc-refused
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/otherpetsc_check.sh ${PROJECT_BINARY_DIR} ${PETSC_VERSION}
            ${PIPEKSP_KSP_TESTDIR}/petsc_ex2 ${PIPEKSP_MPIEXEC} ${PROJECT_SOURCE_DIR})
  set_tests_properties(ksp-other-petsc-refused PROPERTIES ENVIRONMENT "${PIPEKSP_TEST_ENV}" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "other PETSc refused OK" FAIL_REGULAR_EXPRESSION "FAILED" SKIP_RETURN_CODE 77)
endif()
