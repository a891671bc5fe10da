#pragma once

#include "core/ssh/session.h"
#include "core/transfer/sftpclient.h"
#include "core/transfer/transfertypes.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

namespace gantry::transfer {

class TransferContext;

// A connected session, with its SFTP subsystem started unless the attempt said it needs none
// (tar batches do not), ready for a worker. The client is declared last so that it goes before
// the session it runs on.
struct ReadySession
{
    std::unique_ptr<ssh::Session> session;
    std::unique_ptr<SftpClient> sftp;
    std::vector<std::unique_ptr<SftpClient>> lanes; // more SFTP channels, where the transfer wants them
    std::vector<std::unique_ptr<ssh::Channel>> running; // the command started as it connected, if any
};

// The extra sessions of one transfer attempt, connected (and their SFTP started) on their own
// threads while the first session still connects and probes the destination: on a 100 ms link a
// connect plus SFTP start is ~10 round trips, a second that no longer comes after the probes.
// The first session's connect tells the link: still connecting after 100 ms, the round trip is
// at least ~15 ms, after 200 ms ~30 ms; `helpers` says how many extra sessions such a link is
// worth for what the attempt is known to move (one large upload: fileParallel; a download or a
// folder: its fan-out), and connects are started as these marks pass. Sessions no worker took
// are closed with the prefetch, at the end of the attempt. While it lives, ctx.prefetch() is this.
class SessionPrefetch final
{
public:
    using Helpers = std::function<int(qint64 roundTripMs)>;
    // SFTP channels besides the first that each session wants, by the round trip (one large
    // upload: fanoutFor's lanes); opened with the first, in the same round trips. None until the
    // first connect told a round trip of kTrustedHintMs or more.
    using Lanes = std::function<int(qint64 roundTripMs)>;
    // Empty helpers: only the round-trip hint and what ensure() asks for.
    SessionPrefetch(TransferContext &ctx, Helpers helpers, Lanes lanes = {});
    ~SessionPrefetch();
    SessionPrefetch(const SessionPrefetch &) = delete;
    SessionPrefetch &operator=(const SessionPrefetch &) = delete;

    // Extra sessions worth connecting before the first one is ready: for a download (a folder
    // or a large file, which the first stat will tell) and for a folder upload.
    static Helpers forDownload();
    // One file of `size` bytes: fileParallel's sessions (none for 0).
    static Helpers forOneUpload(const TransferContext &ctx, quint64 size);
    static Helpers forFolderUpload();

    static Lanes lanesForOneUpload(const TransferContext &ctx, quint64 size);
    int extraLanes() const;
    // The first session's extra channels, opened by the caller with its first one and kept here
    // until its worker takes them; the caller takes back any left before its session closes.
    void setPrimaryLanes(std::vector<std::unique_ptr<SftpClient>> lanes);
    std::vector<std::unique_ptr<SftpClient>> takePrimaryLanes();
    // The first session's extra channels still held here, for requests sent on them before a
    // worker takes them (a fresh upload opens its staging file on all of them at once).
    std::vector<SftpClient *> primaryLanes() const;
    // A connect's round trip below this may be a loaded CPU, not the link (linkRoundTrip measures it).
    static constexpr qint64 kTrustedHintMs = 40;

    // Connects that end from now on skip the SFTP start (the caller sends tar batches).
    void setSftpWanted(bool wanted) { m_sftpWanted = wanted; }
    // Connects that end from now on start this command at once (a folder upload's batch runner:
    // its login shell starts while the first session still probes, not once the batches are
    // planned), for the session's taker. Empty: none.
    void setRunOnConnect(const QString &command);
    // At most `count` sessions keep that command: connects beyond it start none, and those that
    // already did and are not yet taken close it (a small folder uses fewer helpers than a long
    // link's prefetch connects: their login shells would start for nothing).
    void limitRunOnConnect(int count);
    // The first session's key exchange took keyExchangeMs (its login is still to come): from
    // kTrustedHintMs, the helpers such a link wants start connecting now, not at the next mark.
    void firstKeyExchange(qint64 keyExchangeMs);
    // The first session's server banner came after ms (see ssh::KeyExchangeObserver).
    void firstBanner(qint64 ms);
    // The first session is connected after connectMs (-1: it failed to; nothing more starts).
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
    const Helpers m_helpers;
    const Lanes m_lanes;
    std::vector<std::unique_ptr<SftpClient>> m_primaryLanes;
    std::atomic_bool m_sftpWanted{true};
    QString m_runOnConnect; // under m_mutex
    int m_runLimit = std::numeric_limits<int>::max(); // under m_mutex
    int m_runsStarted = 0;                             // under m_mutex
    std::atomic_bool m_stop{false}; // the attempt is over: connects still running give up
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    qint64 m_roundTripHintMs = -1;
    bool m_firstDone = false;
    bool m_bannerCame = false;
    std::deque<std::optional<ReadySession>> m_finished; // in the order the connects ended; empty = failed
    int m_started = 0;
    int m_claimed = 0;
    std::vector<std::thread> m_threads;
    std::thread m_watcher;
};

} // namespace gantry::transfer
