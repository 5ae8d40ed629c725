# Test registration: the PETSc test harness over tutorials/ (config/harness.cmake) and each
# area's own tests (tests/<area>/tests.cmake, owned by that area).
set(PIPEKSP_MPIEXEC ${MPIEXEC_EXECUTABLE})
set(PIPEKSP_PYTHON /usr/bin/python3)
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
add_test(NAME tmpdirs-setup COMMAND ${CMAKE_COMMAND} -E make_directory ${_tmpdirs})
set_tests_properties(tmpdirs-setup PROPERTIES FIXTURES_SETUP pipeksp_tmpdirs)
