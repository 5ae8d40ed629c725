# Two tests labelled smpi, and a check of the side-by-side report. A whole solve under SimGrid SMPI (SIMULATED, bench/smpi/solve.sh's set-up): cg against pipegv-poll on 16
# simulated ranks. Needs smpirun (Debian libsimgrid-dev) and the SMPI driver that config/petsc-smpi.sh builds
# into the cache (`make petsc-smpi`, which make test-petsc-latest runs first): without smpirun the test is
# disabled, without the driver it reports itself skipped.
find_program(PIPEKSP_SMPIRUN smpirun)
if(NOT PIPEKSP_SMPIRUN)
  list(APPEND PIPEKSP_MISSING_FEATURES smpi)
  set(PIPEKSP_SKIP_REASON_smpi "skipped: SimGrid's smpirun is not installed (Debian libsimgrid-dev)")
endif()
add_test(NAME smpi-solve-cg-vs-pipegv-poll-16 COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/smpi_solve.sh)
set_tests_properties(smpi-solve-cg-vs-pipegv-poll-16 PROPERTIES LABELS smpi SKIP_RETURN_CODE 77 TIMEOUT 600
  PASS_REGULAR_EXPRESSION "smpi_solve PASSED" FAIL_REGULAR_EXPRESSION "FAIL:")
# the shim alone (no PETSc needed): deterministic compute, the one-round-per-call MPI_Iallreduce, the scans
add_test(NAME smpi-shim-check COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/shim_check.sh)
set_tests_properties(smpi-shim-check PROPERTIES LABELS smpi SKIP_RETURN_CODE 77 TIMEOUT 300
  PASS_REGULAR_EXPRESSION "shim_check PASSED \\(P=6\\)" FAIL_REGULAR_EXPRESSION "FAIL:")
# the side-by-side report alone (no SimGrid needed): which emulated rounds it pairs, their ratios, a borrowed limit
add_test(NAME smpi-report-check COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/report_check.py ${PROJECT_SOURCE_DIR})
set_tests_properties(smpi-report-check PROPERTIES LABELS bench TIMEOUT 60
  PASS_REGULAR_EXPRESSION "report_check PASSED" FAIL_REGULAR_EXPRESSION "FAIL:")
