# petsc4py package (python/pipeksp): the pytest suite on 1 and 4 ranks, the Python tutorials' TEST blocks,
# and an offline `pip install ./python`. Everything runs from the source tree (PYTHONPATH=python) against
# this build's libpipeksp.so (PIPEKSP_LIB).
set(_py_env "${PIPEKSP_TEST_ENV};PIPEKSP_LIB=$<TARGET_FILE:pipeksp>;PYTHONPATH=${PROJECT_SOURCE_DIR}/python;PYTHONDONTWRITEBYTECODE=1")
# any PETSc error trace (a leak fails every area test: config/tests.cmake)
set(_py_fail "PETSC ERROR")

foreach(np 1 4)
  add_test(NAME python-pytest-${np}
           COMMAND ${PIPEKSP_MPIEXEC} --oversubscribe -n ${np} ${PIPEKSP_PYTHON} -m pytest -p no:cacheprovider
                   --color=no -rfEs ${PROJECT_SOURCE_DIR}/tests/python
           WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
  set_tests_properties(python-pytest-${np} PROPERTIES
    ENVIRONMENT "${_py_env};PETSC_OPTIONS=-malloc_debug -malloc_dump"
    PASS_REGULAR_EXPRESSION "[0-9]+ passed" FAIL_REGULAR_EXPRESSION "${_py_fail};[0-9]+ failed;[0-9]+ error"
    TIMEOUT 180 LABELS "python;petsc4py")
endforeach()

# PETSc 3.18's gmakegentest.py ignores .py sources: run their TEST blocks with PETSc's testparse + petscdiff
file(GLOB _py_tutorials CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tutorials/ex*.py)
foreach(src ${_py_tutorials})
  execute_process(COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/pyharness.py --list
                          --config-dir ${PIPEKSP_PETSC_EXAMPLES}/config ${src}
                  OUTPUT_VARIABLE _py_names RESULT_VARIABLE _rc ERROR_VARIABLE _err OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _rc EQUAL 0)
    message(WARNING "Python tutorial ${src} not tested: ${_err}")
    continue()
  endif()
  string(REPLACE "\n" ";" _py_names "${_py_names}")
  foreach(t ${_py_names})
    add_test(NAME tutorials-${t}
             COMMAND ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/pyharness.py --config-dir ${PIPEKSP_PETSC_EXAMPLES}/config
                     --mpiexec ${PIPEKSP_MPIEXEC} --python ${PIPEKSP_PYTHON} ${src} ${t})
    set_tests_properties(tutorials-${t} PROPERTIES ENVIRONMENT "${_py_env}"
      PASS_REGULAR_EXPRESSION "ok " FAIL_REGULAR_EXPRESSION "not ok" TIMEOUT 180 LABELS "tutorials;python;petsc4py")
  endforeach()
endforeach()

add_test(NAME python-pip-install
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/pip_install_check.sh ${PIPEKSP_PYTHON} ${PROJECT_SOURCE_DIR}
                 ${PROJECT_BINARY_DIR}/tests/python/pip-install $<TARGET_FILE:pipeksp>)
set_tests_properties(python-pip-install PROPERTIES ENVIRONMENT "${_py_env}"
  PASS_REGULAR_EXPRESSION "installed pipeksp OK" FAIL_REGULAR_EXPRESSION "${_py_fail}" TIMEOUT 180 LABELS "python;petsc4py")

# the README's petsc4py example, exactly as printed there
add_test(NAME python-readme-example
         COMMAND ${PIPEKSP_MPIEXEC} --oversubscribe -n 2 ${PIPEKSP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/readme_example.py ${PROJECT_SOURCE_DIR}/README.md)
set_tests_properties(python-readme-example PROPERTIES ENVIRONMENT "${_py_env};PETSC_OPTIONS=-malloc_debug -malloc_dump"
  PASS_REGULAR_EXPRESSION "README example: [0-9]+ iterations, error .*: OK" FAIL_REGULAR_EXPRESSION "${_py_fail}" TIMEOUT 120 LABELS "python;petsc4py")

# tutorials/ex1.py's usage line, and the one-line answer of an interpreter without petsc4py
add_test(NAME python-ex1-usage COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/ex1_usage.sh ${PROJECT_SOURCE_DIR} ${PIPEKSP_MPIEXEC} ${PIPEKSP_PYTHON})
set_tests_properties(python-ex1-usage PROPERTIES ENVIRONMENT "${_py_env}" PASS_REGULAR_EXPRESSION "ex1.py usage OK"
  FAIL_REGULAR_EXPRESSION "FAILED;Traceback" TIMEOUT 300 LABELS "python;petsc4py")
