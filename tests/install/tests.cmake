# The installed tree (headers, libpipeksp, pipeksp.pc, the CMake package) used by an outside application.
set(_inst_env "PETSC_DIR=${PETSC_DIR};OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_MCA_mpi_yield_when_idle=1")
add_test(NAME install-consumers
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/consumer_check.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
                 ${PROJECT_BINARY_DIR}/tests/install-check ${PIPEKSP_MPIEXEC})
set_tests_properties(install-consumers PROPERTIES ENVIRONMENT "${_inst_env}"
  PASS_REGULAR_EXPRESSION "installed consumers OK" FAIL_REGULAR_EXPRESSION "FAILED;PETSC ERROR" TIMEOUT 300 PROCESSORS 2)
