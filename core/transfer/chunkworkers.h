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

// The SFTP clients one worker drives, all on one session: the session's own client, `started`
// ones already open (SessionPrefetch opened them with the session), and channels the worker opens
// on `session` (none where it is null) until it has `extra` besides the first.
struct Lanes
{
    SftpClient &first;
    std::vector<std::unique_ptr<SftpClient>> started;
    ssh::Session *session = nullptr;
    int extra = 0;
};

// How one file's chunks fan out: sessions, each with its own thread, and SFTP channels on each.
struct Fanout
{
    int sessions = 1;
    int lanes = 1;
};

// At most this many SFTP channels on one session: sshd's MaxSessions is 10 by default, and the
// first session also carries the host's hash check.
inline constexpr int kMaxLanes = 8;
// Sessions for one large upload when each carries several channels.
inline constexpr int kLaneSessions = 4;

// Runs worker(lanes) on the given session and on (sessions - 1) more, each on its own thread
// (libssh sessions are single-threaded); each worker may open lanes - 1 more channels on its
// session (none where primarySession is null). Once the first session's worker is done,
// `whileWaiting` (when set) is called on this thread every few milliseconds until the others are.
void runLaneWorkers(TransferContext &ctx, ssh::Session *primarySession, SftpClient &primary, Fanout fanout,
                    const std::function<void(Lanes &)> &worker, const std::function<void()> &whileWaiting = {});
// The same with one channel a session.
void runWorkers(TransferContext &ctx, SftpClient &primary, int count, const std::function<void(SftpClient &)> &worker);

// The round trip that sizes a file's fan-out (fileParallel): on a long link the first connect's
// estimate (no probe), else measured; -1 when the user fixed the sessions and `needed` is false.
qint64 linkRoundTrip(TransferContext &ctx, SftpClient &sftp, bool needed);
// Sessions for the chunks still missing in `journal`: the user's choice or fileParallel; extra
// sessions already being connected (SessionPrefetch) are topped up to that count. Channels on
// each: the user's choice or fileLanes, no more than the chunks each session has to send.
Fanout fileFanout(TransferContext &ctx, const FileJournal &journal, qint64 roundTripMs);
// fileFanout's choice for `missingChunks` chunks of a file of `size` bytes, without side effects.
Fanout fanoutFor(const TransferOptions &options, quint64 size, int missingChunks, qint64 roundTripMs);
// SFTP channels per session for one large file on a link of roundTripMs: one below 30 ms.
int fileLanes(quint64 size, qint64 roundTripMs);
// Sessions for a large download (one channel each): the user's choice or fileParallel, topped up
// in SessionPrefetch like fileFanout's.
int downloadWorkers(TransferContext &ctx, const FileJournal &journal, qint64 roundTripMs);

// A journal for a transfer that starts from zero, in kChunkSize chunks.
FileJournal freshJournal(Direction direction, const QString &host, const QString &source, const QString &destination,
                         quint64 size, qint64 mtime);

} // namespace gantry::transfer
