# CPack: `cpack -G DEB` and `cpack -G TGZ` in the build directory (packaging/package.sh does both).
# The .deb targets Debian 12 (bookworm); the tarball is the same tree under gantry-<version>-Linux/,
# runnable from wherever it is unpacked (relative lookups, see GantryLayout.cmake).

# Debian wraps nothing itself: the long description is written in lines of < 80 characters.
if(TARGET gantry-verify)
    list(JOIN GANTRY_KERNEL_ARCHS " " _archs)
    set(_verify_text "This package ships a prebuilt gantry-verify, the CUDA verification program\n"
                     "(SASS for sm ${_archs}, plus PTX), and its sources, which Verify\n"
                     "builds with the instance's nvcc when the prebuilt program cannot run there.")
else()
    set(_verify_text "This package has no prebuilt gantry-verify (it was built without nvcc): Verify\n"
                     "uploads the bundled kernels/ sources and builds them with the instance's nvcc,\n"
                     "or measures with PyTorch.")
endif()
string(CONCAT _verify_text ${_verify_text})

set(CPACK_PACKAGE_NAME "gantry")
set(CPACK_PACKAGE_VENDOR "Gantry")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "Gantry compares cloud GPU prices, launches and stops instances, verifies that\n"
    "a rented GPU is the advertised one and healthy, and connects over SSH for\n"
    "terminals, tunnels, file transfers, jobs and monitoring. It contains the\n"
    "desktop app (gantry) and the command-line client (gantry-cli).\n"
    "${_verify_text}")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "gantry")
set(CPACK_PACKAGE_FILE_NAME "gantry-${PROJECT_VERSION}-Linux-${CMAKE_SYSTEM_PROCESSOR}")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_SOURCE_GENERATOR "")

# No public contact address exists yet; set a real "Name <email>" when one does.
set(GANTRY_PACKAGE_MAINTAINER "Gantry maintainers" CACHE STRING "Debian Maintainer field (Name <email>)")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${GANTRY_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # gantry_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION "net")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")

# Linked libraries (bookworm names), as dpkg-shlibdeps (dpkg-dev) derived them on 2026-12-01; it is
# used instead when present, so the list follows what is really linked. What is loaded at run time rather than linked is
# listed by hand either way: the SQLite driver plugin (history, ledger, transfer journal) and the
# ssh client the Terminal action opens.
set(_gantry_runtime_loaded "libqt6sql6-sqlite (>= 6.4), openssh-client")
set(_gantry_linked
    "libqt6core6 (>= 6.4), libqt6network6 (>= 6.4), libqt6sql6 (>= 6.4), libqt6gui6 (>= 6.4)"
    "libqt6widgets6 (>= 6.4), libqt6charts6 (>= 6.4), libqt6keychain1 (>= 0.13.2)"
    "libssh-4 (>= 0.10.6), libcurl4 (>= 7.16.2), libarchive13 (>= 3.2.1), libssl3 (>= 3.0.0)"
    "libstdc++6 (>= 11), libc6 (>= 2.34), libgcc-s1 (>= 4.2)")
list(JOIN _gantry_linked ", " _gantry_linked)
find_program(GANTRY_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(GANTRY_DPKG_SHLIBDEPS)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
    # shlibdeps gives libssh-4 (>= 0.10.0); 0.10.6 is the release the SFTP code was measured on.
    set(CPACK_DEBIAN_PACKAGE_DEPENDS "libssh-4 (>= 0.10.6), ${_gantry_runtime_loaded}")
else()
    set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_gantry_linked}, ${_gantry_runtime_loaded}")
endif()
# qtkeychain stores secrets through the Secret Service via libsecret, which it loads at run time;
# libqt6keychain1 itself recommends the keyring (gnome-keyring | kwalletmanager).
# The zh_CN UI needs CJK glyphs, and Qt's own dialogs read qtbase_*.qm from the system.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libsecret-1-0, fonts-noto-cjk, qt6-translations-l10n")

include(CPack)
