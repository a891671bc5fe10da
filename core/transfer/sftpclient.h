#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

struct ssh_session_struct;
struct ssh_channel_struct;

namespace gantry::ssh {
class Channel;
class Session;
}

namespace gantry::transfer {

// File attributes as SFTP v3 carries them; fields are valid when their flag is set.
struct SftpAttrs
{
    std::optional<quint64> size;
    std::optional<quint32> permissions;
    std::optional<quint32> mtime;

    bool isDir() const { return permissions && (*permissions & 0170000) == 0040000; }
    bool isLink() const { return permissions && (*permissions & 0170000) == 0120000; }
    bool isRegular() const { return permissions && (*permissions & 0170000) == 0100000; }
    // What the entry is, for listings: "dir", "file", "link", "fifo", "socket", "char", "block", or
    // "unknown" (no mode sent, or one no file system has). A FIFO is not a file one can download.
    QString kind() const
    {
        switch (permissions ? *permissions & 0170000 : 0) {
        case 0040000: return QStringLiteral("dir");
        case 0100000: return QStringLiteral("file");
        case 0120000: return QStringLiteral("link");
        case 0010000: return QStringLiteral("fifo");
        case 0140000: return QStringLiteral("socket");
        case 0020000: return QStringLiteral("char");
        case 0060000: return QStringLiteral("block");
        default: return QStringLiteral("unknown");
        }
    }
};

struct SftpEntry
{
    QString name;
    SftpAttrs attrs;
};

struct SftpSpace
{
    quint64 freeBytes = 0;  // available to an unprivileged user (f_bavail × f_frsize)
    quint64 totalBytes = 0;
};

// A small SFTP v3 client on its own "sftp" subsystem channel. We speak the protocol ourselves
// because libssh 0.10 has no pipelined writes, and its Debian build rejects replies with request
// ids it did not issue (CVE-2026-59848 backport), which makes mixing raw packets into libssh's own
// SFTP channel fragile. Any number of requests can be in flight: send*() returns the id and
// next()/waitFor() collect replies. Use on the session's thread only.
class SftpClient final
{
public:
    enum PacketType : quint8
    {
        Init = 1, Version = 2, Open = 3, Close = 4, Read = 5, Write = 6, Lstat = 7, Fstat = 8,
        Setstat = 9, Fsetstat = 10, Opendir = 11, Readdir = 12, Remove = 13, Mkdir = 14, Rmdir = 15,
        Realpath = 16, Stat = 17, Rename = 18, Readlink = 19,
        Status = 101, Handle = 102, Data = 103, Name = 104, Attrs = 105,
        Extended = 200, ExtendedReply = 201,
    };
    enum OpenFlag : quint32
    {
        OpenRead = 0x01, OpenWrite = 0x02, OpenAppend = 0x04, OpenCreate = 0x08,
        OpenTruncate = 0x10, OpenExclusive = 0x20,
    };
    enum StatusCode : quint32
    {
        StatusOk = 0, StatusEof = 1, StatusNoSuchFile = 2, StatusPermissionDenied = 3,
        StatusFailure = 4, StatusBadMessage = 5, StatusNoConnection = 6, StatusConnectionLost = 7,
        StatusUnsupported = 8,
    };

    struct Reply
    {
        quint8 type = 0;
        quint32 id = 0;
        QByteArray body;  // after type and id
        // For Status replies:
        quint32 status() const;
        QString statusMessage() const;
    };

    // Largest payload of one READ/WRITE: OpenSSH's sftp-server drops the session for messages
    // of 256 KiB or more, so stay at its advertised 255 KiB.
    static constexpr quint32 kMaxIo = 261120;
    // Same default as ssh::OutputLimits (this header does not depend on the ssh module).
    static constexpr qint64 kDefaultMaxListEntries = 2000000;
    static constexpr qint64 kDefaultMaxListBytes = qint64(64) << 20; // ssh::OutputLimits' output cap

    ~SftpClient();
    SftpClient(const SftpClient &) = delete;
    SftpClient &operator=(const SftpClient &) = delete;

    // Opens the subsystem channel and exchanges INIT/VERSION. `label` names the host in messages.
    static Result<std::unique_ptr<SftpClient>> start(ssh_session_struct *session, QString label,
                                                     const std::atomic_bool *cancel = nullptr,
                                                     const std::function<void(SftpClient &)> &withHello = {});

