# The installed tree (headers, libpipeksp, pipeksp.pc, the CMake package) used by an outside application.
get_filename_component(_petsc_libdir "${PIPEKSP_PETSC_LIBDIR}" REALPATH)
set(_inst_env "PIPEKSP_PETSC_LIBDIR=${_petsc_libdir};${PIPEKSP_TEST_ENV}")
add_test(NAME install-consumers
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/consumer_check.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
                 ${PROJECT_BINARY_DIR}/tests/install-check ${PIPEKSP_MPIEXEC})
set_tests_properties(install-consumers PROPERTIES ENVIRONMENT "${_inst_env}"
  PASS_REGULAR_EXPRESSION "installed consumers OK" FAIL_REGULAR_EXPRESSION "FAILED;PETSC ERROR" TIMEOUT 300 PROCESSORS 2)

# configure's answer to a PETSC_DIR that is not a PETSc, or is older than 3.18
add_test(NAME install-bad-petsc-dir
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/badpetsc_check.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/tests/bad-petsc-dir)
set_tests_properties(install-bad-petsc-dir PROPERTIES PASS_REGULAR_EXPRESSION "bad PETSC_DIR refused OK"
  FAIL_REGULAR_EXPRESSION "FAILED" TIMEOUT 120)

# the Makefile's first-hour traps: a failed configure is redone, a search that matches nothing fails
add_test(NAME install-make-traps
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/make_traps.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${PROJECT_BINARY_DIR}/tests/make-traps)
set_tests_properties(install-make-traps PROPERTIES PASS_REGULAR_EXPRESSION "make traps OK" FAIL_REGULAR_EXPRESSION "FAILED" TIMEOUT 600)
