# No include, call or dependency cycle between the files of src/, a header merged into the .c of its name
# (tests/layout/srcgraph.py: nm of the library's objects).
add_test(NAME layout-no-cycles COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/srcgraph.py ${PROJECT_SOURCE_DIR} $<TARGET_OBJECTS:pipeksp>)
set_tests_properties(layout-no-cycles PROPERTIES PASS_REGULAR_EXPRESSION "\n0 cycles" TIMEOUT 60 LABELS layout)
