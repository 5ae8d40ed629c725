# The reduction-latency emulator (tools/emulator/pipeksp_emu.c): an LD_PRELOAD PMPI shim that gives every
# allreduce the latency of a large machine (EMULATION, see bench/README.md and docs/emulator.md), built as
# <build>/libpipeksp_emu.so for the benchmarks (bench/) and its tests (tests/emulator).
add_library(pipeksp_emu SHARED ${CMAKE_CURRENT_LIST_DIR}/pipeksp_emu.c)
target_link_libraries(pipeksp_emu PRIVATE MPI::MPI_C Threads::Threads m)
target_compile_options(pipeksp_emu PRIVATE -Wall -Wextra -Wno-unused-parameter)
set_target_properties(pipeksp_emu PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
