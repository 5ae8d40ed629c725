# The benchmark programs of bench/*.sh, built into <build>/bench (not run by ctest except as smoke tests
# in the test areas): bench_cube, the driver of bench.sh, hybrid.sh, plcg.sh, overhead.sh and run-default.sh;
# asddic_bandwidth (bench.sh's single-node section) and hybrid_bandwidth (hybrid.sh): SpMV and PC apply
# against a STREAM triad; emu_cost (emu_cost.sh): one MPI_Test's cost with and without the emulator.
add_executable(bench_cube ${CMAKE_CURRENT_LIST_DIR}/bench_cube.c)
target_link_libraries(bench_cube PRIVATE pipeksp ${CMAKE_DL_LIBS})
# -bench_clock flops prices PETSc's flop counter per event, as the SMPI driver does: PetscLogEventGetName and
# PetscLogLegacyCallbacksBegin are PETSc 3.20's
if(PETSC_VERSION VERSION_GREATER_EQUAL 3.20)
  target_sources(bench_cube PRIVATE ${CMAKE_CURRENT_LIST_DIR}/smpi/flop_price.c)
endif()
# dots_cg (dots_cg.sh): iteration counts of CG variants on random diagonal spectra, our types by -dll_append
add_executable(dots_cg ${CMAKE_CURRENT_LIST_DIR}/dots_cg.c)
target_include_directories(dots_cg PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(dots_cg PRIVATE PkgConfig::PETSC MPI::MPI_C m)
add_executable(emu_cost ${CMAKE_CURRENT_LIST_DIR}/emu_cost.c)
target_link_libraries(emu_cost PRIVATE MPI::MPI_C)
foreach(b asddic_bandwidth hybrid_bandwidth)
  add_executable(${b} ${CMAKE_CURRENT_LIST_DIR}/${b}.c)
  target_link_libraries(${b} PRIVATE pipeksp)
  if(OpenMP_C_FOUND)
    target_link_libraries(${b} PRIVATE OpenMP::OpenMP_C)
  endif()
endforeach()
set_target_properties(bench_cube emu_cost dots_cg asddic_bandwidth hybrid_bandwidth PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bench)
