// SPDX-License-Identifier: Apache-2.0
#include "core/diagnostics/crashtrace.h"

#include <csignal>
#include <cstring>
#include <execinfo.h>
#include <initializer_list>
#include <unistd.h>

namespace gantry::diagnostics {
namespace {

[[maybe_unused]] const char *g_program = "gantry";

void writeText(const char *text)
{
    // Only async-signal-safe calls from here on: write(), backtrace_symbols_fd(), signal(), raise().
    ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
    (void)ignored;
}

[[maybe_unused]] void onCrash(int signal)
{
    writeText("\n");
    writeText(g_program);
    writeText(": crashed (");
    writeText(sigabbrev_np(signal) ? sigabbrev_np(signal) : "signal");
    writeText("); please report it with these lines:\n");
    void *frames[64];
    const int count = backtrace(frames, 64);
    backtrace_symbols_fd(frames, count, STDERR_FILENO);
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

} // namespace

void installCrashTrace(const char *programName)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    (void)programName; // the sanitizers' own handlers say more
#else
    g_program = programName;
    // backtrace() loads libgcc on its first call, which allocates: done here, not in the handler.
    void *warm[1];
    (void)backtrace(warm, 1);
    for (const int signal : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL})
        std::signal(signal, onCrash);
#endif
}

} // namespace gantry::diagnostics
