// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/transfer/journal.h"
#include "core/transfer/transfertypes.h"

namespace gantry::transfer {

// What a file transfer cancelled for good leaves behind goes: Cancel means the user does not want
// the file, and a 2.4 GB staging file on the host bills as disk. Pause, quitting and the CLI's Ctrl+C
// keep both, so the same transfer resumes where it stopped. Blocking: on a worker thread.

// The upload's staging file (JournalStore::stagingPath) on the host (on a session of its own from `sessions`: the
// transfer's own may still hold replies to writes it abandoned) and its journal here. Only a
// regular file is removed.
void discardUploadPartial(const SessionFactory &sessions, const JournalStore &journals, const QString &host,
                          const QString &localPath, const QString &remoteFinal);
// The download's staging file here and its journal (remotePath: absolute, as the journal has it).
void discardDownloadPartial(const JournalStore &journals, const QString &host, const QString &remotePath,
                            const QString &localFinal);

} // namespace gantry::transfer
