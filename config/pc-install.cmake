# Run by `cmake --install`: pipeksp.pc with the install prefix written out, so that its run path is absolute
# even when a consumer finds the file through a relative PKG_CONFIG_PATH (${pcfiledir} is then relative, and
# so was the run path: "libpipeksp.so.0: cannot open shared object file" from any other directory).
# In: PIPEKSP_PC_IN (the configured pipeksp.pc), PIPEKSP_PC_LIBDIR (its folder under the prefix).
file(READ "${PIPEKSP_PC_IN}" _pc)
string(REGEX REPLACE "(^|\n)prefix=[^\n]*" "\\1prefix=${CMAKE_INSTALL_PREFIX}" _pc "${_pc}")
file(WRITE "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${PIPEKSP_PC_LIBDIR}/pkgconfig/pipeksp.pc" "${_pc}")
message(STATUS "Installing: $ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${PIPEKSP_PC_LIBDIR}/pkgconfig/pipeksp.pc")
