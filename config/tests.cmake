# Test registration: the PETSc test harness over tutorials/ (config/harness.cmake) and each
# area's own tests (tests/<area>/tests.cmake, owned by that area).
# A leak as PETSc's -malloc_dump prints it at PetscFinalize(): "[ 0] 1600 bytes VecCreate() at ./src/...", in a
# debug build "[ 0] 1600 bytes" and a stack, PETSc 3.26 first "[0]Total space allocated 1600 bytes". The one
# definition: the harness's entries (config/leakcheck.sh), the areas' tests (FAIL_REGULAR_EXPRESSION, and
# $PIPEKSP_LEAK_REGEX for the drivers that keep their programs' output to themselves).
set(PIPEKSP_LEAK_REGEX "\\[ *[0-9]+\\] ?(Total space allocated )?[0-9]+ bytes")
set(PIPEKSP_MPIEXEC ${MPIEXEC_EXECUTABLE})
# Every MPI test's environment, written once: Open MPI as root, more ranks than cores, and busy waits that
# yield (ctest -j2 runs two MPI jobs on 2 cores: without it one job's busy waits starve the other's
# ranks: two 2-rank, 2-thread ex16 runs took 56 s together against 2 s each alone).
# The emulator's timing tests take PIPEKSP_MPI_ENV, without the yield.
set(PIPEKSP_MPI_ENV "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1")
set(PIPEKSP_TEST_ENV "${PIPEKSP_MPI_ENV};OMPI_MCA_mpi_yield_when_idle=1")
# Debian's petsc4py is built for /usr/bin/python3 (not for the python3 first on PATH)
set(PIPEKSP_PYTHON /usr/bin/python3 CACHE FILEPATH "Python whose petsc4py is built against this PETSc")

# Optional features of the PETSc in use. A test that needs one carries its name as a label; where the
# feature is absent the test is not run (ctest lists it as disabled) and the reason is printed by
# configure and after `make test` (pipeksp-skipped.txt).
file(STRINGS ${PIPEKSP_PETSC_PREFIX}/include/petscconf.h _hypre REGEX "^#define PETSC_HAVE_HYPRE ")
execute_process(COMMAND ${PIPEKSP_PYTHON} -c "import os, petsc4py; print(os.path.realpath(petsc4py.get_config()['PETSC_DIR']))"
                OUTPUT_VARIABLE _p4p_dir OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _p4p_rc ERROR_QUIET)
set(PIPEKSP_MISSING_FEATURES "")
if(NOT _hypre)
  list(APPEND PIPEKSP_MISSING_FEATURES hypre)
  set(PIPEKSP_SKIP_REASON_hypre "skipped: this PETSc has no hypre")
endif()
if(NOT _p4p_rc EQUAL 0 OR NOT _p4p_dir STREQUAL PIPEKSP_PETSC_PREFIX)
  list(APPEND PIPEKSP_MISSING_FEATURES petsc4py)
  if(_p4p_rc EQUAL 0)
    set(PIPEKSP_SKIP_REASON_petsc4py "skipped: this PETSc has no petsc4py (${PIPEKSP_PYTHON}'s petsc4py is built against ${_p4p_dir})")
  else()
    set(PIPEKSP_SKIP_REASON_petsc4py "skipped: this PETSc has no petsc4py (${PIPEKSP_PYTHON} has none that loads against it; set PIPEKSP_PYTHON)")
  endif()
