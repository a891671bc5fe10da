#pragma once

#include "core/ssh/session.h"
#include "core/transfer/sftpclient.h"
#include "core/transfer/transfertypes.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace gantry::transfer {

class TransferContext;

// A connected session with its SFTP subsystem started, ready for a chunk worker. The client is
// declared last so that it goes before the session it runs on.
struct ReadySession
{
    std::unique_ptr<ssh::Session> session;
    std::unique_ptr<SftpClient> sftp;
};

// The extra sessions of one transfer attempt, connected (and their SFTP started) on their own
// threads while the first session still connects and probes the destination: on a 100 ms link a
// connect plus SFTP start is ~10 round trips, a second that no longer comes after the probes.
// For an upload of a large file the first session's connect tells the link: still connecting
// after 100 ms, the link is long enough for a second session, after 200 ms for the full count
// (fileParallel); connects are started as these marks pass. Sessions no worker took are closed
// with the prefetch, at the end of the attempt. While it lives, ctx.prefetch() is this.
class SessionPrefetch final
{
public:
    // uploadSize: the size of the one file an upload sends; 0 for anything else (a download, a
    // folder), which only gets the round-trip hint and what ensure() asks for.
    SessionPrefetch(TransferContext &ctx, quint64 uploadSize);
    ~SessionPrefetch();
    SessionPrefetch(const SessionPrefetch &) = delete;
    SessionPrefetch &operator=(const SessionPrefetch &) = delete;

    // The first session is connected (or failed to) after connectMs.
    void firstConnected(qint64 connectMs);
    // The link's round trip as the first connect suggested (a connect is ~6 round trips); -1 before.
    qint64 roundTripHintMs() const;
    // Starts connects until `total` sessions are on their way (never fewer than already are).
    void ensure(int total);
    // Claims one prefetched session and waits until it is ready. *claimed is false when every
    // session started was already claimed (the caller connects its own); then, and when the
    // claimed connect failed, the result is empty.
    std::optional<ReadySession> take(bool *claimed);

private:
    void watchFirstConnect();
    void connectOne();
    int wanted(qint64 roundTripMs) const;

    TransferContext &m_ctx;
    const quint64 m_uploadSize;
    std::atomic_bool m_stop{false}; // the attempt is over: connects still running give up
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    qint64 m_roundTripHintMs = -1;
    bool m_firstDone = false;
    std::deque<std::optional<ReadySession>> m_finished; // in the order the connects ended; empty = failed
    int m_started = 0;
    int m_claimed = 0;
    std::vector<std::thread> m_threads;
    std::thread m_watcher;
};

} // namespace gantry::transfer
