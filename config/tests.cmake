# Test registration: the PETSc test harness over tutorials/ (config/harness.cmake) and each
# area's own tests (tests/<area>/tests.cmake, owned by that area).
set(PIPEKSP_MPIEXEC ${MPIEXEC_EXECUTABLE})
set(PIPEKSP_PYTHON /usr/bin/python3)
include(${PROJECT_SOURCE_DIR}/config/harness.cmake OPTIONAL)
file(GLOB PIPEKSP_AREA_TESTS ${PROJECT_SOURCE_DIR}/tests/*/tests.cmake)
list(SORT PIPEKSP_AREA_TESTS)
foreach(f ${PIPEKSP_AREA_TESTS})
  include(${f})
endforeach()
