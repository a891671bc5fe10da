// glibc compatibility for the one-file binary.
//
// The static libstdc++ of GCC 12 (Debian 12) references arc4random (glibc 2.36) from
// std::random_device, which gantry-verify never uses. Defining it here satisfies the static link
// without a GLIBC_2.36 version requirement, so the binary also runs on glibc 2.34/2.35 (Ubuntu
// 22.04, RHEL 9). The remaining floor is GLIBC_2.34 (__libc_start_main, pthread_*, dl* in libc).
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

extern "C" uint32_t arc4random(void) noexcept
{
    uint32_t v = 0;
    if (getrandom(&v, sizeof v, 0) == static_cast<ssize_t>(sizeof v)) return v;
    struct timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint32_t>(ts.tv_nsec) ^ static_cast<uint32_t>(ts.tv_sec * 2654435761u);
}
