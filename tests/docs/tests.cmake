# Every public symbol of include/pipeksp.h has a PETSc-style man page (tests/docs/manpages.py).
add_test(NAME docs-manpages COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/manpages.py ${PROJECT_SOURCE_DIR})
set_tests_properties(docs-manpages PROPERTIES PASS_REGULAR_EXPRESSION " 0 without a complete man page" TIMEOUT 30)
