# The PETSc test harness glue (config/harness.cmake): an edited /*TEST*/ block regenerates the run
# scripts and the test list on the next build (a scratch copy of the sources, configured and edited).
add_test(NAME harness-regenerate COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/regen_check.sh ${PROJECT_SOURCE_DIR}
         ${PROJECT_BINARY_DIR}/tests/harness-check ${PROJECT_BINARY_DIR})
set_tests_properties(harness-regenerate PROPERTIES PASS_REGULAR_EXPRESSION "harness regeneration OK"
  FAIL_REGULAR_EXPRESSION "FAILED" TIMEOUT 180)
# The leak check (config/leakcheck.sh) can fail: tests/ex18.c's harness_leak entry never destroys a Vec
# and prints the right verdict. It must be reported as a leak, its run and its diff otherwise ok; the same
# program without the leak (harness_noleak) passes as any entry.
set_tests_properties(tests-ex18_harness_leak PROPERTIES
  PASS_REGULAR_EXPRESSION "not ok leak-tests-ex18_harness_leak # memory not freed"
  FAIL_REGULAR_EXPRESSION "not ok tests-;not ok diff-;SKIP")
