# The PETSc test harness glue (config/harness.cmake): an edited /*TEST*/ block regenerates the run
# scripts and the test list on the next build (a scratch copy of the sources, configured and edited).
add_test(NAME harness-regenerate COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/regen_check.sh ${PROJECT_SOURCE_DIR}
         ${PROJECT_BINARY_DIR}/tests/harness-check ${PROJECT_BINARY_DIR})
set_tests_properties(harness-regenerate PROPERTIES PASS_REGULAR_EXPRESSION "harness regeneration OK"
  FAIL_REGULAR_EXPRESSION "FAILED" TIMEOUT 180)
