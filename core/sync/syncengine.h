#pragma once

#include "core/sync/localscan.h"
#include "core/util/canceltoken.h"
#include "core/sync/syncplan.h"
#include "core/transfer/transfertypes.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QString>

#include <atomic>
#include <functional>
#include <future>
#include <memory>

namespace gantry::transfer {
class BatchRunner;
class BatchWarmup;
class SessionPool;
class SftpClient;
class TarStage;
} // namespace gantry::transfer

// One-way sync of a local folder to a folder on a machine: scan, one remote listing, a plan, and
// the changed files sent through the transfer engine (small files in striped, verified tar
// batches, or over SFTP for a small edit past a slow login shell; large ones over several SFTP
// sessions), then deletions and the manifest. Used by
// `gantry-cli sync` and by SyncWatch; runs on one thread (its session lives there).
namespace gantry::sync {

struct SyncOptions
{
    ScanOptions scan;
    bool deleteGone = false;
    bool dryRun = false;
    bool checksum = false;
    int parallel = 0;         // sessions; 0: by size and round trip
    bool verify = true;
};

struct SyncEvent
{
    enum Kind
    {
        Scan,         // files, bytes, ignored
        Plan,         // newFiles, changedFiles, unchanged, toDelete, bytes, dryRun
        Sent,         // path, bytes, changed
        Deleted,      // path
        Done,         // files (sent), deleted, bytes, seconds, dryRun
        Note,         // message
        Reconnecting, // message (why), seconds (until the next try)
    };
    Kind kind = Note;
    QByteArray path{};
    quint64 bytes = 0;
    bool changed = false;
    bool dryRun = false;
    int files = 0;
    int newFiles = 0;
    int changedFiles = 0;
    int unchanged = 0;
    int toDelete = 0;
    int ignored = 0;
    int deleted = 0;
    double seconds = 0;
    QString message{};

    static SyncEvent note(const QString &text);
    // The link to host dropped; the next try comes in `seconds`.
    static SyncEvent reconnecting(const QString &host, int seconds);
    static SyncEvent file(Kind kind, const QByteArray &path, quint64 bytes = 0, bool changed = false, bool dryRun = false);
};
using SyncEventSink = std::function<void(const SyncEvent &)>;

// One line of `--json`: {"event": "scan"|"plan"|"file"|"done"|"note"|"reconnecting", …}.
QJsonObject eventToJson(const SyncEvent &event);
// Such a line back into the event (a held sync prints what its holder streams; paths for display).
SyncEvent eventFromJson(const QJsonObject &line);

struct SyncTarget
{
    QString host;             // for messages and the manifest key
    QString localDir;         // absolute
    QString remoteDir;
    QString configDir;        // manifests (sync/) and journals (transfers/)
};

class SyncEngine final
{
public:
    // cancel stops the run at the next file or chunk (the transfer engine polls its flag()).
    SyncEngine(transfer::SessionFactory factory, SyncTarget target, SyncOptions options, SyncEventSink sink,
               CancelToken cancel = {});
    ~SyncEngine();
    SyncEngine(const SyncEngine &) = delete;
    SyncEngine &operator=(const SyncEngine &) = delete;

