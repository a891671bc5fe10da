#include "core/ssh/session.h"

#include "core/ssh/knownhosts.h"
#include "core/ssh/sessionoptions.h"
#include "core/ssh/sshtext.h"
#include "core/util/paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QThread>

#include <libssh/libssh.h>
#include <poll.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>

namespace gantry::ssh {

namespace {

bool cancelled(const std::atomic_bool *flag)
{
    return flag && flag->load();
}

// Looks for the pid line that a cancellable exec() prints first on stderr. `err` (the bytes just
// read) joins `pending`; once the marker is complete (or clearly absent) `err` is what remains
// to deliver and the result is true.
bool takePidMarker(QByteArray &pending, QByteArray &err, qint64 &pid)
{
    static const QByteArray pidMarker("\036gantry-pid ");
    pending += err;
    err.clear();
    const qsizetype at = pending.indexOf(pidMarker);
    const qsizetype end = at >= 0 ? pending.indexOf("\036\n", at + pidMarker.size()) : -1;
    if (end >= 0) {
        pid = pending.mid(at + pidMarker.size(), end - at - pidMarker.size()).toLongLong();
        err = pending.left(at) + pending.mid(end + 2);
        pending.clear();
        return true;
    }
    if (pending.size() > 256) {
        err = pending; // the login shell printed something else first; give up on the pid
        pending.clear();
        return true;
    }
    return false;
}

} // namespace

QString shellQuote(const QString &argument)
{
    if (!argument.isEmpty()) {
        bool safe = true;
        for (const QChar c : argument) {
            if (!(c.isLetterOrNumber() || QStringLiteral("@%_-+=:,./").contains(c)) || c.unicode() > 127) {
                safe = false;
                break;
            }
        }
        if (safe)
            return argument;
    }
    QString quoted = argument;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

namespace {
thread_local KeyExchangeObserver *t_keyExchangeObserver = nullptr;
thread_local bool t_optionalConnects = false;
}

OptionalConnects::OptionalConnects() : m_outer(std::exchange(t_optionalConnects, true)) {}

OptionalConnects::~OptionalConnects()
{
    t_optionalConnects = m_outer;
}

bool OptionalConnects::active()
{
    return t_optionalConnects;
}

KeyExchangeObserver::KeyExchangeObserver(std::function<void(qint64 ms)> measured, std::function<void(qint64 ms)> banner)
    : m_measured(std::move(measured)), m_banner(std::move(banner)), m_outer(std::exchange(t_keyExchangeObserver, this))
{
}

KeyExchangeObserver::~KeyExchangeObserver()
{
    t_keyExchangeObserver = m_outer;
}

void KeyExchangeObserver::tell(qint64 ms)
{
    if (t_keyExchangeObserver && t_keyExchangeObserver->m_measured) t_keyExchangeObserver->m_measured(ms);
}

void KeyExchangeObserver::tellBanner(qint64 ms)
{
    if (t_keyExchangeObserver && t_keyExchangeObserver->m_banner) t_keyExchangeObserver->m_banner(ms);
}

Session::Session() = default;

Session::~Session()
{
    disconnect();
}

void Session::disconnect()
{
    if (!m_session)
        return;
    if (ssh_is_connected(m_session))
        ssh_disconnect(m_session);
    ssh_free(m_session);
    m_session = nullptr;
}

bool Session::isConnected() const
{
    return m_session && ssh_is_connected(m_session);
}

bool Session::sendKeepalive()
{
    return isConnected() && ssh_send_ignore(m_session, "") == SSH_OK && isConnected();
}

QString Session::lastLibsshError() const
{
    return m_session ? QString::fromUtf8(ssh_get_error(m_session)) : QString();
}

Result<void> Session::connect(const Target &target, const ConnectOptions &options)
{
    auto connected = connectWithRetries(target, options);
    m_replyTimeoutMs = options.connectTimeoutMs; // not what a last try had left
    return connected;
}

Result<void> Session::connectWithRetries(const Target &target, const ConnectOptions &options)
{
    // sshd drops a connection past MaxStartups (10:30:100 by default: from 10 logins in progress,
    // 30 % of new ones, more as they grow) before its banner; a moment later it takes it.
    constexpr int kRetryAfterMs[] = {250, 500, 1000};
    const int retries = OptionalConnects::active() ? 0 : int(std::size(kRetryAfterMs));
    QElapsedTimer since;
    since.start();
    const auto givenUp = [&target](int tries) {
        return makeError(ErrorCode::ConnectFailed,
                         SshText::tr("%1 closed the connection before greeting (%2 tries): sshd turns logins away while too "
                                     "many are in progress (its MaxStartups) or after failed ones (PerSourcePenalties), a "
                                     "firewall rule (fail2ban, hosts.deny) refuses this address, or a port forward has no "
                                     "sshd behind it yet (an instance still booting); wait a moment and try again, with "
                                     "fewer transfers to it at once")
                             .arg(target.display()).arg(tries));
    };
    ConnectOptions attempt = options;
    for (int tries = 1;; ++tries) {
        bool turnedAway = false;
        attempt.connectTimeoutMs = int(std::max<qint64>(1000, options.connectTimeoutMs - since.elapsed()));
        auto connected = connectOnce(target, attempt, &turnedAway);
        if (connected || !turnedAway) return connected;
        if (tries > retries) return retries > 0 ? givenUp(tries) : connected;
        // Jitter: syncs turned away together should not all come back together.
        const int base = kRetryAfterMs[tries - 1];
        const qint64 waitMs = base + QRandomGenerator::global()->bounded(base / 2);
        if (since.elapsed() + waitMs > options.connectTimeoutMs) return givenUp(tries);
        QElapsedTimer waited;
        waited.start();
        while (waited.elapsed() < waitMs) {
            if (cancelled(options.cancel) || cancelled(m_closing))
                return makeError(ErrorCode::Cancelled, SshText::tr("connection to %1 cancelled").arg(target.display()));
            QThread::msleep(20);
        }
    }
}

Result<void> Session::connectOnce(const Target &target, const ConnectOptions &options, bool *turnedAway)
{
    disconnect();
    m_target = target;
    m_limits = options.limits;
    m_replyTimeoutMs = options.connectTimeoutMs;
    m_session = ssh_new();
    if (!m_session)
        return makeError(ErrorCode::Generic, SshText::tr("could not create an SSH session (out of memory?)"));

    if (auto applied = applyOptions(m_session, target, options); !applied) {
        disconnect();
        return applied.error();
    }

    // Non-blocking connect so a dead host can be cancelled and times out on our own deadline.
    ssh_set_blocking(m_session, 0);
    QElapsedTimer timer;
    timer.start();
    int rc = SSH_AGAIN;
    qint64 bannerMs = -1; // when the server's banner came: the key exchange starts then
    while ((rc = ssh_connect(m_session)) == SSH_AGAIN) {
        if (bannerMs < 0 && ssh_get_serverbanner(m_session)) {
            bannerMs = timer.elapsed();
            KeyExchangeObserver::tellBanner(bannerMs);
        }
        if (cancelled(options.cancel) || cancelled(m_closing)) {
            disconnect();
            return makeError(ErrorCode::Cancelled, SshText::tr("connection to %1 cancelled").arg(target.display()));
        }
        if (timer.elapsed() > options.connectTimeoutMs) {
            disconnect();
            return makeError(ErrorCode::Timeout,
                             SshText::tr("no answer from %1 within %2 s: the machine is down, the port is wrong, or a firewall "
                                         "drops the connection; check the address and that the instance is running")
                                 .arg(target.display()).arg(options.connectTimeoutMs / 1000));
        }
        waitForSocket(5);
    }
    ssh_set_blocking(m_session, 1);
    if (rc == SSH_OK && bannerMs >= 0) KeyExchangeObserver::tell(timer.elapsed() - bannerMs);
    if (rc != SSH_OK) {
        const QString why = lastLibsshError();
        // libssh says "Socket error: disconnected" for an end of stream, and strerror(ECONNRESET)
        // (in the user's language) where the server closed with our banner unread: the TCP
        // connection was made and the server closed it without a banner (a refused port is
        // another error). Its answer came when a banner would have.
        *turnedAway = bannerMs < 0
                      && (why.endsWith(QLatin1String("disconnected")) || why.endsWith(QString::fromLocal8Bit(std::strerror(ECONNRESET))));
        if (*turnedAway) KeyExchangeObserver::tellBanner(timer.elapsed());
        disconnect();
        return makeError(ErrorCode::ConnectFailed,
                         SshText::tr("cannot connect to %1: %2; check the host name and port, and that sshd runs there")
                             .arg(target.display(), why));
    }

    if (auto verified = verifyHostKey(options); !verified) {
        disconnect();
        return verified.error();
    }
    if (auto authed = authenticate(options); !authed) {
        disconnect();
        return authed.error();
    }
    return {};
}

Result<void> Session::verifyHostKey(const ConnectOptions &options)
{
    KeyGuard serverKey;
    if (ssh_get_server_publickey(m_session, &serverKey.key) != SSH_OK)
        return makeError(ErrorCode::ConnectFailed, SshText::tr("%1 sent no host key: %2").arg(m_target.display(), lastLibsshError()));
    unsigned char *hash = nullptr;
    size_t hashLen = 0;
    if (ssh_get_publickey_hash(serverKey.key, SSH_PUBLICKEY_HASH_SHA256, &hash, &hashLen) != SSH_OK)
        return makeError(ErrorCode::ConnectFailed, SshText::tr("cannot hash the host key of %1").arg(m_target.display()));
    char *fp = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, hashLen);
    ssh_clean_pubkey_hash(&hash);

    HostKeyInfo info;
    info.host = m_target.host;
    info.port = m_target.port;
    info.keyType = QString::fromLatin1(ssh_key_type_to_char(ssh_key_type(serverKey.key)));
    info.fingerprint = QString::fromLatin1(fp);
    ssh_string_free_char(fp);
    info.knownHostsFile = options.knownHostsFile.isEmpty() ? defaultKnownHostsFile() : options.knownHostsFile;

    switch (ssh_session_is_known_server(m_session)) {
    case SSH_KNOWN_HOSTS_OK:
        return {};
    case SSH_KNOWN_HOSTS_CHANGED:
    case SSH_KNOWN_HOSTS_OTHER: {
        const KnownHostEntry old = findKnownHost(info.knownHostsFile, info.host, info.port);
        const QString portArg = info.port == 22 ? QString() : QStringLiteral(" -p %1").arg(info.port);
        return makeError(ErrorCode::HostKeyChanged,
                         SshText::tr("host key for %1 changed — possible attack (or the instance was re-created); "
                                     "recorded %2 %3, now %4 %5; if you trust the new key, remove line %6 of %7 "
                                     "(ssh-keygen -R %8%9 -f %7) and connect again")
                             .arg(m_target.display(), old.keyType, old.fingerprint, info.keyType, info.fingerprint)
                             .arg(old.line)
                             .arg(info.knownHostsFile, m_target.host, portArg));
    }
    case SSH_KNOWN_HOSTS_UNKNOWN:
    case SSH_KNOWN_HOSTS_NOT_FOUND: {
        bool trust = options.acceptNewHostKey;
        if (!trust && options.confirmNewHostKey)
            trust = options.confirmNewHostKey(info);
        if (!trust)
            return makeError(ErrorCode::HostKeyUnknown,
                             SshText::tr("host %1 is not known yet; its %2 key fingerprint is %3; compare it with the one "
                                         "your provider shows, then accept it (CLI: --accept-new-host-key)")
                                 .arg(m_target.display(), info.keyType, info.fingerprint));
        paths::makePrivateDir(QFileInfo(info.knownHostsFile).absolutePath()); // ~/.ssh is 0700, as OpenSSH makes it
        if (ssh_session_update_known_hosts(m_session) != SSH_OK)
            return makeError(ErrorCode::Io, SshText::tr("cannot record the host key in %1: %2")
                                                 .arg(info.knownHostsFile, lastLibsshError()));
        return {};
    }
    case SSH_KNOWN_HOSTS_ERROR:
        break;
    }
    return makeError(ErrorCode::Io, SshText::tr("cannot read the known hosts file %1: %2; check its permissions")
                                        .arg(info.knownHostsFile, lastLibsshError()));
}

// A refusal on a connection that just dropped is a lost link (worth a retry), not the server's no.
Error Session::channelRefused(const QString &message) const
{
    return makeError(isConnected() ? ErrorCode::RemoteFailed : ErrorCode::ConnectFailed, message);
}

// Until the server sends something (or, with output queued, the socket can take it): a
// non-blocking wait answers at once rather than at the next fixed tick.
void Session::waitForSocket(int timeoutMs) const
{
    const int fd = m_session ? int(ssh_get_fd(m_session)) : -1;
    if (fd < 0) {
        QThread::msleep(1);
        return;
    }
    pollfd p{fd, short(POLLIN | ((ssh_get_poll_flags(m_session) & SSH_WRITE_PENDING) ? POLLOUT : 0)), 0};
    (void)::poll(&p, 1, timeoutMs);
}


Result<std::unique_ptr<Channel>> Session::openForward(const QString &remoteHost, int remotePort,
                                                      const QString &originHost, int originPort)
{
    if (!isConnected())
        return makeError(ErrorCode::ConnectFailed, SshText::tr("not connected to %1; reconnect first").arg(m_target.display()));
    ssh_channel channel = ssh_channel_new(m_session);
    if (!channel)
        return makeError(ErrorCode::RemoteFailed, SshText::tr("cannot open a channel to %1: %2").arg(m_target.display(), lastLibsshError()));
    auto wrapped = std::make_unique<Channel>(channel);
    if (ssh_channel_open_forward(channel, remoteHost.toUtf8().constData(), remotePort,
                                 originHost.toUtf8().constData(), originPort) != SSH_OK) {
        return makeError(ErrorCode::RemoteFailed,
                         SshText::tr("cannot reach %1:%2 from %3 (%4): nothing listens on that port on the instance, or the "
                                     "server forbids forwarding (AllowTcpForwarding)")
                             .arg(remoteHost).arg(remotePort).arg(m_target.display(), lastLibsshError()));
    }
    return wrapped;
}

void Session::signalRemoteGroup(qint64 pid, const char *signalName)
{
    // OpenSSH refuses "signal" channel requests for root logins (no privilege separation there), and
    // root is the usual login on rented GPUs; so signal the command's process group from a second channel.
    if (pid <= 0)
        return;
    const QString kill = QStringLiteral("kill -%1 -- -%2 2>/dev/null || kill -%1 %2 2>/dev/null; true")
                             .arg(QString::fromLatin1(signalName)).arg(pid);
    auto channel = openExec(kill);
    if (!channel)
        return;
    for (int i = 0; i < 20 && !(*channel)->isEof(); ++i)
        (void)(*channel)->read(50);
}

Result<int> Session::exec(const QString &command, const ExecOptions &options)
{
    // With a cancel flag the shell first reports its pid (= the command's process group) on stderr.
    const bool cancellable = options.cancel != nullptr;
    const QString wrapped = cancellable ? QStringLiteral("printf '\\036gantry-pid %s\\036\\n' $$ >&2; ") + command : command;
    auto opened = openExec(wrapped);
    if (!opened)
        return opened.error();
    return drain(**opened, options, cancellable);
}

Result<int> Session::execOn(Channel &channel, const ExecOptions &options)
{
    return drain(channel, options, false);
}

// stdin, EOF, then the output to its end; with pidMarker the command's stderr starts with the
// pid line of exec()'s wrapper.
Result<int> Session::drain(Channel &channel, const ExecOptions &options, bool pidMarker)
{
    if (!options.stdinData.isEmpty()) {
        if (auto written = channel.write(options.stdinData); !written)
            return written.error();
    }
    if (auto eof = channel.sendEof(); !eof)
        return eof.error();

    QElapsedTimer timer;
    timer.start();
    bool interrupted = false;
    qint64 interruptedAt = 0;
    qint64 remotePid = 0;
    bool pidKnown = !pidMarker;
    QByteArray pendingErr;
    const qint64 maxOutput = options.maxOutputBytes < 0 ? m_limits.maxOutputBytes : options.maxOutputBytes;
    qint64 received = 0;
    while (true) {
        if (cancelled(m_closing) || cancelled(options.abandon)) {
            // The owner is going away (or the command serves nothing now): no grace period for
            // the command, it is told and left.
            channel.sendSignal("INT");
            signalRemoteGroup(remotePid, "INT");
            channel.close();
            return makeError(ErrorCode::Cancelled, SshText::tr("command cancelled on %1").arg(m_target.display()));
        }
        if (cancelled(options.cancel) && !interrupted) {
            channel.sendSignal("INT");
            signalRemoteGroup(remotePid, "INT");
            interrupted = true;
            interruptedAt = timer.elapsed();
        }
        if (interrupted && timer.elapsed() - interruptedAt > 3000) {
            channel.sendSignal("KILL");
            signalRemoteGroup(remotePid, "KILL");
            channel.close();
            return makeError(ErrorCode::Cancelled, SshText::tr("command cancelled on %1").arg(m_target.display()));
        }
        if (options.timeoutMs > 0 && timer.elapsed() > options.timeoutMs) {
            channel.sendSignal("TERM");
            signalRemoteGroup(remotePid, "TERM");
            channel.close();
            return makeError(ErrorCode::Timeout, SshText::tr("command on %1 did not finish within %2 s")
                                                     .arg(m_target.display()).arg(options.timeoutMs / 1000));
        }
        QByteArray err;
        auto data = channel.read(100, &err);
        if (!data)
            return data.error();
        received += data->size() + err.size();
        if (maxOutput > 0 && received > maxOutput) {
            channel.sendSignal("KILL");
            signalRemoteGroup(remotePid, "KILL");
            channel.close();
            return outputLimitError(maxOutput);
        }
        if (!pidKnown && !err.isEmpty())
            pidKnown = takePidMarker(pendingErr, err, remotePid);
        if (!data->isEmpty() && options.onStdout)
            options.onStdout(*data);
        if (!err.isEmpty() && options.onStderr)
            options.onStderr(err);
        if (channel.isEof() && data->isEmpty() && err.isEmpty())
            break;
        if (!isConnected())
            return makeError(ErrorCode::ConnectFailed, SshText::tr("connection to %1 lost while a command ran").arg(m_target.display()));
    }
    if (!pendingErr.isEmpty() && options.onStderr)
        options.onStderr(pendingErr);
    const std::optional<int> status = channel.exitStatus();
    if (interrupted)
        return makeError(ErrorCode::Cancelled, SshText::tr("command cancelled on %1").arg(m_target.display()));
    return status.value_or(-1);
}

Error Session::outputLimitError(qint64 maxOutputBytes) const
{
    // The command itself is not quoted: it can carry a job's --env values.
    return makeError(ErrorCode::RemoteFailed,
                     SshText::tr("%1 sent more than %2 MiB of output; the command was stopped. If that much output is "
                                 "expected, raise the limit (gantry-cli: --max-output-mib)")
                         .arg(m_target.display())
                         .arg(double(maxOutputBytes) / (1 << 20), 0, 'g', 4));
}

Result<ExecOutput> Session::run(const QString &command, int timeoutMs, qint64 maxOutputBytes)
{
    ExecOutput output;
    ExecOptions options;
    options.maxOutputBytes = maxOutputBytes;
    options.onStdout = [&output](const QByteArray &data) { output.out += data; };
    options.onStderr = [&output](const QByteArray &data) { output.err += data; };
    options.timeoutMs = timeoutMs;
    auto status = exec(command, options);
    if (!status)
        return status.error();
    output.exitStatus = *status;
    return output;
}

Channel::Channel(ssh_channel_struct *channel) : m_channel(channel) {}

Channel::~Channel()
{
    close();
}

ssh_channel_struct *Channel::release()
{
    return std::exchange(m_channel, nullptr);
}

void Channel::close()
{
    if (!m_channel)
        return;
    if (ssh_channel_is_open(m_channel)) {
        ssh_channel_send_eof(m_channel);
        ssh_channel_close(m_channel);
    }
    ssh_channel_free(m_channel);
    m_channel = nullptr;
}

Result<QByteArray> Channel::read(int timeoutMs, QByteArray *stderrData)
{
    if (!m_channel)
        return QByteArray();
    // libssh grows a channel's receive window to the size a read asks for, and otherwise keeps it
    // near 1.2 MB: one round trip's worth, 25 MB/s on a 50 ms link. Asking for kReceiveWindow
    // lets a bulk stream (a tar batch, a long log) run at 80 MB/s per channel there; libssh
    // buffers at most that much while this thread is busy. The buffer is the thread's own: only
    // the pages a read fills are ever touched.
    constexpr int kReceiveWindow = 4 << 20;
    thread_local const std::unique_ptr<char[]> big(new char[kReceiveWindow]); // not value-initialised: untouched
    char buffer[65536];
    QByteArray out;
    int n = ssh_channel_read_timeout(m_channel, big.get(), kReceiveWindow, 0, timeoutMs);
    if (n == SSH_ERROR)
        return makeError(ErrorCode::ConnectFailed, QCoreApplication::translate("ssh", "the SSH connection broke while reading"));
    if (n > 0) {
        out.append(big.get(), n);
        // Drain what is already buffered without waiting again.
        while ((n = ssh_channel_read_nonblocking(m_channel, buffer, sizeof buffer, 0)) > 0)
            out.append(buffer, n);
    }
    while ((n = ssh_channel_read_nonblocking(m_channel, buffer, sizeof buffer, 1)) > 0) {
        if (stderrData)
            stderrData->append(buffer, n);
    }
    return out;
}

Result<void> Channel::write(const QByteArray &data)
{
    qsizetype offset = 0;
    while (offset < data.size()) {
        const int n = ssh_channel_write(m_channel, data.constData() + offset,
                                        static_cast<uint32_t>(qMin<qsizetype>(data.size() - offset, 1 << 20)));
        if (n == SSH_ERROR)
            return makeError(ErrorCode::ConnectFailed, QCoreApplication::translate("ssh", "the SSH connection broke while writing"));
        offset += n;
    }
    return {};
}

Result<void> Channel::sendEof()
{
    if (m_channel && ssh_channel_send_eof(m_channel) != SSH_OK)
        return makeError(ErrorCode::ConnectFailed, QCoreApplication::translate("ssh", "the SSH connection broke"));
    return {};
}

void Channel::sendSignal(const char *signalName)
{
    if (m_channel && ssh_channel_is_open(m_channel))
        ssh_channel_request_send_signal(m_channel, signalName);
}

bool Channel::isEof() const
{
    return !m_channel || ssh_channel_is_eof(m_channel) || ssh_channel_is_closed(m_channel);
}

bool Channel::isOpen() const
{
    return m_channel && ssh_channel_is_open(m_channel);
}

std::optional<int> Channel::exitStatus() const
{
    if (!m_channel)
        return std::nullopt;
    const int status = ssh_channel_get_exit_status(m_channel);
    if (status < 0)
        return std::nullopt;
    return status;
}

} // namespace gantry::ssh
