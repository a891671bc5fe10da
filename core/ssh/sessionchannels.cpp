// SPDX-License-Identifier: Apache-2.0
// Opening several channels of one session at once: every open, then every request (a command or
// a subsystem), two round trips for all of them instead of two per channel.

#include "core/ssh/session.h"

#include "core/ssh/sshtext.h"

#include <QElapsedTimer>

#include <libssh/libssh.h>

namespace gantry::ssh {

namespace {

// One channel of Session::openChannels on its way: opened, then its command or subsystem started.
struct Opening
{
    std::unique_ptr<Channel> channel;
    QByteArray request;
    bool subsystem = false;
    bool open = false;
    bool done = false;
    enum class Failed { No, Opening, Starting } failed = Failed::No;
    std::optional<Error> error;
};

int sendRequest(Opening &o)
{
    return o.subsystem ? ssh_channel_request_subsystem(o.channel->handle(), o.request.constData())
                       : ssh_channel_request_exec(o.channel->handle(), o.request.constData());
}

// One non-blocking step; true when it got further (opened, started, or failed), false while it
// still waits for the same reply.
bool advance(Opening &o)
{
    const bool wasOpen = o.open;
    if (!o.open) {
        const int rc = ssh_channel_open_session(o.channel->handle());
        if (rc == SSH_AGAIN) return false;
        if (rc != SSH_OK) {
            o.failed = Opening::Failed::Opening;
            o.done = true;
            return true;
        }
        o.open = true;
    }
    const int rc = sendRequest(o);
    if (rc == SSH_AGAIN) return !wasOpen; // opened by this call: its request goes out now
    o.done = true;
    if (rc != SSH_OK) o.failed = Opening::Failed::Starting;
    return true;
}

} // namespace

Result<std::unique_ptr<Channel>> Session::openExec(const QString &command)
{
    return std::move(openExecs({command}).front());
}

std::vector<Result<std::unique_ptr<Channel>>> Session::openExecs(const QStringList &commands)
{
    QList<std::pair<QByteArray, bool>> requests;
    for (const QString &command : commands) requests.append({command.toUtf8(), false});
    return openChannels(requests);
}

std::vector<Result<std::unique_ptr<Channel>>> Session::openSubsystems(const QByteArray &subsystem, int count)
{
    return openChannels(QList<std::pair<QByteArray, bool>>(std::max(0, count), {subsystem, true}));
}

std::vector<Result<std::unique_ptr<Channel>>> Session::openSubsystemsAndExec(const QByteArray &subsystem, int count,
                                                                            const QString &command)
{
    QList<std::pair<QByteArray, bool>> requests(std::max(0, count), {subsystem, true});
    requests.append({command.toUtf8(), false});
    return openChannels(requests);
}

std::vector<Result<std::unique_ptr<Channel>>> Session::openChannels(const QList<std::pair<QByteArray, bool>> &requests)
{
    std::vector<Result<std::unique_ptr<Channel>>> results;
    if (!isConnected()) {
        for (qsizetype i = 0; i < requests.size(); ++i)
            results.emplace_back(makeError(ErrorCode::ConnectFailed,
                                           SshText::tr("not connected to %1; reconnect first").arg(m_target.display())));
        return results;
    }
    std::vector<Opening> opening;
    for (const auto &[request, subsystem] : requests) {
        ssh_channel channel = ssh_channel_new(m_session);
        Opening o;
        o.channel = channel ? std::make_unique<Channel>(channel) : nullptr;
        o.request = request;
        o.subsystem = subsystem;
        if (!channel) o.error = channelRefused(SshText::tr("cannot open a channel to %1: %2").arg(m_target.display(), lastLibsshError()));
        o.done = !channel;
        opening.push_back(std::move(o));
    }
    // libssh sends each request and returns SSH_AGAIN while its reply is out; a reply is filed to
    // its own channel, whichever call reads it.
    ssh_set_blocking(m_session, 0);
    QElapsedTimer timer;
    timer.start();
    for (bool waiting = true; waiting;) {
        waiting = false;
        bool progress = false;
        for (Opening &o : opening) {
            if (o.done) continue;
            progress = advance(o) || progress;
            waiting = waiting || !o.done;
            if (o.failed == Opening::Failed::Opening) {
                o.error = channelRefused(SshText::tr("%1 refused a new session channel (%2); the server's MaxSessions may be "
                                                     "reached").arg(m_target.display(), lastLibsshError()));
            } else if (o.failed == Opening::Failed::Starting && o.subsystem) {
                o.error = channelRefused(SshText::tr("%1 refused the %2 subsystem: %3")
                                             .arg(m_target.display(), QString::fromUtf8(o.request), lastLibsshError()));
            } else if (o.failed == Opening::Failed::Starting) {
                o.error = channelRefused(SshText::tr("%1 refused to run a command: %2").arg(m_target.display(), lastLibsshError()));
            }
        }
        if (waiting && timer.elapsed() > m_replyTimeoutMs) {
            for (Opening &o : opening) {
                if (!o.done)
                    o.error = makeError(ErrorCode::Timeout, SshText::tr("%1 did not answer a request to run a command within %2 s; check "
                                                                        "the connection and retry")
                                                                .arg(m_target.display()).arg(m_replyTimeoutMs / 1000));
            }
            break;
        }
        // A reply read by a later channel's call may have settled an earlier one: look again at
        // once after any progress, else wait (briefly: such a reply leaves nothing to poll for).
        if (waiting && !progress) waitForSocket(5);
    }
    ssh_set_blocking(m_session, 1);
    for (Opening &o : opening) {
        if (o.error) results.emplace_back(*o.error);
        else results.emplace_back(std::move(o.channel));
    }
    return results;
}

} // namespace gantry::ssh