    // `count` more clients on one session, their channels opened and their handshakes exchanged
    // together (three round trips for all). Those the server refused (its MaxSessions) are left
    // out, so fewer may come back; each is then used like any other, on the session's thread.
    static std::vector<std::unique_ptr<SftpClient>> startMore(ssh::Session &session, const QString &label, int count,
                                                              const std::atomic_bool *cancel = nullptr,
                                                              const std::function<void(SftpClient &)> &withHello = {});
    // start() for one, startMore() for several (and for one with alsoRun); fails (as start() does)
    // only when none started.
    // `withHello`, when set, is called on the first client right after its INIT is sent, for
    // requests that may share the handshake's round trip (askAhead). With `alsoRun`, one more
    // channel running that command opens in the same round trips, into *running where it started.
    static Result<std::vector<std::unique_ptr<SftpClient>>> startMany(ssh::Session &session, int count,
                                                                      const std::atomic_bool *cancel = nullptr,
                                                                      const std::function<void(SftpClient &)> &withHello = {},
                                                                      const QString &alsoRun = {},
                                                                      std::unique_ptr<ssh::Channel> *running = nullptr);
    // Sends now a request on one path (Stat, Lstat, Realpath) that is sure to be made soon: the
    // first call that makes it takes this answer instead of asking again, a round trip fewer
    // where it went out with the handshake. Its answer describes the path as it was then.
    void askAhead(quint8 type, const QString &path);
    // Reads and drops the answers of requests asked ahead that no call took, so that none is
    // left for next() or poll() to meet; called once the calls they were asked for are made.
    void settleAhead();
    // The answer to request `id` is of no interest (a folder's or a file's CLOSE, a REMOVE given
    // up on): it is dropped as it comes, and no one waits a round trip for it.
    void forget(quint32 id)
    {
        if (!m_stash.remove(id)) m_forgotten.insert(id);
    }
    // Both clients are channels of one SSH session.
    bool sameSession(const SftpClient &other) const;

    // A receive window of kWideWindow bytes instead of libssh's ~1.2 MB, for bulk reads over a
    // long link (see readAvailable); off by default, as a short link is faster without.
    void setWideReceiveWindow(bool wide) { m_wideWindow = wide; }
    static constexpr int kWideWindow = 8 << 20;

    // What cancels this client's waits from now on (null: nothing).
    void setCancel(const std::atomic_bool *cancel) { m_cancel = cancel; }
    const std::atomic_bool *cancelFlag() const { return m_cancel; }
    bool hasExtension(const QByteArray &name) const { return m_extensions.contains(name); }
    quint32 maxWrite() const { return m_maxWrite; }
    quint32 maxRead() const { return m_maxRead; }
    const QString &label() const { return m_label; }

    // --- pipelined primitives ---
    // A write whose data the caller put straight into the packet, one copy of every byte fewer:
    // the data starts writeHeaderSize(handle) bytes into `packet`, and the header before it is
    // filled in here.
    static qsizetype writeHeaderSize(const QByteArray &handle) { return 4 + 1 + 4 + 4 + handle.size() + 8 + 4; }
    Result<quint32> sendWrite(char *packet, const QByteArray &handle, quint64 offset, quint32 length);
    // sendWrite() of `length` bytes at `data`, copied into a packet of their own.
    Result<quint32> sendWriteOf(const QByteArray &handle, quint64 offset, const char *data, quint32 length);
    Result<quint32> sendRead(const QByteArray &handle, quint64 offset, quint32 length);
    Result<quint32> send(quint8 type, const QByteArray &body);
    // The next reply (any id). Fails when the connection drops or nothing arrives for ioTimeoutMs.
    Result<Reply> next();
    Result<Reply> waitFor(quint32 id);
    // A reply that has arrived, without waiting: none while what came so far ends mid-reply. For
    // a thread that drives several clients of one session and waits on one of them at a time.
    Result<std::optional<Reply>> poll();
    // Bytes the server's channel window takes now: a write longer than this would wait for it.
    quint32 sendWindow() const;
    // Bytes written to and read from the channel, SFTP framing included ("on the wire" payload).
    quint64 bytesOut() const { return m_bytesOut; }
    quint64 bytesIn() const { return m_bytesIn; }
    void setIoTimeoutMs(int ms) { m_ioTimeoutMs = ms; }

