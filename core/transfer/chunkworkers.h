#pragma once

#include "core/transfer/chunkplan.h"
#include "core/transfer/journal.h"
#include "core/transfer/sftpclient.h"
#include "core/transfer/transfercontext.h"

#include <functional>

// What the single-file upload (fileupload.cpp) and download (filedownload.cpp) share: the
// pipeline depth, the wire meter, the fan-out over sessions and a fresh journal.
namespace gantry::transfer {

// 16 × 255 KiB = 4 MiB in flight per session: twice sshd's 2 MiB channel window, so the window,
// not our pipeline, is what limits one session.
inline constexpr int kMaxInflight = 16;

Error cancelledError();

// Reports wire bytes of one SftpClient to the context and the journal as they grow.
class WireMeter
{
public:
    WireMeter(SftpClient &sftp, TransferContext &ctx, ChunkPlan &plan)
        : m_sftp(sftp), m_ctx(ctx), m_plan(plan), m_last(sftp.bytesIn() + sftp.bytesOut()) {}
    void payload(quint64 bytes)
    {
        const quint64 now = m_sftp.bytesIn() + m_sftp.bytesOut();
        m_ctx.addDone(bytes, now - m_last);
        m_plan.addWire(now - m_last);
        m_last = now;
    }

private:
    SftpClient &m_sftp;
    TransferContext &m_ctx;
    ChunkPlan &m_plan;
    quint64 m_last;
};

// Runs worker(sftp) on the given session's client and on (count - 1) more sessions, each on its
// own thread (libssh sessions are single-threaded).
void runWorkers(TransferContext &ctx, SftpClient &primary, int count, const std::function<void(SftpClient &)> &worker);

// The round trip that sizes a file's fan-out (fileParallel): on a long link the first connect's
// estimate (no probe), else measured; -1 when the user fixed the sessions and `needed` is false.
qint64 linkRoundTrip(TransferContext &ctx, SftpClient &sftp, bool needed);
// Sessions for the chunks still missing in `journal`: the user's choice or fileParallel; extra
// sessions already being connected (SessionPrefetch) are topped up to that count.
int workerCount(TransferContext &ctx, const FileJournal &journal, qint64 roundTripMs);

// A journal for a transfer that starts from zero, in kChunkSize chunks.
FileJournal freshJournal(Direction direction, const QString &host, const QString &source, const QString &destination,
                         quint64 size, qint64 mtime);

} // namespace gantry::transfer
