set(_cube_env "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1")
set(_cube_mem -malloc_debug -malloc_dump)

# ex1 with a bad option: nonzero exit, clear message, no hang
function(pipeksp_cube_bad name np regex)
  add_test(NAME cube-ex1-bad-${name} COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect_error.sh "${regex}"
           ${PIPEKSP_MPIEXEC} --oversubscribe -n ${np} $<TARGET_FILE:ex1> ${ARGN})
  set_tests_properties(cube-ex1-bad-${name} PROPERTIES ENVIRONMENT "${_cube_env}" TIMEOUT 90 LABELS cube)
endfunction()
pipeksp_cube_bad(n1 2 "at least 2 nodes in every direction" -cube_n 1)
pipeksp_cube_bad(nz1 1 "at least 2 nodes in every direction" -cube_nz 1)
pipeksp_cube_bad(negE 2 "Young's modulus E must be finite and > 0" -cube_E -1)
pipeksp_cube_bad(nuhalf 2 "Poisson's ratio nu must satisfy -1 < nu < 0.5" -cube_nu 0.5)
pipeksp_cube_bad(numinus1 1 "Poisson's ratio nu must satisfy" -cube_nu -1)
pipeksp_cube_bad(loadinf 2 "load must be a finite number" -cube_load inf)
pipeksp_cube_bad(procgrid 2 "does not match the 2 MPI ranks" -da_processors_x 3)
pipeksp_cube_bad(procgrid4 4 "does not match the 4 MPI ranks" -da_processors_x 2 -da_processors_y 2 -da_processors_z 2)
pipeksp_cube_bad(procgridfine 2 "must be between 1 and the 3 nodes" -cube_n 3 -da_processors_x 4)
pipeksp_cube_bad(mattype 1 "Unknown Mat type given: foo" -cube_mat_type foo)