    // --- blocking helpers ---
    Result<QByteArray> open(const QString &path, quint32 flags, std::optional<quint32> mode = {});
    // open() in two halves, for opens on several clients in one round trip.
    Result<quint32> sendOpen(const QString &path, quint32 flags, std::optional<quint32> mode = {});
    Result<QByteArray> openedHandle(const Result<Reply> &reply, const QString &path, quint32 flags) const;
    Result<void> close(const QByteArray &handle);
    Result<SftpAttrs> stat(const QString &path);
    Result<SftpAttrs> lstat(const QString &path);
    // Several stats in one round trip: all are sent, then the answers read; one per path, in order.
    QList<Result<SftpAttrs>> stats(const QStringList &paths);
    Result<SftpAttrs> fstat(const QByteArray &handle);
    // Stops with an error past maxListEntries() names or maxListBytes() bytes of names, or at a
    // name longer than NAME_MAX (a host can list without end, or send 8 MiB names).
    Result<QList<SftpEntry>> list(const QString &path);
    void setMaxListEntries(qint64 entries) { m_maxListEntries = entries; } // 0: no limit
    qint64 maxListEntries() const { return m_maxListEntries; }
    void setMaxListBytes(qint64 bytes) { m_maxListBytes = bytes; } // 0: no limit
    qint64 maxListBytes() const { return m_maxListBytes; }
    Result<void> mkdir(const QString &path);
    // mkdir() and remove() in two halves (the answer read with waitFor), for several in one round
    // trip; a folder made with `mode` has those permissions (less the server's umask).
    Result<quint32> sendMkdir(const QString &path, std::optional<quint32> mode = {});
    Result<quint32> sendRemove(const QString &path);
    Result<void> mkdirs(const QString &path);   // like mkdir -p
    Result<void> remove(const QString &path);
    Result<void> rmdir(const QString &path);
    // Replaces an existing target (posix-rename@openssh.com); plain RENAME when allowed to fail.
    Result<void> rename(const QString &from, const QString &to, bool replace);
    Result<quint32> sendRename(const QString &from, const QString &to, bool replace);
    // A rename and a look at its target in one round trip: what the name holds after it (or,
    // where the rename failed, whether something else is there).
    struct Renamed
    {
        Result<void> renamed;
        Result<SftpAttrs> after;
    };
    Renamed renameAndLstat(const QString &from, const QString &to, bool replace);
    Result<QString> realpath(const QString &path);
    Result<SftpSpace> statvfs(const QString &path);
    // statvfs() in two halves, to share a round trip with other requests.
    Result<quint32> sendStatvfs(const QString &path);
    Result<SftpSpace> spaceFrom(const Result<Reply> &reply, const QString &path) const;
    Result<void> fsync(const QByteArray &handle);
    Result<void> truncate(const QByteArray &handle, quint64 size);
    // The link's round trip: the best of three stats, measured once per client (a folder's files
    // share it); 0 when the stats fail.
    qint64 roundTripMs();

    // Turns a Status reply into an Error naming the path; Ok yields success.
    Result<void> checkStatus(const Reply &reply, const QString &what, const QString &path) const;
    Result<void> checkListedName(const QByteArray &name, const QString &path, qint64 *nameBytes) const;

private:
    SftpClient(ssh_channel_struct *channel, QString label, const std::atomic_bool *cancel);
    // INIT on every channel (the first followed by what withHello asks), then every VERSION.
    static std::vector<std::unique_ptr<SftpClient>> greet(std::vector<Result<std::unique_ptr<ssh::Channel>>> channels,
                                                          const QString &label, const std::atomic_bool *cancel,
                                                          const std::function<void(SftpClient &)> &withHello);
    Result<quint32> sendHello();
    Result<void> readHello(quint32 limitsId);
    Result<std::optional<Reply>> takeBuffered();
    Result<void> writeRaw(const char *data, size_t length);
    Result<void> fill();
    int readAvailable(int avail);
    Result<Reply> readWire();
    Error lostError(const QString &detail) const;
    Result<SftpAttrs> statLike(quint8 type, const QByteArray &arg, const QString &path);
    Result<SftpAttrs> attrsFrom(const Result<Reply> &reply, const QString &path) const;
    Result<Reply> call(quint8 type, const QByteArray &body);

    ssh_channel_struct *m_channel = nullptr;
    QString m_label;
    const std::atomic_bool *m_cancel = nullptr;
    quint32 m_nextId = 1;
    QHash<QByteArray, QByteArray> m_extensions;
    quint32 m_maxWrite = 32768;
    quint32 m_maxRead = 32768;
    qint64 m_roundTripMs = -1;
    bool m_wideWindow = false;
    quint64 m_sinceWideRead = ~quint64(0) >> 1; // bytes read since the last read that widened the window
    std::vector<char> m_in;
    size_t m_inPos = 0;
    QHash<quint32, Reply> m_stash;
    QHash<QByteArray, quint32> m_ahead; // a request's type and body → the id it went out with
    QSet<quint32> m_forgotten;
    quint64 m_bytesOut = 0;
    quint64 m_bytesIn = 0;
    int m_ioTimeoutMs = 60000;
    qint64 m_maxListEntries = kDefaultMaxListEntries;
    qint64 m_maxListBytes = kDefaultMaxListBytes;
};

// SFTP v3 wire encoding helpers.
namespace sftpwire {
void putU32(QByteArray &out, quint32 value);
void putU64(QByteArray &out, quint64 value);
void putString(QByteArray &out, const QByteArray &value);
// A request body that is one string (a path or a handle).
QByteArray stringBody(const QByteArray &value);

class Reader
{
public:
    explicit Reader(const QByteArray &data) : m_data(data) {}
    bool u32(quint32 *value);
    bool u64(quint64 *value);
    bool string(QByteArray *value);
    bool attrs(SftpAttrs *value);
    bool atEnd() const { return m_pos >= m_data.size(); }

private:
    const QByteArray &m_data;
    qsizetype m_pos = 0;
};
} // namespace sftpwire

} // namespace gantry::transfer
