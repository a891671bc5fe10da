# cmake -DBUILD_DIR=… -DSOURCE_DIR=… -DSTAGE=… -DAPP_ID=… -DEXPECT_GUI=ON|OFF -DEXPECT_VERIFY=ON|OFF
#       -DEXPECT_MAN=ON|OFF -P check_install.cmake
# Installs the build into STAGE (DESTDIR, prefix /usr) and checks the tree a package would ship.

set(_failures "")
macro(problem text)
    list(APPEND _failures "${text}")
endmacro()

file(REMOVE_RECURSE "${STAGE}")
execute_process(
    COMMAND ${CMAKE_COMMAND} -E env DESTDIR=${STAGE} ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix /usr
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "cmake --install failed (${_rc}): ${_err}\nBuild every target first "
                        "(cmake --build ${BUILD_DIR}), then rerun this test.")
endif()
set(_usr "${STAGE}/usr")

# What the app needs at run time; the paths match util/paths.h (bin/../share/gantry,
# bin/../libexec/gantry).
set(_expected
    bin/gantry-cli
    share/gantry/gpu-specs.json
    share/gantry/gpu-reference.json
    share/gantry/gpu-doctor.sh
    share/gantry/gpu-torch-check.py
    share/gantry/kernels/CMakeLists.txt
    share/gantry/kernels/cmake/ptx_fallback.cmake
    share/gantry/kernels/src/kernels.cu
    share/gantry/kernels/src/main.cpp
    share/gantry/translations
    share/doc/gantry/README.md)
if(EXPECT_GUI)
    list(APPEND _expected
        bin/gantry
        share/applications/${APP_ID}.desktop
        share/metainfo/${APP_ID}.metainfo.xml
        share/icons/hicolor/scalable/apps/${APP_ID}.svg)
    foreach(_size 16 22 24 32 48 64 128 256 512)
        list(APPEND _expected share/icons/hicolor/${_size}x${_size}/apps/${APP_ID}.png)
    endforeach()
endif()
if(EXPECT_VERIFY)
    list(APPEND _expected libexec/gantry/gantry-verify)
endif()
if(EXPECT_MAN)
    list(APPEND _expected share/man/man1/gantry-cli.1.gz)
endif()
if(EXPECT_CLI_DOCS)
    list(APPEND _expected share/bash-completion/completions/gantry-cli share/zsh/vendor-completions/_gantry-cli)
endif()
foreach(_path IN LISTS _expected)
    if(NOT EXISTS "${_usr}/${_path}")
        problem("missing /usr/${_path}: add an install() rule (cmake/GantryInstall.cmake)")
    endif()
endforeach()
# Every kernels/ source the app uploads to build on an instance must be installed.
file(GLOB_RECURSE _kernel_sources RELATIVE "${SOURCE_DIR}/kernels"
    "${SOURCE_DIR}/kernels/src/*" "${SOURCE_DIR}/kernels/cmake/*")
foreach(_source IN LISTS _kernel_sources)
    if(NOT EXISTS "${_usr}/share/gantry/kernels/${_source}")
        problem("kernels/${_source} is not installed under share/gantry/kernels: the install pattern "
                "in cmake/GantryInstall.cmake misses its extension")
    endif()
endforeach()

# Validators, when installed (packaging/install-deps.sh installs both).
find_program(_desktop_validate desktop-file-validate)
find_program(_appstream appstreamcli)
if(EXPECT_GUI AND _desktop_validate AND EXISTS "${_usr}/share/applications/${APP_ID}.desktop")
    execute_process(COMMAND ${_desktop_validate} "${_usr}/share/applications/${APP_ID}.desktop"
        RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0)
        problem("desktop-file-validate rejects ${APP_ID}.desktop: ${_out}${_err}")
    endif()
elseif(EXPECT_GUI)
    message(STATUS "desktop-file-validate not installed: .desktop not validated (apt install desktop-file-utils)")
endif()
if(EXPECT_GUI AND _appstream AND EXISTS "${_usr}/share/metainfo/${APP_ID}.metainfo.xml")
    execute_process(COMMAND ${_appstream} validate --no-net "${_usr}/share/metainfo/${APP_ID}.metainfo.xml"
        RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0)
        problem("appstreamcli validate --no-net rejects ${APP_ID}.metainfo.xml: ${_out}${_err}")
    endif()
elseif(EXPECT_GUI)
    message(STATUS "appstreamcli not installed: metainfo not validated (apt install appstream)")
endif()

# No installed file may name the source or build directory: a compiled-in path breaks a package
# on every other machine, and a build RPATH would load libraries from the builder's tree.
string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" _source_re "${SOURCE_DIR}")
string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" _build_re "${BUILD_DIR}")
file(GLOB_RECURSE _installed LIST_DIRECTORIES false "${_usr}/*")
if(SANITIZED)
    message(STATUS "sanitizer build: the build-path check is skipped (instrumentation names sources)")
    set(_installed "")
endif()
find_program(_objcopy objcopy)
foreach(_file IN LISTS _installed)
    # Debug information (-g builds: default preset, RelWithDebInfo) names the build directory by
    # design and is never read at run time: scan a copy without it.
    set(_scanned "${_file}")
    file(READ "${_file}" _magic LIMIT 4 HEX)
    if(_objcopy AND _magic STREQUAL "7f454c46")
        set(_scanned "${STAGE}/.scan-nodebug")
        execute_process(COMMAND "${_objcopy}" --strip-debug "${_file}" "${_scanned}" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
        if(NOT _rc EQUAL 0)
            set(_scanned "${_file}")
        endif()
    endif()
    # Twice: QStringLiteral stores UTF-16, which an 8-bit scan (like plain `strings`) does not see.
    file(STRINGS "${_scanned}" _hits REGEX "${_source_re}|${_build_re}")
    if(NOT _hits)
        file(STRINGS "${_scanned}" _hits ENCODING UTF-16LE REGEX "${_source_re}|${_build_re}")
    endif()
    if(_hits)
        list(GET _hits 0 _first)
        file(RELATIVE_PATH _shown "${STAGE}" "${_file}")
        problem("/${_shown} contains a build-machine path (\"${_first}\"): look it up at run time "
                "relative to the executable (core/util/paths.h) instead of compiling it in")
    endif()
endforeach()
find_program(_readelf readelf)
if(_readelf)
    file(GLOB _programs "${_usr}/bin/*" "${_usr}/libexec/gantry/*")
    foreach(_program IN LISTS _programs)
        execute_process(COMMAND ${_readelf} -d "${_program}" OUTPUT_VARIABLE _dynamic ERROR_QUIET)
        if(_dynamic MATCHES "\\((RPATH|RUNPATH)\\)[^\n]*")
            problem("${_program} carries ${CMAKE_MATCH_0}: installed binaries must not keep a build RPATH")
        endif()
    endforeach()
endif()

if(_failures)
    list(JOIN _failures "\n  " _text)
    message(FATAL_ERROR "install tree in ${STAGE} has problems:\n  ${_text}")
endif()
list(LENGTH _installed _count)
message(STATUS "install tree OK: ${_count} files under ${_usr}")
