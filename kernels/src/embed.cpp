// Embeds the device code built by nvcc into the host binary with the assembler's .incbin.
// GV_FATBIN_PATH / GV_PTX75_PATH / GV_PTX80_PATH are absolute paths set by kernels/CMakeLists.txt;
// the PTX files may be empty (fallback not validated at build time). Each blob gets a trailing NUL
// so the PTX can be passed to the driver as a C string.
#include "device.hpp"

#include <cstdint>

#ifndef GV_FATBIN_PATH
#error "GV_FATBIN_PATH must be defined by the build"
#endif

#define GV_BLOB(sym, path)                                                                                             \
    __asm__(".section .rodata\n"                                                                                       \
            ".balign 64\n"                                                                                             \
            ".globl " #sym "\n" #sym ":\n"                                                                             \
            ".incbin \"" path "\"\n"                                                                                   \
            ".byte 0\n"                                                                                                \
            ".globl " #sym "_end\n" #sym "_end:\n"                                                                     \
            ".previous\n");

GV_BLOB(gv_blob_fatbin, GV_FATBIN_PATH)
GV_BLOB(gv_blob_ptx75, GV_PTX75_PATH)
GV_BLOB(gv_blob_ptx80, GV_PTX80_PATH)

extern "C" const unsigned char gv_blob_fatbin[], gv_blob_fatbin_end[];
extern "C" const char gv_blob_ptx75[], gv_blob_ptx80[];

namespace gv {

DeviceCode embedded_code()
{
    DeviceCode c;
    c.fatbin = gv_blob_fatbin;
    c.fatbin_size = reinterpret_cast<uintptr_t>(gv_blob_fatbin_end) - reinterpret_cast<uintptr_t>(gv_blob_fatbin) - 1;
    c.ptx75 = gv_blob_ptx75;
    c.ptx80 = gv_blob_ptx80;
    return c;
}

} // namespace gv
