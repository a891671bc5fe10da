// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "sshdfixture.h"

namespace gantry::test {

// An `rm` for the test sshd's PATH (SshdFixture::Options::binDir) that holds the delete of a path
// with "gated" in it on the host until the file PATH.gate exists (at most 60 s, so a broken test
// cannot hang): first it creates PATH.started, and PATH.interrupted when a cancel interrupts it.
// Every other rm runs at once. A delete that provably runs for as long as the test wants.
inline bool writeGatedRm(const QString &binDir)
{
    return writeScript(binDir + QStringLiteral("/rm"),
                       QStringLiteral("#!/bin/sh\n"
                                      "for last; do :; done\n"
                                      "case \"$last\" in *gated*)\n"
                                      "  : > \"$last.started\"\n"
                                      "  trap ': > \"$last.interrupted\"; exit 130' INT TERM\n"
                                      "  i=0; while [ ! -e \"$last.gate\" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done;;\n"
                                      "esac\n"
                                      "for real in /usr/bin/rm /bin/rm; do [ -x \"$real\" ] && exec \"$real\" \"$@\"; done\n"
                                      "exit 127\n"));
}

} // namespace gantry::test
