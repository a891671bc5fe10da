#pragma once

#include "core/ssh/session.h"
#include "core/transfer/localtree.h"
#include "core/transfer/transfercontext.h"

#include <QSet>

#include <memory>
#include <optional>

// One batch of a folder upload: a tar stream into a remote `tar -x`, checked against a SHA-256
// manifest by the remote's `sha256sum -c`. Shared by the folder upload (treeupload.cpp), which
// decides which batches to send over which sessions.
namespace gantry::transfer {

inline constexpr int kBatchFiles = 10000;
inline constexpr quint64 kBatchBytes = 256ull * 1024 * 1024;

// The remote command for the batch tree.entries[begin, end); nullopt when the batch has nothing
// left to send. manifestName and verify say what the command checks.
std::optional<QString> batchCommand(TransferContext &ctx, const QString &remoteParent, const LocalTree &tree, int begin,
                                    int end, const QSet<QString> &exclude, QString *manifestName, bool *verify);

// Sends one batch (over preopened when that channel already runs its batchCommand) and returns
// the remote verdict; wire and payload grow by what was sent.
Result<void> sendBatch(TransferContext &ctx, ssh::Session &session, const QString &remoteParent, const LocalTree &tree,
                       int begin, int end, const QSet<QString> &exclude, quint64 *wire, quint64 *payload,
                       std::unique_ptr<ssh::Channel> preopened);

} // namespace gantry::transfer
