#pragma once

#include "core/ssh/session.h"
#include "core/transfer/localtree.h"
#include "core/transfer/sftpclient.h"
#include "core/transfer/transfercontext.h"

namespace gantry::transfer {

class BatchRunner;
class BatchWarmup;

class SessionPool;
class TarStage;

// Uploads a local folder into remoteParent (the folder itself becomes remoteParent/NAME, or
// remoteTop when given): files go as a tar stream into a remote `tar -x`, in batches of at most
// 10 000 files / 256 MiB, and each batch is checked against a SHA-256 manifest with the remote's
// `sha256sum -c` before the journal marks it done. Without a remote shell (sftp-only accounts)
// the files go one by one over SFTP. policy decides about files that already exist.
Result<TransferOutcome> uploadTree(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                   const QString &localFolder, const QString &remoteTop, ConflictPolicy policy);

// Sends entries a caller chose (a sync: what changed) as the folder upload sends its files: tar
// batches into remoteDir (entries are relative to it, folders before their content), striped
// over up to `sessions` sessions, each batch staged and checked by the remote sha256sum before
// it is linked into place. Helper sessions come from pool when given (connected while the caller
// listed and planned). useRunner: the host runs a BatchRunner (one remote shell per session for
// all its batches); `warm`, when given, holds the pool's helpers with their runners started as
// they connected (then every helper it has sends); `lentRunner`, when given, is the session's
// runner, kept by the caller for later uploads (a sync that holds its connection); without it the
// session starts one of its own. `stage`, when given, holds batches staged on the host while the
// runners started: used where the host runs runners and tree is the tree it staged (tarstage.h).
// Returns the payload bytes sent.
Result<quint64> uploadEntries(TransferContext &ctx, ssh::Session &session, const QString &remoteDir, const LocalTree &tree,
                              int sessions, SessionPool *pool = nullptr, bool useRunner = false, BatchWarmup *warm = nullptr,
                              BatchRunner *lentRunner = nullptr, TarStage *stage = nullptr);

// A fault point for tests, never set by Gantry itself (as setChunkJournaledHook): called right
// after a folder upload's batch was verified and journaled, while the upload's other sessions
// wait to record theirs, so a test can stop the server between two batches.
using BatchJournaledHook = void (*)();
void setBatchJournaledHook(BatchJournaledHook hook);

// The batch limits of a fresh upload of `tree` over `sessions` sessions: two batches a session.
std::pair<int, quint64> freshBatchLimits(const LocalTree &tree, int sessions);

// Sessions for a folder's tar batches when the user did not choose. From 30 ms RTT one per
// 8 MiB to send, up to kLongLinkTreeSessions (each is held to sshd's window per round trip).
// On a short link as for one file of the folder's size, and at least 4 for a thousand files or
// more, where a batch's remote work (tar, sha256sum, linking into place) runs serially and
// leaves cores idle; never more than sessionCap(), nor more than one per 32 MiB to send.
constexpr int kLongLinkTreeSessions = 8;
int treeParallel(quint64 bytes, int files, qint64 roundTripMs);

// Downloads a remote folder as a tar stream from a remote `tar -c` and unpacks it into
// localTop (created), checking each file against the remote's sha256sum.
Result<TransferOutcome> downloadTree(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                     const QString &remoteFolder, const QString &localTop, ConflictPolicy policy);

} // namespace gantry::transfer