endif()
include(${PROJECT_SOURCE_DIR}/config/harness.cmake OPTIONAL)
file(GLOB PIPEKSP_AREA_TESTS ${PROJECT_SOURCE_DIR}/tests/*/tests.cmake)
list(SORT PIPEKSP_AREA_TESTS)
foreach(f ${PIPEKSP_AREA_TESTS})
  get_property(_before DIRECTORY PROPERTY TESTS)
  include(${f})
  get_property(_after DIRECTORY PROPERTY TESTS)
  # every test of tests/<area>/ carries the label <area>, so `ctest -L <area>` picks it
  get_filename_component(_area ${f} DIRECTORY)
  get_filename_component(_area ${_area} NAME)
  foreach(t ${_after})
    if(NOT t IN_LIST _before)
      get_test_property(${t} LABELS _labels)
      if(NOT _labels)
        set(_labels "")
      endif()
      if(NOT _area IN_LIST _labels)
        list(APPEND _labels ${_area})
        set_tests_properties(${t} PROPERTIES LABELS "${_labels}")
      endif()
      # and the leak check: PETSc programs get -malloc_dump (a test that sets PETSC_OPTIONS keeps its own), a
      # leak line in the test's output fails it, and drivers that capture their programs' output match
      # $PIPEKSP_LEAK_REGEX themselves
      foreach(_prop FAIL_REGULAR_EXPRESSION ENVIRONMENT)
        get_test_property(${t} ${_prop} _v)
        if(NOT _v)
          set(_v "")
        endif()
        set(_${_prop} "${_v}")
      endforeach()
      list(APPEND _FAIL_REGULAR_EXPRESSION "${PIPEKSP_LEAK_REGEX}")
      if(NOT _ENVIRONMENT MATCHES "(^|;)PETSC_OPTIONS=")
        list(APPEND _ENVIRONMENT "PETSC_OPTIONS=-malloc_dump")
      endif()
      list(APPEND _ENVIRONMENT "PIPEKSP_LEAK_REGEX=${PIPEKSP_LEAK_REGEX}")
      set_tests_properties(${t} PROPERTIES FAIL_REGULAR_EXPRESSION "${_FAIL_REGULAR_EXPRESSION}" ENVIRONMENT "${_ENVIRONMENT}")
    endif()
  endforeach()
endforeach()

# Open MPI 4 puts every launch's session directory under $TMPDIR/ompi.<host>.<uid> and the launch that
# ends last removes that shared directory, racing with a concurrent launch that is creating its own
# inside it ("A call to mkdir was unable to create the desired directory", seen with ctest -j2). So
# each test gets a TMPDIR of its own: short (/tmp/pipeksp-<hash>/<n>), since Open MPI and PMIx put
# Unix sockets there and those paths are limited to about 100 characters. A setup fixture creates them.
string(MD5 _tmphash "${PROJECT_BINARY_DIR}")
string(SUBSTRING "${_tmphash}" 0 8 _tmphash)
set(PIPEKSP_TMPROOT /tmp/pipeksp-${_tmphash})
get_property(_all_tests DIRECTORY PROPERTY TESTS)
set(_tmpdirs "")
set(_n 0)
foreach(t ${_all_tests})
  math(EXPR _n "${_n} + 1")
  list(APPEND _tmpdirs ${PIPEKSP_TMPROOT}/${_n})
  set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT "TMPDIR=${PIPEKSP_TMPROOT}/${_n}")
  set_property(TEST ${t} APPEND PROPERTY FIXTURES_REQUIRED pipeksp_tmpdirs)
endforeach()
# tests of a missing feature: disabled, with the reason
set(_skipped "")
foreach(_f ${PIPEKSP_MISSING_FEATURES})
  set(_n_skipped 0)
  foreach(t ${_all_tests})
    get_test_property(${t} LABELS _labels)
    if(_f IN_LIST _labels)
      set_tests_properties(${t} PROPERTIES DISABLED TRUE)
      math(EXPR _n_skipped "${_n_skipped} + 1")
    endif()
  endforeach()
  message(STATUS "${PIPEKSP_SKIP_REASON_${_f}}: ${_n_skipped} tests")
  string(APPEND _skipped "${PIPEKSP_SKIP_REASON_${_f}}: ${_n_skipped} tests\n")
endforeach()
file(WRITE ${PROJECT_BINARY_DIR}/pipeksp-skipped.txt "${_skipped}")
add_test(NAME tmpdirs-setup COMMAND ${CMAKE_COMMAND} -E make_directory ${_tmpdirs})
set_tests_properties(tmpdirs-setup PROPERTIES FIXTURES_SETUP pipeksp_tmpdirs)
