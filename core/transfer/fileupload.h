#pragma once

#include "core/ssh/session.h"
#include "core/transfer/sftpclient.h"
#include "core/transfer/transfercontext.h"

namespace gantry::transfer {

// Uploads one local file to remoteFinal: pipelined SFTP writes (many requests in flight) into
// its staging file (JournalStore::stagingPath), over several sessions for large files (each writes
// its own chunks of it), with a resume journal; then the SHA-256 of every chunk (or of the whole
// file) is compared with the remote's and the staging file is renamed into place and checked. replaceExisting: posix-rename over an
// existing destination (the caller has decided to overwrite).
Result<TransferOutcome> uploadFile(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                   const QString &localPath, const QString &remoteFinal, bool replaceExisting);

// Downloads one remote file the same way, into its staging file, then renames it.
Result<TransferOutcome> downloadFile(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                     const QString &remotePath, const QString &localFinal, bool replaceExisting);

// Chunk size for the journal and for splitting a file over sessions.
constexpr quint64 kChunkSize = 4ull * 1024 * 1024;
// The most sessions a transfer starts on its own: two per core of this computer, 2 to 16.
int sessionCap();
// Sessions for one file (or one folder's tar batches) when the user did not choose: by size and
// by the link's round trip (SftpClient::roundTripMs), no more than sessionCap().
int autoParallel(quint64 size, qint64 roundTripMs);
// Sessions for one large file when the user did not choose: autoParallel, with more of them for
// the sizes where one file's chunks are what the sessions share.
int fileParallel(quint64 size, qint64 roundTripMs);

} // namespace gantry::transfer
