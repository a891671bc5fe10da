#include "core/transfer/sftpclient.h"
#include "core/transfer/transfertext.h"

#include <libssh/libssh.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QtEndian>

#include <cstring>
#include <limits>

namespace gantry::transfer {

using namespace sftpwire;

namespace {
QByteArray pathBytes(const QString &path)
{
    return path.toUtf8();
}

} // namespace

quint32 SftpClient::Reply::status() const
{
    quint32 code = StatusFailure;
    Reader r(body);
    r.u32(&code);
    return code;
}

QString SftpClient::Reply::statusMessage() const
{
    quint32 code = 0;
    QByteArray msg;
    Reader r(body);
    r.u32(&code);
    r.string(&msg);
    return QString::fromUtf8(msg);
}

SftpClient::SftpClient(ssh_channel_struct *channel, QString label, const std::atomic_bool *cancel)
    : m_channel(channel)
    , m_label(std::move(label))
    , m_cancel(cancel)
{
}

SftpClient::~SftpClient()
{
    if (m_channel) {
        // Don't wait for the server's close here: the session may already be gone.
        ssh_channel_free(m_channel);
    }
}

namespace {

Error noSftp(const QString &label, ssh_session_struct *session)
{
    return Error{ErrorCode::RemoteFailed, TransferText::tr("%1 offers no SFTP service (%2). Enable the sftp "
                                                                                  "Subsystem in the server's sshd_config.")
                                              .arg(label, QString::fromUtf8(ssh_get_error(session)))};
}

// The channel and its subsystem. INIT cannot go out with the request: sshd opens a session
// channel with an empty window and widens it only once the subsystem runs.
Result<ssh_channel> openSubsystem(ssh_session_struct *session, const QString &label)
{
    ssh_channel channel = ssh_channel_new(session);
    if (!channel) {
        return Error{ErrorCode::ConnectFailed, TransferText::tr("Cannot open a channel to %1: %2")
                                                   .arg(label, QString::fromUtf8(ssh_get_error(session)))};
    }
    if (ssh_channel_open_session(channel) == SSH_OK && ssh_channel_request_subsystem(channel, "sftp") == SSH_OK) return channel;
    const Error refused = noSftp(label, session);
    ssh_channel_free(channel);
    return refused;
}

} // namespace

Result<std::unique_ptr<SftpClient>> SftpClient::start(ssh_session_struct *session, QString label,
                                                      const std::atomic_bool *cancel,
                                                      const std::function<void(SftpClient &)> &withHello)
{
    auto channel = openSubsystem(session, label);
    if (!channel) return channel.error();
    std::unique_ptr<SftpClient> client(new SftpClient(*channel, label, cancel));
    auto limits = client->sendHello();
    if (!limits) return limits.error();
    if (withHello) withHello(*client);
    if (auto hello = client->readHello(*limits); !hello) return hello.error();
    return client;
}

// The limits request goes out with INIT, before VERSION says whether the server knows it: one
// round trip for both (a server without the extension answers "unsupported", read and dropped).
Result<quint32> SftpClient::sendHello()
{
    QByteArray init;
    putU32(init, 5);
    init.append(char(Init));
    putU32(init, 3);
    if (auto w = writeRaw(init.constData(), size_t(init.size())); !w) return w.error();
    QByteArray body;
    putString(body, "limits@openssh.com");
    return send(Extended, body);
}

Result<void> SftpClient::readHello(quint32 limitsId)
{
    auto reply = next();
    if (!reply) return reply.error();
    // VERSION has no request id: what we parsed as the id is the version number.
    if (reply->type != Version) {
        return Error{ErrorCode::RemoteFailed,
                     TransferText::tr("%1 answered the SFTP handshake with an unexpected message.")
                         .arg(m_label)};
    }
    Reader r(reply->body);
    QByteArray name, data;
    while (r.string(&name) && r.string(&data)) m_extensions.insert(name, data);
    auto lim = waitFor(limitsId);
    if (lim && lim->type == ExtendedReply && hasExtension("limits@openssh.com")) {
        Reader lr(lim->body);
        quint64 maxPacket = 0, maxRead = 0, maxWrite = 0;
        if (lr.u64(&maxPacket) && lr.u64(&maxRead) && lr.u64(&maxWrite)) {
            if (maxWrite > 0) m_maxWrite = quint32(std::min<quint64>(maxWrite, kMaxIo));
            if (maxRead > 0) m_maxRead = quint32(std::min<quint64>(maxRead, kMaxIo));
        }
    }
    return {};
}

Error SftpClient::lostError(const QString &detail) const
{
    return Error{ErrorCode::ConnectFailed,
                 TransferText::tr("Connection to %1 lost during the transfer (%2). "
                                                         "It resumes from where it stopped once the host is reachable.")
                     .arg(m_label, detail)};
}

Result<void> SftpClient::writeRaw(const char *data, size_t length)
{
    size_t done = 0;
    while (done < length) {
        if (m_cancel && m_cancel->load()) {
            return Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")};
        }
        const int n = ssh_channel_write(m_channel, data + done, quint32(length - done));
        if (n == SSH_ERROR || ssh_channel_is_closed(m_channel)) {
            ssh_session s = ssh_channel_get_session(m_channel);
            return lostError(QString::fromUtf8(ssh_get_error(s)));
        }
        done += size_t(n);
    }
    m_bytesOut += length;
    return {};
}

// libssh grows a channel's receive window to what one read asks for, and otherwise keeps it near
// 1.2 MB, one round trip's worth: 12 MB/s a channel on a 100 ms link, where a 1 GiB download
// took 44 s (5.9 s with the wide window). Where the window is to be wide, a read that finds
// little buffered asks for kWideWindow bytes once an eighth of that was read since the last such
// read (each one sends a window adjust); otherwise at most a cache-sized piece is copied at a
// time. On a short link the narrow window is the faster one (libssh holds less, and moves what
// it holds as it drains). ssh_channel_read_timeout waits for one byte at most, here none.
int SftpClient::readAvailable(int avail)
{
    constexpr int kPiece = 128 << 10;
    thread_local const std::unique_ptr<char[]> buffer(new char[kWideWindow]); // only the pages a read fills are touched
    const bool widen = m_wideWindow && avail <= kPiece && m_sinceWideRead >= quint64(kWideWindow / 8);
    const int n = widen ? ssh_channel_read_timeout(m_channel, buffer.get(), kWideWindow, 0, 0)
                        : ssh_channel_read_nonblocking(m_channel, buffer.get(), kPiece, 0);
    if (n <= 0) return n;
    m_in.insert(m_in.end(), buffer.get(), buffer.get() + n);
    m_sinceWideRead = widen ? 0 : m_sinceWideRead + quint64(n);
    return n;
}

Result<void> SftpClient::fill()
{
    QElapsedTimer idle;
    idle.start();
    if (m_inPos > 0 && m_inPos * 2 > m_in.size()) {
        m_in.erase(m_in.begin(), m_in.begin() + qsizetype(m_inPos));
        m_inPos = 0;
    }
    for (;;) {
        if (m_cancel && m_cancel->load()) {
            return Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")};
        }
        // Poll (for up to 50 ms, so that a cancel is seen soon), then read what is there.
        const int avail = ssh_channel_poll_timeout(m_channel, 50, 0);
        const int n = avail == SSH_ERROR ? SSH_ERROR : avail > 0 ? readAvailable(avail) : 0;
        if (n > 0) {
            m_bytesIn += quint64(n);
            return {};
        }
        if (n == SSH_ERROR) {
            ssh_session s = ssh_channel_get_session(m_channel);
            return lostError(QString::fromUtf8(ssh_get_error(s)));
        }
        if (ssh_channel_is_eof(m_channel) || ssh_channel_is_closed(m_channel)) {
            return lostError(TransferText::tr("the server closed the SFTP channel"));
        }
        if (idle.elapsed() > m_ioTimeoutMs) {
            return lostError(TransferText::tr("no answer for %1 s").arg(m_ioTimeoutMs / 1000));
        }
    }
}

Result<SftpClient::Reply> SftpClient::next()
{
    if (!m_stash.isEmpty()) {
        auto it = m_stash.begin();
        Reply r = std::move(it.value());
        m_stash.erase(it);
        return r;
    }
    return readWire();
}

Result<SftpClient::Reply> SftpClient::readWire()
{
    for (;;) {
        auto parsed = takeBuffered();
        if (!parsed) return parsed.error();
        if (*parsed) return std::move(**parsed);
        if (auto f = fill(); !f) return f.error();
    }
}

// The next whole reply in what was read so far, if there is one.
Result<std::optional<SftpClient::Reply>> SftpClient::takeBuffered()
{
    for (;;) {
        const size_t avail = m_in.size() - m_inPos;
        if (avail < 4) return std::optional<Reply>();
        const quint32 len = qFromBigEndian<quint32>(m_in.data() + m_inPos);
        if (len < 1 || len > 16u * 1024 * 1024) return lostError(TransferText::tr("malformed SFTP reply"));
        if (avail < 4 + size_t(len)) return std::optional<Reply>();
        const char *p = m_in.data() + m_inPos + 4;
        Reply reply;
        reply.type = quint8(p[0]);
        size_t bodyStart = 1;
        if (len >= 5) {
            reply.id = qFromBigEndian<quint32>(p + 1);
            bodyStart = 5;
        }
        m_inPos += 4 + len;
        if (bodyStart == 5 && m_forgotten.remove(reply.id)) continue; // forget()
        reply.body = QByteArray(p + bodyStart, qsizetype(len - bodyStart));
        return std::optional<Reply>(std::move(reply));
    }
}

Result<SftpClient::Reply> SftpClient::waitFor(quint32 id)
{
    if (auto it = m_stash.find(id); it != m_stash.end()) {
        Reply r = std::move(it.value());
        m_stash.erase(it);
        return r;
    }
    for (;;) {
        auto r = readWire();
        if (!r) return r.error();
        if (r->id == id) return r;
        // Only replies to requests in flight wait here: a server sending others would fill memory.
        if (r->id == 0 || r->id >= m_nextId || m_stash.contains(r->id)) {
            return lostError(TransferText::tr("the server answered a request that was never sent"));
        }
        m_stash.insert(r->id, std::move(r.value()));
    }
}

Result<quint32> SftpClient::send(quint8 type, const QByteArray &body)
{
    const quint32 id = m_nextId++;
    QByteArray packet;
    packet.reserve(body.size() + 9);
    putU32(packet, quint32(body.size() + 5));
    packet.append(char(type));
    putU32(packet, id);
    packet.append(body);
    if (auto w = writeRaw(packet.constData(), size_t(packet.size())); !w) return w.error();
    return id;
}

Result<quint32> SftpClient::sendWrite(char *packet, const QByteArray &handle, quint64 offset, quint32 length)
{
    const quint32 id = m_nextId++;
    const qsizetype header = writeHeaderSize(handle);
    char *at = packet;
    qToBigEndian(quint32(header - 4 + length), at);
    at[4] = char(Write);
    qToBigEndian(id, at + 5);
    qToBigEndian(quint32(handle.size()), at + 9);
    std::memcpy(at + 13, handle.constData(), size_t(handle.size()));
    at += 13 + handle.size();
    qToBigEndian(offset, at);
    qToBigEndian(length, at + 8);
    if (auto w = writeRaw(packet, size_t(header) + length); !w) return w.error();
    return id;
}

Result<quint32> SftpClient::sendRead(const QByteArray &handle, quint64 offset, quint32 length)
{
    QByteArray body;
    putString(body, handle);
    putU64(body, offset);
    putU32(body, length);
    return send(Read, body);
}

void SftpClient::askAhead(quint8 type, const QString &path)
{
    const QByteArray body = stringBody(pathBytes(path));
    if (m_ahead.contains(char(type) + body)) return;
    if (auto id = send(type, body)) m_ahead.insert(char(type) + body, *id);
}

void SftpClient::settleAhead()
{
    for (const quint32 id : std::as_const(m_ahead)) (void)waitFor(id);
    m_ahead.clear();
}

bool SftpClient::sameSession(const SftpClient &other) const
{
    return ssh_channel_get_session(m_channel) == ssh_channel_get_session(other.m_channel);
}

Result<SftpClient::Reply> SftpClient::call(quint8 type, const QByteArray &body)
{
    if (auto ahead = m_ahead.find(char(type) + body); ahead != m_ahead.end()) {
        const quint32 id = ahead.value();
        m_ahead.erase(ahead);
        return waitFor(id);
    }
    auto id = send(type, body);
    if (!id) return id.error();
    return waitFor(*id);
}

qint64 SftpClient::roundTripMs()
{
    if (m_roundTripMs >= 0) return m_roundTripMs;
    qint64 best = std::numeric_limits<qint64>::max();
    for (int i = 0; i < 3; ++i) {
        QElapsedTimer timer;
        timer.start();
        if (!stat(QStringLiteral("."))) return m_roundTripMs = 0;
        best = std::min(best, timer.elapsed());
    }
    return m_roundTripMs = best;
}

Result<void> SftpClient::checkStatus(const Reply &reply, const QString &what, const QString &path) const
{
    if (reply.type != Status) {
        return Error{ErrorCode::RemoteFailed,
                     TransferText::tr("%1 %2 on %3: unexpected SFTP reply.").arg(what, path, m_label)};
    }
    const quint32 code = reply.status();
    const QString detail = reply.statusMessage();
    switch (code) {
    case StatusOk: return {};
    case StatusNoSuchFile:
        return Error{ErrorCode::NotFound,
                     TransferText::tr("%1 failed: %2 does not exist on %3. Check the path.")
                         .arg(what, path, m_label)};
    case StatusPermissionDenied:
        return Error{ErrorCode::PermissionDenied,
                     TransferText::tr("%1 failed: permission denied for %2 on %3. Pick a "
                                                             "directory the SSH user can write, or fix its permissions.")
                         .arg(what, path, m_label)};
    case StatusEof:
        return Error{ErrorCode::Io, TransferText::tr("%1: unexpected end of file %2 on %3.")
                                        .arg(what, path, m_label)};
    case StatusUnsupported:
        return Error{ErrorCode::RemoteFailed,
                     TransferText::tr("%1 is not supported by the SFTP server on %2.").arg(what, m_label)};
    default:
        return Error{ErrorCode::RemoteFailed,
                     TransferText::tr("%1 failed for %2 on %3: %4.")
                         .arg(what, path, m_label, detail.isEmpty() ? QStringLiteral("failure") : detail)};
    }
}

Result<QByteArray> SftpClient::open(const QString &path, quint32 flags, std::optional<quint32> mode)
{
    auto id = sendOpen(path, flags, mode);
    if (!id) return id.error();
    return openedHandle(waitFor(*id), path, flags);
}

Result<quint32> SftpClient::sendOpen(const QString &path, quint32 flags, std::optional<quint32> mode)
{
    QByteArray body;
    putString(body, pathBytes(path));
    putU32(body, flags);
    if (mode) {
        putU32(body, 0x4);
        putU32(body, *mode);
    } else {
        putU32(body, 0);
    }
    return send(Open, body);
}

Result<QByteArray> SftpClient::openedHandle(const Result<Reply> &r, const QString &path, quint32 flags) const
{
    if (!r) return r.error();
    if (r->type == Handle) {
        QByteArray handle;
        Reader rd(r->body);
        if (rd.string(&handle)) return handle;
    }
    const QString what = (flags & OpenWrite) ? TransferText::tr("Opening for writing")
                                             : TransferText::tr("Opening");
    auto st = checkStatus(*r, what, path);
    if (!st) return st.error();
    return Error{ErrorCode::RemoteFailed, QStringLiteral("open: no handle")};
}

Result<void> SftpClient::close(const QByteArray &handle)
{
    auto r = call(Close, stringBody(handle));
    if (!r) return r.error();
    return checkStatus(*r, TransferText::tr("Closing the file"), QString());
}

Result<SftpAttrs> SftpClient::statLike(quint8 type, const QByteArray &arg, const QString &path)
{
    return attrsFrom(call(type, stringBody(arg)), path);
}

Result<SftpAttrs> SftpClient::attrsFrom(const Result<Reply> &r, const QString &path) const
{
    if (!r) return r.error();
    if (r->type == Attrs) {
        SftpAttrs a;
        Reader rd(r->body);
        if (rd.attrs(&a)) return a;
    }
    auto st = checkStatus(*r, TransferText::tr("Looking up"), path);
    if (!st) return st.error();
    return Error{ErrorCode::RemoteFailed, QStringLiteral("stat: no attributes")};
}

Result<SftpAttrs> SftpClient::stat(const QString &path)
{
    return statLike(Stat, pathBytes(path), path);
}

QList<Result<SftpAttrs>> SftpClient::stats(const QStringList &paths)
{
    QList<Result<quint32>> sent;
    for (const QString &path : paths) {
        const QByteArray body = stringBody(pathBytes(path));
        sent.append(m_ahead.contains(char(Stat) + body) ? Result<quint32>(m_ahead.take(char(Stat) + body)) : send(Stat, body));
    }
    QList<Result<SftpAttrs>> answers;
    for (qsizetype i = 0; i < paths.size(); ++i) {
        if (!sent[i]) answers.append(sent[i].error());
        else answers.append(attrsFrom(waitFor(*sent[i]), paths[i]));
    }
    return answers;
}

Result<SftpAttrs> SftpClient::lstat(const QString &path)
{
    return statLike(Lstat, pathBytes(path), path);
}

Result<SftpAttrs> SftpClient::fstat(const QByteArray &handle)
{
    return statLike(Fstat, handle, QString());
}

Result<void> SftpClient::mkdir(const QString &path)
{
    auto id = sendMkdir(path);
    if (!id) return id.error();
    auto r = waitFor(*id);
    if (!r) return r.error();
    return checkStatus(*r, TransferText::tr("Creating the directory"), path);
}

Result<quint32> SftpClient::sendMkdir(const QString &path, std::optional<quint32> mode)
{
    QByteArray body;
    putString(body, pathBytes(path));
    putU32(body, mode ? 0x4 : 0); // SSH_FILEXFER_ATTR_PERMISSIONS
    if (mode) putU32(body, *mode);
    return send(Mkdir, body);
}

Result<quint32> SftpClient::sendRemove(const QString &path)
{
    return send(Remove, stringBody(pathBytes(path)));
}

Result<void> SftpClient::mkdirs(const QString &path)
{
    if (path.isEmpty() || path == QLatin1String("/") || path == QLatin1String(".")) return {};
    auto st = stat(path);
    if (st) {
        if (st->isDir()) return {};
        return Error{ErrorCode::Conflict,
                     TransferText::tr("%1 on %2 exists and is not a directory.").arg(path, m_label)};
    }
    if (st.error().code != ErrorCode::NotFound) return st.error();
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    if (slash > 0) {
        if (auto p = mkdirs(path.left(slash)); !p) return p;
    }
    auto m = mkdir(path);
    if (!m && stat(path).ok()) return {}; // created concurrently by another worker
    return m;
}

Result<void> SftpClient::remove(const QString &path)
{
    auto r = call(Remove, stringBody(pathBytes(path)));
    if (!r) return r.error();
    return checkStatus(*r, TransferText::tr("Deleting"), path);
}

Result<void> SftpClient::rmdir(const QString &path)
{
    auto r = call(Rmdir, stringBody(pathBytes(path)));
    if (!r) return r.error();
    return checkStatus(*r, TransferText::tr("Removing the directory"), path);
}

Result<void> SftpClient::rename(const QString &from, const QString &to, bool replace)
{
    auto r = sendRename(from, to, replace);
    if (!r) return r.error();
    auto reply = waitFor(*r);
    if (!reply) return reply.error();
    return checkStatus(*reply, TransferText::tr("Renaming"), from);
}

Result<quint32> SftpClient::sendRename(const QString &from, const QString &to, bool replace)
{
    QByteArray body;
    quint8 type = Rename;
    if (replace && hasExtension("posix-rename@openssh.com")) {
        type = Extended;
        putString(body, "posix-rename@openssh.com");
    }
    putString(body, pathBytes(from));
    putString(body, pathBytes(to));
    return send(type, body);
}

Result<QString> SftpClient::realpath(const QString &path)
{
    auto r = call(Realpath, stringBody(pathBytes(path)));
    if (!r) return r.error();
    if (r->type == Name) {
        Reader rd(r->body);
        quint32 count = 0;
        QByteArray name;
        if (rd.u32(&count) && count >= 1 && rd.string(&name)) return QString::fromUtf8(name);
    }
    auto st = checkStatus(*r, TransferText::tr("Resolving"), path);
    if (!st) return st.error();
    return Error{ErrorCode::RemoteFailed, QStringLiteral("realpath: no name")};
}

Result<void> SftpClient::fsync(const QByteArray &handle)
{
    if (!hasExtension("fsync@openssh.com")) return {};
    QByteArray body;
    putString(body, "fsync@openssh.com");
    putString(body, handle);
    auto r = call(Extended, body);
    if (!r) return r.error();
    return checkStatus(*r, TransferText::tr("Flushing"), QString());
}

Result<void> SftpClient::truncate(const QByteArray &handle, quint64 size)
{
    QByteArray body;
    putString(body, handle);
    putU32(body, 0x1);
    putU64(body, size);
    auto r = call(Fsetstat, body);
    if (!r) return r.error();
    return checkStatus(*r, TransferText::tr("Truncating"), QString());
}

} // namespace gantry::transfer