    // One sync: a file that changed while it was sent is sent again (up to three rounds), so what
    // ends up on the host is a version the file really had. Keeps the connection for the next.
    Result<void> run();
    // Connects and starts the host's batch runner (a listing; nothing is sent), so the next run()
    // starts no login shell: what a held connection (`sync --hold`) does before its first client.
    Result<void> prepare();
    // Between rounds of a held connection: a packet that keeps NAT gateways and servers from
    // dropping a silent link; a link found dead is forgotten (the next run() connects again).
    void keepAlive();
    // Forgets the connection (a dropped link): the next run() connects again.
    void disconnect();
    bool connected() const;
    // The folders of the last scan (relative; "" is the top), for a watch.
    const QList<QByteArray> &lastDirs() const { return m_lastDirs; }

private:
    enum class Round
    {
        Done,
        Again, // a file changed while it was sent
    };
    // A connect and how long it took (a first guess at the round trip).
    struct Connected
    {
        Result<std::unique_ptr<ssh::Session>> session;
        qint64 ms = 0;
    };
    static constexpr int kReconnects = 2; // after 1 s, then 2 s
    Result<Round> runRound();
    // After a dropped link: says so, waits (1 s, 2 s, …) unless cancelled; false when cancelled.
    bool waitToReconnect(int drops);
    // Starts the connect on its own thread when there is no connection (the round scans the
    // folder meanwhile); an empty future when connected.
    std::future<Connected> startConnect();
    // Takes the connect started (connects now when none was), unless still connected.
    Result<void> finishConnect(std::future<Connected> connecting);
    // Waits on a connect started `elapsed` ago until it says whether the link is long (about
    // 15 ms round trips or more): no server banner after 25 ms, or no login after 100 ms. false:
    // it ended first (a short link), or there was none.
    bool longLinkWhileConnecting(const std::future<Connected> &connecting, const QElapsedTimer &elapsed) const;
    Result<LocalScan> scan();
    Result<SyncPlan> plan(const LocalScan &local, const RemoteListing &remote, const SyncManifest &manifest);
    // Helper sessions for the tar batches, connecting while the host lists the folder, each
    // starting its batch runner as soon as it is connected (its login shell starts beside the
    // listing's, not after it: one shell start-up on the critical path). The warm-up goes first.
    // Each helper stages the first batches on the host over SFTP while its runner's shell starts
    // (tarstage.h): the stage outlives the warm-up, whose threads write it.
    struct Helpers
    {
        std::unique_ptr<transfer::TarStage> stage;
        std::unique_ptr<transfer::SessionPool> pool;
        std::unique_ptr<transfer::BatchWarmup> warm;
    };
    // Removes on the host what the plan deletes (--delete), and from the manifest; how many files.
    Result<int> deleteGone(const SyncPlan &plan, SyncManifest *manifest);
    // Ends the helpers (joined) and removes on the host what they staged and no runner took.
    void discardStaged(Helpers &helpers);
    // Lists the remote folder: through the runner kept from an earlier round when there is one
    // (one round trip, no login shell), else with a listing command that starts the runner
    // beside it (kept for the rounds after this one when the host can run it).
    // With the manifest, a host whose login shell took long to start at the last listing is
    // listed over SFTP instead (no shell on the critical path of a re-sync), and a listing
    // through the shell records how long it took to start there.
    Result<RemoteListing> listFolder(SyncManifest *manifest = nullptr);
    // Measures SFTP's start-up into the manifest.
    Result<RemoteListing> listFolderOverSftp(SyncManifest *manifest);
    // SFTP's start-up beyond its round trips, from how long its start took.
    qint64 sftpStartUp(qint64 elapsedMs) const;
    // What the helpers' SFTP starts said about SFTP's start-up, into the manifest.
    void recordSftpStart(const Helpers &helpers, SyncManifest *manifest) const;
    // Sends over the kept runner when there is one (useRunner: the host can run one); a small
    // edit after a listing over SFTP goes over SFTP first (sftpsend.h).
    Result<void> send(const SyncPlan &plan, QList<SyncEntry> *sent, Helpers *helpers, bool useRunner);
    // When the round will likely send a lot; empty otherwise.
    // Helper sessions for what the round will likely send (connecting, their runners started as
    // they do).
    Helpers prestartHelpers(const LocalScan &local, const SyncManifest &manifest) const;
    // The session's SFTP client, started on first use (pastCancel: even after a cancel).
    Result<transfer::SftpClient *> sftp(bool pastCancel = false);
    void emitPlan(const SyncPlan &plan);
    bool changedSince(const SyncEntry &e) const;

    transfer::SessionFactory m_factory;
    SyncTarget m_target;
    SyncOptions m_options;
    SyncEventSink m_sink;
    CancelToken m_token;
    const std::atomic_bool *m_cancel; // m_token's flag, for the transfer engine's polling APIs
    QByteArray m_root;
    std::unique_ptr<ssh::Session> m_session;
    std::unique_ptr<transfer::SftpClient> m_sftp;
    // The session's batch runner, kept between rounds while connected: a later round (--watch,
    // the window's folder pairs) lists and sends through it without a login shell's start-up,
    // a second or more on GPU images that init conda or pyenv. Dropped after any failure.
    std::unique_ptr<transfer::BatchRunner> m_runner;
    QList<QByteArray> m_lastDirs;
    bool m_roundConnected = false; // the round got a connection (a later failure is a drop)
    qint64 m_roundTripMs = -1; // measured by the last listing; sessions for the batches depend on it
    qint64 m_connectRoundTripMs = -1; // a fifth of the last connect: no login shell in it
    std::atomic<qint64> m_bannerMs{-1}; // when the running connect's server banner came
    QStringList m_strayStaged; // staged or SFTP-edit files a round (dropped or cancelled) could not remove
    bool m_listedOverSftp = false; // the round's listing came over SFTP
    qint64 m_listedShellStartMs = -1; // then: how long the host's login shell took to start (its manifest)
};

} // namespace gantry::sync
