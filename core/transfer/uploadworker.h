// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/transfer/chunkplan.h"
#include "core/transfer/chunkworkers.h"
#include "core/transfer/sha256.h"
#include "core/transfer/sftpclient.h"
#include "core/transfer/transfercontext.h"

#include <QHash>

#include <functional>
#include <optional>

namespace gantry::transfer {

// The whole file's SHA-256 taken from the buffers one worker sends, as long as they come in file
// order from the start (one session, nothing resumed): the file is then read once, not twice.
struct InlineHash
{
    Sha256 hash;
    quint64 at = 0;
    bool inOrder = true;
    void add(quint64 offset, const char *data, quint32 length)
    {
        inOrder = inOrder && offset == at;
        if (!inOrder) return;
        hash.add(data, length);
        at += length;
    }
};

// What a worker gets besides its chunks: whether it hashes each chunk (only for the chunk check:
// not when the host checks the whole file, nor without verification), and for the first
// session's worker the handle the .partial was created with (one open and one close fewer before
// data flows) and those its extra channels opened in the same round trip, the inline whole-file
// hash, and the follow-along check, called as chunks complete.
struct WorkerExtras
{
    bool chunkHashes = true;
    std::optional<QByteArray> opened;
    QHash<const SftpClient *, QByteArray> lanesOpened;
    InlineHash *whole = nullptr;
    std::function<void()> chunkDone;
};

// Sends chunks of localPath from `plan` into `partial` on the lanes' session until none is left:
// pipelined writes on the first client and on the lanes' other SFTP channels (those opened ahead,
// then the rest once the first writes are out), all driven from this thread; the whole file's
// inline hash is taken on the first. Failures go to the plan. The value: the channels it sent on.
int uploadWorker(TransferContext &ctx, Lanes &lanes, const QString &localPath, const QString &partial,
                  quint64 fileSize, ChunkPlan &plan, const WorkerExtras &extras);

} // namespace gantry::transfer
