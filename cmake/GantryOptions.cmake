# One interface target carries the language standard, warnings and Qt's strict defines.
add_library(gantry_options INTERFACE)
target_compile_features(gantry_options INTERFACE cxx_std_20)
target_compile_options(gantry_options INTERFACE
    -Wall -Wextra -Wpedantic -Wnon-virtual-dtor -Woverloaded-virtual
    $<$<BOOL:${GANTRY_WERROR}>:-Werror>)
target_compile_definitions(gantry_options INTERFACE
    QT_NO_CAST_FROM_ASCII
    QT_NO_CAST_TO_ASCII
    QT_NO_CAST_FROM_BYTEARRAY
    QT_NO_CONTEXTLESS_CONNECT
    QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
    QT_NO_URL_CAST_FROM_STRING
    QT_USE_QSTRINGBUILDER
    QT_STRICT_ITERATORS
    QT_NO_FOREACH
    QT_DISABLE_DEPRECATED_UP_TO=0x060400
    GANTRY_VERSION="${PROJECT_VERSION}")
set(CMAKE_CXX_EXTENSIONS OFF)
