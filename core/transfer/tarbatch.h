#pragma once

#include "core/ssh/session.h"
#include "core/transfer/localtree.h"
#include "core/transfer/transfercontext.h"

#include <QSet>

#include <functional>
#include <memory>
#include <optional>

// One batch of a folder upload: a tar stream into a remote `tar -x`, checked against a SHA-256
// manifest by the remote's `sha256sum -c`. Shared by the folder upload (treeupload.cpp), which
// decides which batches to send over which sessions.
namespace gantry::transfer {

class BatchRunner;

inline constexpr int kBatchFiles = 10000;
inline constexpr quint64 kBatchBytes = 256ull * 1024 * 1024;

// A batch's remote work in two steps: extract unpacks the tar stream on its stdin into a staging
// folder; finish, given extract's exit status in $r, verifies the batch, links it into place and
// removes the staging folder. Both are sh command lines, each run in a subshell.
struct BatchScript
{
    QString extract;
    QString finish;
};

// The two steps for the batch tree.entries[begin, end); nullopt when the batch has nothing left to
// send. manifestName and verify say what finish checks.
std::optional<BatchScript> batchScript(TransferContext &ctx, const QString &remoteParent, const LocalTree &tree, int begin,
                                       int end, const QSet<QString> &exclude, QString *manifestName, bool *verify);

// The remote command for the batch tree.entries[begin, end) (both steps, for a channel of its own);
// nullopt when the batch has nothing left to send.
std::optional<QString> batchCommand(TransferContext &ctx, const QString &remoteParent, const LocalTree &tree, int begin,
                                    int end, const QSet<QString> &exclude, QString *manifestName, bool *verify);

// A batch whose tar stream has been sent (and its EOF): the remote command may still be checking
// it. Collected with finishBatch(), so a session can stream its next batch meanwhile.
struct StreamedBatch
{
    std::unique_ptr<ssh::Channel> channel; // null: the batch had nothing to send, or went to runner
    BatchRunner *runner = nullptr;         // the runner that unpacks it (then id is its report's)
    int id = -1;
    std::optional<Error> failure;          // what stopped the sending, if anything
    quint64 wire = 0;
    quint64 payload = 0;
};

// Streams one batch (over preopened when that channel already runs its batchCommand).
StreamedBatch streamBatch(TransferContext &ctx, ssh::Session &session, const QString &remoteParent, const LocalTree &tree,
                          int begin, int end, const QSet<QString> &exclude, std::unique_ptr<ssh::Channel> preopened);

// Streams one batch to a runner as its batch id.
StreamedBatch streamBatch(TransferContext &ctx, BatchRunner &runner, int id, const QString &remoteParent, const LocalTree &tree,
                          int begin, int end, const QSet<QString> &exclude);

// Writes one batch's tar stream, as streamBatch sends it, to `out` instead (a batch staged on the
// host before its runner is up: tarstage.h); the error that stopped it, if any.
std::optional<Error> writeBatchTo(TransferContext &ctx, const std::function<Result<void>(const QByteArray &)> &out,
                                  const LocalTree &tree, int begin, int end, quint64 *wire, quint64 *payload);

// Has the runner unpack the batch from stagedPath on the host (an absolute path), where
// writeBatchTo staged its tar stream, as streamBatch's would be unpacked; the file is removed
// after. Collected with finishBatch().
StreamedBatch unpackStagedBatch(TransferContext &ctx, BatchRunner &runner, int id, const QString &remoteParent,
                                const LocalTree &tree, int begin, int end, const QString &stagedPath);

// The remote verdict on a streamed batch: tar's, sha256sum's and the linking into place.
Result<void> finishBatch(TransferContext &ctx, ssh::Session &session, const QString &remoteParent, const LocalTree &tree,
                         StreamedBatch &batch);

} // namespace gantry::transfer
