# Install rules for everything the app needs at run time (layout: see GantryLayout.cmake).
# The executables themselves are installed where they are defined (app/, kernels/).

# Read by hand on an instance too (`bash gpu-doctor.sh`); the app uses the copies compiled into it.
install(FILES
    "${PROJECT_SOURCE_DIR}/resources/gpu-specs.json"
    "${PROJECT_SOURCE_DIR}/resources/gpu-reference.json"
    "${PROJECT_SOURCE_DIR}/resources/gpu-doctor.sh"
    "${PROJECT_SOURCE_DIR}/resources/gpu-torch-check.py"
    DESTINATION "${GANTRY_DATA_INSTALL_DIR}")

# The kernels/ sources, so Verify can build gantry-verify with the instance's nvcc when this
# package has no prebuilt one (or the instance's driver cannot load it). The patterns match what
# RemoteVerifier uploads (kernelSourceFiles) plus the README.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/kernels/"
    DESTINATION "${GANTRY_DATA_INSTALL_DIR}/kernels"
    FILES_MATCHING
        PATTERN "CMakeLists.txt" PATTERN "*.cmake" PATTERN "*.cu" PATTERN "*.cuh"
        PATTERN "*.h" PATTERN "*.hpp" PATTERN "*.cpp" PATTERN "README.md"
        PATTERN "build*" EXCLUDE)

# Reserved for .qm files shipped beside the binary (paths::translationsDir()); zh_CN is embedded
# in gantry (app/CMakeLists.txt), so this stays empty for now.
set(GANTRY_TRANSLATIONS_INSTALL_DIR "${GANTRY_DATA_INSTALL_DIR}/translations")
install(DIRECTORY DESTINATION "${GANTRY_TRANSLATIONS_INSTALL_DIR}")

if(GANTRY_GUI)
    install(FILES "${PROJECT_SOURCE_DIR}/resources/desktop/${GANTRY_APP_ID}.desktop"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
    install(FILES "${PROJECT_SOURCE_DIR}/resources/desktop/${GANTRY_APP_ID}.metainfo.xml"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
    install(DIRECTORY "${PROJECT_SOURCE_DIR}/resources/icons/hicolor"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/icons")
endif()

install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/gantry")
# The manual F1 opens (also compiled into the app), for reading in a browser.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/resources/manual/" DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/gantry/manual")

# The desktop app's man page generated from --help (help2man), gzipped as Debian ships them. Without
# help2man the package simply has none. gantry-cli writes its own page from its command tables
# (app/CMakeLists.txt, with the shell completions).
find_program(GANTRY_HELP2MAN help2man)
find_program(GANTRY_GZIP gzip)
if(GANTRY_HELP2MAN AND GANTRY_GZIP)
    set(_man_pages "")
    set(_man_gantry_name "desktop app for renting, verifying and watching cloud GPUs")
    set(_man_programs "")
    if(GANTRY_GUI)
        list(APPEND _man_programs gantry)
    endif()
    foreach(_program IN LISTS _man_programs)
        set(_page "${CMAKE_BINARY_DIR}/man/${_program}.1.gz")
        # C.UTF-8, LANGUAGE=C: the page is English whatever the builder's locale (gantry answers
        # --help without a display, so a headless builder needs no platform).
        add_custom_command(OUTPUT "${_page}"
            COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_BINARY_DIR}/man"
            COMMAND ${CMAKE_COMMAND} -E env LANG=C.UTF-8 LANGUAGE=C LC_ALL=C.UTF-8
                    "${GANTRY_HELP2MAN}" --no-info --locale=C.UTF-8 "--name=${_man_${_program}_name}"
                    "--version-string=${PROJECT_VERSION}" -o "${CMAKE_BINARY_DIR}/man/${_program}.1"
                    "$<TARGET_FILE:${_program}>"
            COMMAND "${GANTRY_GZIP}" -9nf "${CMAKE_BINARY_DIR}/man/${_program}.1"
            DEPENDS ${_program}
            COMMENT "help2man: ${_program}.1"
            VERBATIM)
        list(APPEND _man_pages "${_page}")
    endforeach()
    add_custom_target(gantry_man ALL DEPENDS ${_man_pages})
    install(FILES ${_man_pages} DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
else()
    message(STATUS "help2man not found: no man pages (apt install help2man)")
endif()
