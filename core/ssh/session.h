#pragma once

#include "core/ssh/target.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

struct ssh_session_struct;
struct ssh_channel_struct;

namespace gantry::ssh {

struct HostKeyInfo
{
    QString host;
    int port = 22;
    QString keyType;            // e.g. "ssh-ed25519"
    QString fingerprint;        // "SHA256:…"
    QString knownHostsFile;
    // Set when the key changed: the fingerprint on record and where it is recorded.
    QString oldFingerprint;
    int knownHostsLine = 0;
};

// How much a host may send into memory: a hostile or broken host can send output, or list a
// directory, without end. Raise-able (CLI: --max-output-mib, --max-entries) for hosts that
// legitimately send more.
struct OutputLimits
{
    static constexpr qint64 kDefaultMaxOutputBytes = qint64(64) << 20;
    static constexpr qint64 kDefaultMaxListEntries = 2000000;
    qint64 maxOutputBytes = kDefaultMaxOutputBytes; // stdout + stderr a collected command may send
    qint64 maxListEntries = kDefaultMaxListEntries; // names in one directory listing (SFTP, find)
};

struct ConnectOptions
{
    QString knownHostsFile;                 // empty: ~/.ssh/known_hosts
    bool acceptNewHostKey = false;          // CLI --accept-new-host-key
    // Asked on the session's own thread when the host is unknown and acceptNewHostKey is false.
    // Return true to trust the key (it is then appended to knownHostsFile).
    std::function<bool(const HostKeyInfo &)> confirmNewHostKey;
    // Password for Password auth and keyboard-interactive prompts; nullopt = the user declined.
    std::function<std::optional<QString>(const QString &prompt)> password;
    // Passphrase for an encrypted key file; nullopt = skip that key.
    std::function<std::optional<QString>(const QString &keyFile)> passphrase;
    int connectTimeoutMs = 10000;
    int keepaliveIntervalS = 15;
    const std::atomic_bool *cancel = nullptr;
    OutputLimits limits;
};

struct ExecOutput
{
    QByteArray out;
    QByteArray err;
    int exitStatus = -1;
};

class Channel;

// While one lives on a thread, each connect made on that thread tells it how long its key
// exchange took, from the server's banner to the exchange's end (about a round trip), as soon
// as it has: before the login, half the connect earlier than its end says it. A transfer starts
// its helper sessions' connects on it. `banner`, when given, hears when the server's banner came
// (ms into the connect): on a real link at least a round trip and a half (TCP's handshake, then
// the banner), on loopback the few ms sshd takes to start, so a banner still missing after
// 25 ms already says a link worth helper sessions.
class KeyExchangeObserver
{
public:
    explicit KeyExchangeObserver(std::function<void(qint64 ms)> measured, std::function<void(qint64 ms)> banner = {});
    ~KeyExchangeObserver();
    KeyExchangeObserver(const KeyExchangeObserver &) = delete;
    KeyExchangeObserver &operator=(const KeyExchangeObserver &) = delete;
    // The thread's observer, told of one key exchange (none: nothing happens).
    static void tell(qint64 ms);
    // The thread's observer, told that a connect's server banner came after ms.
    static void tellBanner(qint64 ms);
    // A banner still missing this long into a connect says a link worth helper sessions (sshd on
    // loopback sends it in 5-17 ms on this 2-core test machine, busy).
    static constexpr qint64 kLateBannerMs = 25;

private:
    std::function<void(qint64)> m_measured;
    std::function<void(qint64)> m_banner;
    KeyExchangeObserver *m_outer;
};

// While one lives on a thread, the connects made there are helpers that their transfer can do
// without: where sshd turns one away before its banner (past MaxStartups) it fails at once
// instead of being tried again, so that helpers neither pile onto a busy server nor hold up the
// end of the transfer that joins them.
class OptionalConnects
{
public:
    OptionalConnects();
    ~OptionalConnects();
    OptionalConnects(const OptionalConnects &) = delete;
    OptionalConnects &operator=(const OptionalConnects &) = delete;
    static bool active();

private:
    bool m_outer;
};

// One libssh session. Not thread-safe (libssh sessions are not): one thread uses it at a time,
// with its channels. It may be handed to another thread only whole and idle, through something
// that orders the two (a mutex, a join) — as SessionPrefetch and the tar batch SessionPool hand a
// session they connected to the worker that sends on it; libssh allows that, never two threads
// at once. GUI code drives sessions through ssh::Connection (a worker thread) instead.
class Session
{
public:
    Session();
    ~Session();
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    // Connects, verifies the host key and logs in. A server that closes the connection before
    // its banner (sshd past MaxStartups: more logins in progress than it takes, as several
    // syncs at once with their helper sessions can make) is tried again, up to three times
    // within options.connectTimeoutMs (not under OptionalConnects); the thread's
    // KeyExchangeObserver hears each such answer as a banner (it came as soon as one would).
    Result<void> connect(const Target &target, const ConnectOptions &options);
    void disconnect();
    bool isConnected() const;
    // An SSH ignore packet, so NAT gateways and servers keep an idle link; false when the link is
    // gone (the caller disconnects).
    bool sendKeepalive();
    const Target &target() const { return m_target; }
    const OutputLimits &limits() const { return m_limits; }
    // The owner's closing flag (SessionThread::closing()): once it is set, a connect or a command
    // in progress on this session ends at its next poll (about 100 ms), cancel flag or not, so an
    // owner going away never waits for a command that was started without one.
    void setClosing(const std::atomic_bool *closing) { m_closing = closing; }

