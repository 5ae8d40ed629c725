# The tutorials and the C tests run under PETSc's own test harness as shipped by Debian (gmakegentest.py +
# petsc_harness.sh + petscdiff). The generator turns every /*TEST ... TEST*/ block of tutorials/ex*.c and
# tests/ex*.c into run scripts tests/pipeksp/<dir>/run<ex>_<suffix>.sh; each script becomes one ctest test,
# tutorials-<ex>_<suffix> or tests-<ex>_<suffix>. Scripts report in TAP and always exit 0, so a test fails on any
# "not ok" line; config/leakcheck.sh runs each and adds one for a leak. Labels: "tutorials", or "tests" plus the
# area that starts the suffix (ksp_..., pc_...).
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
  ${PROJECT_SOURCE_DIR}/tutorials/output/*.out ${PROJECT_SOURCE_DIR}/tests/ex*.c ${PROJECT_SOURCE_DIR}/tests/output/*.out)
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_tut_sources})
set(_testdir ${PROJECT_BINARY_DIR}/tests/pipeksp)
# drop scripts of removed TEST entries (the tutorial executables live in the same folder: keep them)
file(GLOB _old_scripts ${_testdir}/tutorials/run*.sh ${_testdir}/tests/run*.sh)
if(_old_scripts)
  file(REMOVE ${_old_scripts})
endif()
execute_process(
  COMMAND ${PIPEKSP_PYTHON} ${PIPEKSP_GMAKEGENTEST} --petsc-dir=${_petsc_prefix} --petsc-arch=
          --srcdir=${PROJECT_SOURCE_DIR} --testdir=${_testdir} --pkg-dir=${PROJECT_SOURCE_DIR}
          --pkg-name=pipeksp --pkg-pkgs=tutorials,tests --pkg-arch=
  RESULT_VARIABLE _gen_rc OUTPUT_VARIABLE _gen_out ERROR_VARIABLE _gen_out)
if(NOT _gen_rc EQUAL 0)
  message(FATAL_ERROR "gmakegentest.py failed on tutorials/ or tests/: ${_gen_out}")
endif()

foreach(_dir tutorials tests)
  file(GLOB _run_scripts ${_testdir}/${_dir}/run*.sh)
  list(SORT _run_scripts)
  foreach(script ${_run_scripts})
    get_filename_component(_name ${script} NAME_WE)
    string(REGEX REPLACE "^run" "" _name ${_name})
    if(_dir STREQUAL "tests")
      string(REGEX MATCH "_[a-z]+" _area ${_name}) # ex3_ksp_cube_... -> ksp; threads_omp2_* also carries its area
      string(SUBSTRING ${_area} 1 -1 _area)
      set(_labels tests ${_area})
      if(_name MATCHES "_threads_omp2_([a-z]+)")
        list(APPEND _labels ${CMAKE_MATCH_1})
      endif()
    else()
      set(_labels tutorials)
    endif()
    if(_name MATCHES "hypre")
      list(APPEND _labels hypre)
    endif()
    # through config/leakcheck.sh: a leak fails the entry whatever its filter keeps
    add_test(NAME ${_dir}-${_name} COMMAND bash ${PROJECT_SOURCE_DIR}/config/leakcheck.sh "${PIPEKSP_LEAK_REGEX}" ${script}
             WORKING_DIRECTORY ${_testdir}/${_dir})
    set_tests_properties(${_dir}-${_name} PROPERTIES
      FAIL_REGULAR_EXPRESSION "not ok"
      PASS_REGULAR_EXPRESSION "ok "
      ENVIRONMENT "${PIPEKSP_TEST_ENV};PIPEKSP_LIB=$<TARGET_FILE:pipeksp>;PIPEKSP_BUILD=${PROJECT_BINARY_DIR};PYTHONPATH=${PROJECT_SOURCE_DIR}/python"
      LABELS "${_labels}")
  endforeach()
endforeach()
