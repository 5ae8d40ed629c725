# The differential fuzzer with cg as the oracle (tests/fuzz/pipefuzz.c, docs/algorithms.md "The cg
# contract"): `make fuzz SEED=... N=...` runs it at length; ctest runs a fixed seed on 1-4 ranks with the leak
# check, each failure printed with its one-line reproducer.
set(PIPEKSP_FUZZ_DIR ${PROJECT_BINARY_DIR}/tests/fuzz)
add_executable(pipefuzz ${CMAKE_CURRENT_LIST_DIR}/pipefuzz.c)
target_link_libraries(pipefuzz PRIVATE pipeksp)
set_target_properties(pipefuzz PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PIPEKSP_FUZZ_DIR})
add_test(NAME fuzz-cg-oracle-seed1
  COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/fuzz.py --mpiexec ${PIPEKSP_MPIEXEC} --exe $<TARGET_FILE:pipefuzz>
          --seed 1 --cases 120 --leakcheck)
set_tests_properties(fuzz-cg-oracle-seed1 PROPERTIES LABELS fuzz TIMEOUT 600
  PASS_REGULAR_EXPRESSION "fuzz: [0-9]+ passed, 0 failed" FAIL_REGULAR_EXPRESSION "FUZZFAIL")
