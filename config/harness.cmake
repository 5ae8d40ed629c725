# Tutorials run under PETSc's own test harness as shipped by Debian (gmakegentest.py + petsc_harness.sh +
# petscdiff). The generator turns every /*TEST ... TEST*/ block of tutorials/ into a run script
# tests/pipeksp/tutorials/run<ex>_<suffix>.sh; each script becomes one ctest test. Scripts report in TAP and always
# exit 0, so a test fails on any "not ok" line.
# PIPEKSP_PETSC_EXAMPLES: set in CMakeLists.txt
set(PIPEKSP_GMAKEGENTEST ${PIPEKSP_PETSC_EXAMPLES}/config/gmakegentest.py)
if(NOT EXISTS ${PIPEKSP_GMAKEGENTEST})
  message(WARNING "PETSc test harness not found at ${PIPEKSP_GMAKEGENTEST}: install libpetsc${PIPEKSP_PETSC_MAJMIN}-dev-examples (config/install-deps.sh) or set PIPEKSP_PETSC_EXAMPLES; tutorials will not be tested")
  return()
endif()
execute_process(COMMAND pkg-config --variable=prefix PETSc OUTPUT_VARIABLE _petsc_prefix OUTPUT_STRIP_TRAILING_WHITESPACE)
get_filename_component(_petsc_prefix "${_petsc_prefix}" REALPATH)

# The scripts are generated, and their tests registered, at configure time only. CONFIGURE_DEPENDS on the
# glob re-runs configure when files are added or removed, not when one is edited; so every tutorial (its
# /*TEST*/ block) and every expected output is also a configure dependency: editing one makes the next
# `make` / `cmake --build` re-run CMake, which regenerates the scripts and the list of tests.
file(GLOB _tut_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tutorials/ex*.c ${PROJECT_SOURCE_DIR}/tutorials/ex*.py
  ${PROJECT_SOURCE_DIR}/tutorials/output/*.out)
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_tut_sources})
set(_testdir ${PROJECT_BINARY_DIR}/tests/pipeksp)
# drop scripts of removed TEST entries (the tutorial executables live in the same folder: keep them)
file(GLOB _old_scripts ${_testdir}/tutorials/run*.sh)
if(_old_scripts)
  file(REMOVE ${_old_scripts})
endif()
execute_process(
  COMMAND ${PIPEKSP_PYTHON} ${PIPEKSP_GMAKEGENTEST} --petsc-dir=${_petsc_prefix} --petsc-arch=
          --srcdir=${PROJECT_SOURCE_DIR} --testdir=${_testdir} --pkg-dir=${PROJECT_SOURCE_DIR}
          --pkg-name=pipeksp --pkg-pkgs=tutorials --pkg-arch=
  RESULT_VARIABLE _gen_rc OUTPUT_VARIABLE _gen_out ERROR_VARIABLE _gen_out)
if(NOT _gen_rc EQUAL 0)
  message(FATAL_ERROR "gmakegentest.py failed on tutorials/: ${_gen_out}")
endif()

file(GLOB _run_scripts ${_testdir}/tutorials/run*.sh)
list(SORT _run_scripts)
foreach(script ${_run_scripts})
  get_filename_component(_name ${script} NAME_WE)
  string(REGEX REPLACE "^run" "" _name ${_name})
  add_test(NAME tutorials-${_name} COMMAND bash ${script} WORKING_DIRECTORY ${_testdir}/tutorials)
  set_tests_properties(tutorials-${_name} PROPERTIES
    FAIL_REGULAR_EXPRESSION "not ok"
    PASS_REGULAR_EXPRESSION "ok "
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;PIPEKSP_LIB=$<TARGET_FILE:pipeksp>;PIPEKSP_BUILD=${PROJECT_BINARY_DIR};PYTHONPATH=${PROJECT_SOURCE_DIR}/python"
    LABELS tutorials)
endforeach()
