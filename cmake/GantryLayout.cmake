# Where things go when installed, and how a binary finds them at run time.
#
#   <prefix>/bin/gantry, gantry-cli
#   <prefix>/libexec/gantry/gantry-verify                (only when nvcc was found at build time)
#   <prefix>/share/gantry/{gpu-specs.json,gpu-doctor.sh,gpu-torch-check.py,kernels/,translations/}
#   <prefix>/share/applications, metainfo, icons/hicolor, man/man1
#
# The binaries look for share/ and libexec/ relative to their own directory (util/paths.h), never
# through a compiled-in absolute path: the same binary works under /usr, /usr/local, an unpacked
# tarball, an AppImage's usr/ or a Flatpak's /app. The build tree imitates the layout: the
# executables are in <build>/app and configure mirrors the data into <build>/share/gantry.
include(GNUInstallDirs)

set(GANTRY_APP_ID "io.github.gantry.Gantry")
set(GANTRY_DATA_INSTALL_DIR "${CMAKE_INSTALL_DATADIR}/gantry")
set(GANTRY_LIBEXEC_INSTALL_DIR "${CMAKE_INSTALL_LIBEXECDIR}/gantry")

file(RELATIVE_PATH GANTRY_BIN_TO_DATA "${CMAKE_INSTALL_FULL_BINDIR}" "${CMAKE_INSTALL_FULL_DATADIR}/gantry")
file(RELATIVE_PATH GANTRY_BIN_TO_LIBEXEC "${CMAKE_INSTALL_FULL_BINDIR}" "${CMAKE_INSTALL_FULL_LIBEXECDIR}/gantry")
if(IS_ABSOLUTE "${GANTRY_BIN_TO_DATA}" OR IS_ABSOLUTE "${GANTRY_BIN_TO_LIBEXEC}")
    message(FATAL_ERROR "bin, share and libexec must share a prefix (got ${GANTRY_BIN_TO_DATA}, "
                        "${GANTRY_BIN_TO_LIBEXEC}); the binaries find their data relative to bin/")
endif()

# Build-tree mirror of <prefix>/share/gantry: links, so edits to the sources take effect at once.
set(GANTRY_BUILD_DATA_DIR "${CMAKE_BINARY_DIR}/share/gantry")
file(MAKE_DIRECTORY "${GANTRY_BUILD_DATA_DIR}/translations")
foreach(_file gpu-specs.json gpu-reference.json gpu-doctor.sh gpu-torch-check.py)
    file(CREATE_LINK "${PROJECT_SOURCE_DIR}/resources/${_file}" "${GANTRY_BUILD_DATA_DIR}/${_file}" SYMBOLIC)
endforeach()
file(CREATE_LINK "${PROJECT_SOURCE_DIR}/kernels" "${GANTRY_BUILD_DATA_DIR}/kernels" SYMBOLIC)

# The reverse-DNS id names the .desktop file, the metainfo, the icons and
# QGuiApplication::desktopFileName(), so desktops match windows to their launcher.
target_compile_definitions(gantry_options INTERFACE GANTRY_APP_ID="${GANTRY_APP_ID}")
