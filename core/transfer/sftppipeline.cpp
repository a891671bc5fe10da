// SPDX-License-Identifier: Apache-2.0
// What lets requests share round trips: several SFTP clients on one session ("lanes") driven by
// one thread — sshd gives each session channel a 2 MiB window, so one channel moves at most 2 MiB
// per round trip (on a 200 ms link 10 MB/s), and more channels on the same connection multiply
// that without another login — and requests sent together whose answers are read later.

#include "core/transfer/sftpclient.h"
#include "core/transfer/transfertext.h"

#include "core/ssh/session.h"

#include <libssh/libssh.h>

#include <cstring>

namespace gantry::transfer {

using namespace sftpwire;

std::vector<std::unique_ptr<SftpClient>> SftpClient::startMore(ssh::Session &session, const QString &label, int count,
                                                               const std::atomic_bool *cancel,
                                                               const std::function<void(SftpClient &)> &withHello)
{
    return greet(session.openSubsystems(QByteArrayLiteral("sftp"), count), label, cancel, withHello);
}

std::vector<std::unique_ptr<SftpClient>> SftpClient::greet(std::vector<Result<std::unique_ptr<ssh::Channel>>> channels,
                                                           const QString &label, const std::atomic_bool *cancel,
                                                           const std::function<void(SftpClient &)> &withHello)
{
    std::vector<std::unique_ptr<SftpClient>> started;
    for (auto &channel : channels) {
        if (channel) started.emplace_back(new SftpClient((*channel)->release(), label, cancel));
    }
    // Every INIT first (the first one followed by what withHello asks ahead), then every
    // VERSION: one round trip for all the handshakes.
    std::vector<quint32> limits;
    std::vector<std::unique_ptr<SftpClient>> greeted;
    for (auto &client : started) {
        auto id = client->sendHello();
        limits.push_back(id ? *id : 0);
        if (id && withHello && limits.size() == 1) withHello(*client);
    }
    for (size_t i = 0; i < started.size(); ++i) {
        if (limits[i] != 0 && started[i]->readHello(limits[i])) greeted.push_back(std::move(started[i]));
    }
    return greeted;
}

Result<std::vector<std::unique_ptr<SftpClient>>> SftpClient::startMany(ssh::Session &session, int count,
                                                                        const std::atomic_bool *cancel,
                                                                        const std::function<void(SftpClient &)> &withHello,
                                                                        const QString &alsoRun, std::unique_ptr<ssh::Channel> *running)
{
    const QString label = session.target().display();
    std::vector<std::unique_ptr<SftpClient>> clients;
    if (!alsoRun.isEmpty() && running) {
        auto opened = session.openSubsystemsAndExec(QByteArrayLiteral("sftp"), count, alsoRun);
        if (opened.back()) *running = std::move(*opened.back());
        opened.pop_back();
        clients = greet(std::move(opened), label, cancel, withHello);
    } else if (count > 1) {
        clients = startMore(session, label, count, cancel, withHello);
    }
    if (!clients.empty()) return clients;
    if (cancel && cancel->load()) return Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")};
    auto one = start(session.handle(), label, cancel, withHello); // says why, where none started
    if (!one) return one.error();
    clients.push_back(std::move(*one));
    return clients;
}

Result<std::optional<SftpClient::Reply>> SftpClient::poll()
{
    if (!m_stash.isEmpty()) {
        auto it = m_stash.begin();
        Reply r = std::move(it.value());
        m_stash.erase(it);
        return std::optional<Reply>(std::move(r));
    }
    auto parsed = takeBuffered();
    if (!parsed || *parsed) return parsed;
    if (m_cancel && m_cancel->load()) return Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")};
    if (m_inPos > 0 && m_inPos * 2 > m_in.size()) {
        m_in.erase(m_in.begin(), m_in.begin() + qsizetype(m_inPos));
        m_inPos = 0;
    }
    // Reads what the socket holds now, for every channel of the session (libssh files each
    // packet to its own channel), and takes this channel's share.
    const int avail = ssh_channel_poll_timeout(m_channel, 0, 0);
    if (avail == SSH_ERROR) return lostError(QString::fromUtf8(ssh_get_error(ssh_channel_get_session(m_channel))));
    if (avail > 0) {
        char buf[64 * 1024];
        const int n = ssh_channel_read_nonblocking(m_channel, buf, quint32(std::min<int>(avail, int(sizeof buf))), 0);
        if (n == SSH_ERROR) return lostError(QString::fromUtf8(ssh_get_error(ssh_channel_get_session(m_channel))));
        if (n > 0) {
            m_in.insert(m_in.end(), buf, buf + n);
            m_bytesIn += quint64(n);
        }
    } else if (ssh_channel_is_eof(m_channel) || ssh_channel_is_closed(m_channel)) {
        return lostError(TransferText::tr("the server closed the SFTP channel"));
    }
    return takeBuffered();
}

Result<quint32> SftpClient::sendStatvfs(const QString &path)
{
    if (!hasExtension("statvfs@openssh.com")) {
        return Error{ErrorCode::RemoteFailed, QStringLiteral("statvfs@openssh.com unsupported")};
    }
    QByteArray body;
    putString(body, "statvfs@openssh.com");
    putString(body, path.toUtf8());
    return send(Extended, body);
}

Result<SftpSpace> SftpClient::spaceFrom(const Result<Reply> &r, const QString &path) const
{
    if (!r) return r.error();
    if (r->type != ExtendedReply) {
        auto st = checkStatus(*r, TransferText::tr("Checking free space"), path);
        if (!st) return st.error();
        return Error{ErrorCode::RemoteFailed, QStringLiteral("statvfs: no reply")};
    }
    Reader rd(r->body);
    quint64 bsize = 0, frsize = 0, blocks = 0, bfree = 0, bavail = 0;
    if (!rd.u64(&bsize) || !rd.u64(&frsize) || !rd.u64(&blocks) || !rd.u64(&bfree) || !rd.u64(&bavail)) {
        return Error{ErrorCode::RemoteFailed, QStringLiteral("statvfs: short reply")};
    }
    const quint64 unit = frsize ? frsize : bsize;
    return SftpSpace{bavail * unit, blocks * unit};
}

Result<SftpSpace> SftpClient::statvfs(const QString &path)
{
    auto id = sendStatvfs(path);
    if (!id) return id.error();
    return spaceFrom(waitFor(*id), path);
}

SftpClient::Renamed SftpClient::renameAndLstat(const QString &from, const QString &to, bool replace)
{
    auto renameId = sendRename(from, to, replace);
    if (!renameId) return Renamed{renameId.error(), renameId.error()};
    auto lstatId = send(Lstat, stringBody(to.toUtf8())); // sftp-server answers in order: it looks after the rename
    auto reply = waitFor(*renameId);
    Result<void> renamed = reply ? checkStatus(*reply, TransferText::tr("Renaming"), from) : Result<void>(reply.error());
    if (!lstatId) return Renamed{renamed, lstatId.error()};
    return Renamed{renamed, attrsFrom(waitFor(*lstatId), to)};
}

Result<quint32> SftpClient::sendWriteOf(const QByteArray &handle, quint64 offset, const char *data, quint32 length)
{
    QByteArray packet(writeHeaderSize(handle) + qsizetype(length), Qt::Uninitialized);
    std::memcpy(packet.data() + writeHeaderSize(handle), data, length);
    return sendWrite(packet.data(), handle, offset, length);
}

quint32 SftpClient::sendWindow() const
{
    return ssh_channel_window_size(m_channel);
}

} // namespace gantry::transfer
