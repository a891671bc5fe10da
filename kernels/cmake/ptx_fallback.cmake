# cmake -DNVCC=... -DPTXAS=... -DSRC=kernels.cu -DCC=80 -DISA=7.0 -DOUT=file.ptx -P ptx_fallback.cmake
#
# Builds PTX for compute_${CC}, rewrites its ".version" to ${ISA} so that older drivers (whose JIT
# only knows older PTX ISAs) can load it, and validates the result with ptxas. On any failure the
# output is an empty file: the build still succeeds and the program simply has no fallback.

function(_gv_give_up why)
    message(STATUS "gantry-verify: no compute_${CC} fallback PTX (${why})")
    file(WRITE "${OUT}" "")
    return()
endfunction()

if(ISA STREQUAL "")
    _gv_give_up("GANTRY_KERNEL_PTX_ISA is empty")
    return()
endif()

set(_raw "${OUT}.raw")
execute_process(
    COMMAND "${NVCC}" -ptx -O3 -std=c++17 -arch=compute_${CC} -o "${_raw}" "${SRC}"
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _o ERROR_VARIABLE _e)
if(NOT _rc EQUAL 0)
    _gv_give_up("nvcc -ptx failed: ${_e}")
    return()
endif()
file(READ "${_raw}" _ptx)
string(REGEX REPLACE "\n\\.version [0-9]+\\.[0-9]+" "\n.version ${ISA}" _ptx "${_ptx}")
if(NOT _ptx MATCHES "\n\\.version ${ISA}")
    _gv_give_up("no .version line found")
    return()
endif()
set(_tmp "${OUT}.tmp")
file(WRITE "${_tmp}" "${_ptx}")
if(NOT PTXAS)
    _gv_give_up("ptxas not found, cannot validate")
    return()
endif()
execute_process(
    COMMAND "${PTXAS}" -arch=sm_${CC} -o "${OUT}.cubin" "${_tmp}"
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _o ERROR_VARIABLE _e)
file(REMOVE "${OUT}.cubin")
if(NOT _rc EQUAL 0)
    string(SUBSTRING "${_e}" 0 300 _e)
    _gv_give_up("ptxas rejected ISA ${ISA}: ${_e}")
    return()
endif()
file(RENAME "${_tmp}" "${OUT}")
file(REMOVE "${_raw}")
message(STATUS "gantry-verify: compute_${CC} fallback PTX at ISA ${ISA} validated by ptxas")
