// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/sync/syncengine.h"
#include "core/util/canceltoken.h"
#include "core/util/result.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <chrono>
#include <functional>
#include <mutex>

// A sync pair's connection kept between runs of `gantry-cli sync --hold`, as ssh's ControlPersist
// keeps a master connection: the first sync starts a holder process that connects, starts the
// host's batch runner and listens on a socket of the user's own; a later sync of the same pair with
// the same options asks it for one round and prints what it reports. A re-sync then costs one
// round trip (the listing through the runner), not a log-in and a login shell's start-up (a second
// or more on GPU images that init conda or pyenv). The holder ends after its idle time, on
// `--release`, or when a client leaves mid-round.
namespace gantry::sync {

// The socket of the holder for `key` (what makes two syncs the same: the pair, the options, the
// program): $XDG_RUNTIME_DIR/gantry-sync/<digest>.sock, or /tmp/gantry-sync-<uid>/… without a
// runtime dir; the folder is made the user's alone (0700) and checked to be so.
Result<QString> holdSocketPath(const QByteArray &key);

class SyncHolder final
{
public:
    SyncHolder(QString socketPath, std::chrono::milliseconds idle);
    ~SyncHolder(); // closes and removes the socket
    SyncHolder(const SyncHolder &) = delete;
    SyncHolder &operator=(const SyncHolder &) = delete;

    // Binds the socket (a stale one left by a holder that died is replaced); an error when another
    // holder already answers there.
    Result<void> listen();
    // For the engine: events go to the client whose round runs; the token is cancelled when that
    // client goes away (Ctrl+C) mid-round.
    SyncEventSink sink();
    CancelToken token() const { return m_token; }
    // Answers clients one at a time, each round on the calling thread, until `idle` passes with
    // none, a client asks it to end, a round failed or was cancelled, or the socket is no longer
    // this holder's (removed: no client could reach it). Between clients, idleTick runs every
    // 15 s (a keepalive: NAT gateways and servers drop links that stay silent).
    void serve(const std::function<Result<void>()> &round, const std::function<void()> &idleTick);

private:
    enum class Next
    {
        Served,
        Ignored, // not a request: the idle time goes on
        End,
    };
    Next answer(int client, const std::function<Result<void>()> &round);
    Next runRound(int client, const std::function<Result<void>()> &round);
    void send(const QJsonObject &line);
    bool stillOurs() const;
    // Removes the socket (if still this holder's) so that no client finds it while the holder
    // logs out: a released holder is gone from the folder by the time its client hears so.
    void stopListening();

    QString m_path;
    std::chrono::milliseconds m_idle;
    int m_lock = -1;   // flock()ed while this holder lives
    int m_listen = -1;
    quint64 m_inode = 0; // the bound socket's, to notice it was removed or replaced
    std::mutex m_clientMutex; // the sink may be called from the engine's worker threads
    int m_client = -1;
    CancelToken m_token;
};

// Asks the holder at socketPath for one round, to be held at least holdSeconds after it; each event
// line reaches onEvent as it arrives, and onSlow once when nothing came for a second (the holder
// is still logging in, or serves another sync). false when no holder answers (the caller syncs
// itself); the round's error otherwise. cancel: the client leaves, the holder stops and ends.
Result<bool> runHeldRound(const QString &socketPath, int holdSeconds, const std::function<void(const QJsonObject &)> &onEvent,
                          const std::function<void()> &onSlow, const CancelToken &cancel);
// Ends the holder at socketPath once its round in progress, if any, is over; false when none answered.
bool releaseHolder(const QString &socketPath);
// Ends every holder in the folder of socketPath (and removes what dead ones left); how many ended.
int releaseAllHolders(const QString &anySocketPath);
// Starts `program arguments` in a session of its own, with GANTRY_SYNC_HOLDER=socketPath, its
// standard streams on /dev/null and none of this process's other files open.
Result<void> startHolder(const QString &program, const QStringList &arguments, const QString &socketPath);
// The environment variable that makes a `sync --hold` run the holder at that socket.
inline constexpr const char *kHolderVariable = "GANTRY_SYNC_HOLDER";

// The holder process's whole life: listens at socketPath, connects and starts the runner, serves
// rounds of one SyncEngine (keeping its link alive between them) until idle. Returns quietly when
// another holder has the socket or the connect fails: a sync that asked meanwhile syncs itself.
void holdSync(transfer::SessionFactory factory, SyncTarget target, SyncOptions options, const QString &socketPath,
              std::chrono::seconds idle);

} // namespace gantry::sync
