# Every public symbol of include/pipeksp.h has a PETSc-style man page (tests/docs/manpages.py).
add_test(NAME docs-manpages COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/manpages.py ${PROJECT_SOURCE_DIR})
set_tests_properties(docs-manpages PROPERTIES PASS_REGULAR_EXPRESSION " 0 without a complete man page" TIMEOUT 30)
# The version is written once (include/pipeksp.h); the Python package's copies must agree with it.
add_test(NAME docs-version COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/version_check.py ${PROJECT_SOURCE_DIR} ${PROJECT_VERSION})
set_tests_properties(docs-version PROPERTIES PASS_REGULAR_EXPRESSION "versions agree" TIMEOUT 30)
# The C sources follow .clang-format (PETSc's style); skipped with a message where clang-format 14 is absent.
add_test(NAME docs-format COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/format_check.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(docs-format PROPERTIES PASS_REGULAR_EXPRESSION "all C files formatted" SKIP_RETURN_CODE 77 TIMEOUT 120)
# README.md stays a map: short, the commands and the tree first, one row per registered type with its man page.
add_test(NAME docs-readme COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/readme_check.py ${PROJECT_SOURCE_DIR})
set_tests_properties(docs-readme PROPERTIES PASS_REGULAR_EXPRESSION " 0 problems" TIMEOUT 30)
# docs/options.md's index of options is generated from the man pages (each option described once, there)
add_test(NAME docs-options-index COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/options_index.py ${PROJECT_SOURCE_DIR})
set_tests_properties(docs-options-index PROPERTIES PASS_REGULAR_EXPRESSION "options index in step" TIMEOUT 30)