    struct ExecOptions
    {
        std::function<void(const QByteArray &)> onStdout;
        std::function<void(const QByteArray &)> onStderr;
        QByteArray stdinData;                // written, then EOF
        const std::atomic_bool *cancel = nullptr; // sends SIGINT, then closes
        // Once set, the channel closes at the next poll with no grace for the command (a read-only
        // command such as a listing, whose user cancelled the operation it serves).
        const std::atomic_bool *abandon = nullptr;
        int timeoutMs = 0;                   // 0: no limit
        // stdout + stderr bytes before the command is stopped with an error; -1: the session's
        // OutputLimits::maxOutputBytes; 0: no limit (callers that stream rather than collect).
        qint64 maxOutputBytes = -1;
    };
    // Runs a command and streams its output; the value is the remote exit status.
    Result<int> exec(const QString &command, const ExecOptions &options);
    // What exec() does once its command started, for a channel from openExec(s): stdin, EOF, then
    // the output to its end. A cancel flag stops the channel; only exec() also signals the remote
    // process group (its wrapper reports the group's pid).
    Result<int> execOn(Channel &channel, const ExecOptions &options);
    // Runs a command and collects its output (for short commands); more than maxOutputBytes
    // (-1: the session's limit) stops it with an error.
    Result<ExecOutput> run(const QString &command, int timeoutMs = 30000, qint64 maxOutputBytes = -1);

    // A long-lived remote process on its own channel (monitor streams, tar pipes).
    Result<std::unique_ptr<Channel>> openExec(const QString &command);
    // Several at once: every channel is opened, then every command started, together — two round
    // trips in all rather than two per command. One result per command, in order. openExec is
    // the one-command case.
    std::vector<Result<std::unique_ptr<Channel>>> openExecs(const QStringList &commands);
    // `count` channels running one subsystem ("sftp"), opened and started together the same way.
    std::vector<Result<std::unique_ptr<Channel>>> openSubsystems(const QByteArray &subsystem, int count);
    // The same, and one more channel running `command` (the last result), all in the same round trips.
    std::vector<Result<std::unique_ptr<Channel>>> openSubsystemsAndExec(const QByteArray &subsystem, int count, const QString &command);
    // A direct-tcpip channel to host:port as seen from the remote machine (tunnels).
    Result<std::unique_ptr<Channel>> openForward(const QString &remoteHost, int remotePort,
                                                 const QString &originHost = QStringLiteral("127.0.0.1"),
                                                 int originPort = 0);

    // For code on this session's thread that speaks SFTP or drives channels itself.
    ssh_session_struct *handle() const { return m_session; }

    // The libssh error text of the last failure, for building messages.
    QString lastLibsshError() const;

private:
    // One try; *turnedAway: the server closed the connection before its banner (see connect).
    Result<void> connectOnce(const Target &target, const ConnectOptions &options, bool *turnedAway);
    Result<void> connectWithRetries(const Target &target, const ConnectOptions &options);
    Result<void> verifyHostKey(const ConnectOptions &options);
    Result<void> authenticate(const ConnectOptions &options);
    void signalRemoteGroup(qint64 pid, const char *signalName);
    Error outputLimitError(qint64 maxOutputBytes) const;
    Error channelRefused(const QString &message) const;
    // Each request with whether it names a subsystem (else a command).
    std::vector<Result<std::unique_ptr<Channel>>> openChannels(const QList<std::pair<QByteArray, bool>> &requests);
    Result<int> drain(Channel &channel, const ExecOptions &options, bool pidMarker);
    void waitForSocket(int timeoutMs) const;

    ssh_session_struct *m_session = nullptr;
    Target m_target;
    OutputLimits m_limits;
    int m_replyTimeoutMs = 10000; // how long a reply may take (ConnectOptions::connectTimeoutMs)
    const std::atomic_bool *m_closing = nullptr;
};

// A channel owned by a Session; must be used on the session's thread and destroyed before it.
class Channel
{
public:
    explicit Channel(ssh_channel_struct *channel);
    ~Channel();
    Channel(const Channel &) = delete;
    Channel &operator=(const Channel &) = delete;

    // Waits up to timeoutMs for data; empty with no error on timeout. stderrData receives the
    // stderr stream when non-null (else it is discarded).
    Result<QByteArray> read(int timeoutMs, QByteArray *stderrData = nullptr);
    Result<void> write(const QByteArray &data);
    Result<void> sendEof();
    void sendSignal(const char *signalName); // "INT", "TERM", "KILL"
    bool isEof() const;
    bool isOpen() const;
    std::optional<int> exitStatus() const; // once the remote process has ended
    void close();
    ssh_channel_struct *handle() const { return m_channel; }
    // Hands the libssh channel to a new owner (one that speaks a protocol on it, as SftpClient
    // does); this object then holds none.
    ssh_channel_struct *release();

private:
    ssh_channel_struct *m_channel = nullptr;
};

// Shell-quotes one argument for a POSIX remote shell.
QString shellQuote(const QString &argument);

} // namespace gantry::ssh
