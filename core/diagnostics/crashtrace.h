// SPDX-License-Identifier: Apache-2.0
#pragma once

// A crash (SIGSEGV, SIGABRT — glibc's "double free or corruption" —, SIGBUS, SIGFPE, SIGILL)
// prints the program's name, the signal and the call stack on stderr, then ends the program as
// the signal would have: a report or a CI log then says where, not only that, it crashed.
namespace gantry::diagnostics {

// Installs the handlers; programName is printed first ("gantry-cli"). Call once, early in main.
void installCrashTrace(const char *programName);

} // namespace gantry::diagnostics
