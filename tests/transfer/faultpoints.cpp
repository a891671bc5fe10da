// SPDX-License-Identifier: Apache-2.0
// gantry-cli-faults: gantry-cli with the crash tests' fault point set. GANTRY_TEST_EXIT_AFTER_CHUNKS=N
// ends the process right after the N-th chunk was journaled, without flushing anything (as SIGKILL
// would), so test_transfer_hostile can check that every byte a journal counts is in the file. The
// gantry-cli that ships links none of this.
#include "core/transfer/chunkplan.h"

#include <QtGlobal>

#include <atomic>
#include <cstdlib>

namespace {

void exitAfterEnoughChunks()
{
    static const int exitAfter = qEnvironmentVariableIntValue("GANTRY_TEST_EXIT_AFTER_CHUNKS");
    static std::atomic_int completed{0};
    if (++completed >= exitAfter)
        std::_Exit(137);
}

const bool installed = [] {
    if (qEnvironmentVariableIntValue("GANTRY_TEST_EXIT_AFTER_CHUNKS") > 0)
        gantry::transfer::setChunkJournaledHook(&exitAfterEnoughChunks);
    return true;
}();

} // namespace
