#include "core/transfer/remoteops.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/chunkworkers.h"
#include "core/transfer/sha256.h"

#include <QCoreApplication>
#include <QMap>
#include <QFileInfo>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <limits>

namespace gantry::transfer {

namespace {
// A digest line, or a chunk's "N HEX" line, is under 100 bytes; anything far beyond that is a host
// sending garbage, stopped before it fills memory.
constexpr qsizetype kDigestOutputLimit = 1 << 20;
constexpr qsizetype kChunkLineBytes = 100;

QString hashCommand(const QString &path)
{
    const QString q = ssh::shellQuote(path.startsWith(QLatin1Char('-')) ? QStringLiteral("./") + path : path);
    return QStringLiteral("if command -v openssl >/dev/null 2>&1; then openssl dgst -sha256 -r %1; "
                          "else sha256sum %1; fi").arg(q);
}
} // namespace

QString widenStdinPipe()
{
    // The pipe is handed over as fd 3 with stdin on /dev/null, so nothing (a PYTHONINSPECT or
    // PERL5OPT in the host's environment, a command-not-found handler) can read the stream's first
    // bytes; `|| :` keeps a login shell with errexit going where neither tool works.
    return QStringLiteral("{ perl -e \"open(F, q{<&=3}) and fcntl(F, 1031, 1048576)\" || "
                          "python3 -I -S -c \"import fcntl; fcntl.fcntl(3, 1031, 1048576)\" || :; } 3<&0 </dev/null 2>/dev/null; ");
}

QString digestNamesCommand(const QString &namesFile)
{
    // openssl fails as a whole where it is missing or refuses a name: sha256sum then does them
    // all, and its lines (later) win over any openssl printed.
    return QStringLiteral("{ xargs -0 -r openssl dgst -sha256 -r < %1 2>/dev/null || xargs -0 -r sha256sum -- < %1; }")
        .arg(namesFile);
}

QHash<QByteArray, QByteArray> parseDigestLines(const QByteArray &out)
{
    QHash<QByteArray, QByteArray> sums;
    for (QByteArray line : out.split('\n')) {
        const bool escaped = line.startsWith('\\');
        if (escaped) line.remove(0, 1);
        if (line.size() < 67) continue;
        const QByteArray separator = line.mid(64, 2);
        if (separator != "  " && separator != " *") continue;
        QByteArray name = line.mid(66);
        if (escaped && separator == " *") {
            name.replace("\\n", "\n"); // openssl escapes newlines only
        } else if (escaped) {
            QByteArray plain;
            for (qsizetype k = 0; k < name.size(); ++k) {
                if (name[k] == '\\' && k + 1 < name.size()) {
                    const char c = name[++k];
                    plain += c == 'n' ? '\n' : c == 'r' ? '\r' : c;
                } else {
                    plain += name[k];
                }
            }
            name = plain;
        }
        if (name.startsWith("./")) name = name.mid(2);
        sums.insert(name, line.left(64));
    }
    return sums;
}

PendingRemoteHash::PendingRemoteHash(ssh::Session &session, const QString &path)
    : m_channel(session.openExec(hashCommand(path)))
    , m_path(path)
{
}

Result<QByteArray> PendingRemoteHash::finish()
{
    if (!m_channel) return m_channel.error();
    ssh::Channel &ch = **m_channel;
    (void)ch.sendEof();
    QByteArray out, err;
    while (!ch.isEof() && out.size() + err.size() < kDigestOutputLimit) {
        auto r = ch.read(500, &err);
        if (!r) return r.error();
        out += *r;
    }
    // Start-up files may print first: take the first line that starts with a digest.
    static const QRegularExpression hex(QStringLiteral("^([0-9a-f]{64})"), QRegularExpression::MultilineOption);
    const auto m = hex.match(QString::fromUtf8(out));
    if (!m.hasMatch()) {
        return Error{ErrorCode::RemoteFailed,
                     TransferText::tr("Cannot compute SHA-256 of %1 on the host: %2")
                         .arg(m_path, QString::fromUtf8(err).trimmed())};
    }
    return m.captured(1).toLatin1();
}

namespace {
// The host's python3, unless it is a version manager's shim (pyenv, asdf, mise: ~/.*/shims/):
// a shim is a shell script that forks some 240 processes per start, 0.1 s of CPU taken from the
// transfer, so the system's python3 runs instead when there is one. -S skips site's start-up
// (.pth files): the scripts need only the standard library.
constexpr char kHostPython[] = "p=$(command -v python3); case \"$p\" in */shims/*) [ -x /usr/bin/python3 ] && "
                               "p=/usr/bin/python3 ;; esac; exec \"${p:-python3}\" -S -c ";

// What both hashers start with: the file, the chunk size, and read(), which fills a buffer of the
// calling thread's own (preadv, Python 3.7+) rather than a fresh 1 MiB object per read, whose page
// faults cost the host as much kernel time as the hash itself took.
constexpr char kHashPrelude[] = R"(import hashlib, os, sys, threading
fd = os.open(sys.argv[1], os.O_RDONLY)
size = int(sys.argv[2])
mine = threading.local()
def read(length, at):
    if not hasattr(os, 'preadv'):
        return os.pread(fd, length, at)
    if not hasattr(mine, 'buf'):
        mine.buf = memoryview(bytearray(1 << 20))
    return mine.buf[:os.preadv(fd, [mine.buf[:length]], at)]
)";

// Reads chunk numbers on stdin ("end" stops), prints "N HEX" per chunk as each is hashed.
// hashlib is OpenSSL's SHA-256 (as fast as `openssl dgst`) and, like os.pread, releases the
// GIL, so chunks announced together are hashed on every core of the host.
constexpr char kChunkHashScript[] = R"(from concurrent.futures import ThreadPoolExecutor
lock = threading.Lock()
def digest(i):
    h = hashlib.sha256()
    off, left = i * size, size
    while left > 0:
        b = read(min(left, 1 << 20), off)
        if not b:
            break
        h.update(b)
        off += len(b)
        left -= len(b)
    with lock:
        sys.stdout.write('%d %s\n' % (i, h.hexdigest()))
        sys.stdout.flush()
with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
    for line in sys.stdin:
        n = line.strip()
        if n == 'end':
            break
        pool.submit(digest, int(n))
)";

// Reads chunk numbers on stdin, each the next in file order, and feeds them to one SHA-256; at
// "end" reads on to the end of the file and prints "whole HEX". A chunk out of order (or cut
// short) ends it with a complaint, and the caller falls back to the whole-file sha256.
constexpr char kWholeHashScript[] = R"(h = hashlib.sha256()
off = 0
def feed(end):
    global off
    while end is None or off < end:
        b = read(1 << 20 if end is None else min(end - off, 1 << 20), off)
        if not b:
            return
        h.update(b)
        off += len(b)
for line in sys.stdin:
    n = line.strip()
    if n == 'end':
        feed(None)
        sys.stdout.write('whole %s\n' % h.hexdigest())
        break
    if int(n) * size != off:
        sys.exit('chunk %s is not the next one' % n)
    feed(off + size)
)";
// What a python started ahead (waitingPythonCommand) runs first: its arguments, hex-encoded on
// one line after the program's length, then the program itself, from its input; then the
// program reads on from the same input. The arguments' bytes become names as the host's own
// file-name encoding reads them (os.fsdecode), so os.open gets the same bytes back, whatever the
// locale. Nothing at all (a channel closed unused): it just ends.
constexpr char kWaitingPython[] = R"(import os, sys
h = sys.stdin.buffer.readline().split()
if not h:
    sys.exit(0)
sys.argv = ['-c'] + [os.fsdecode(bytes.fromhex(a.decode())) for a in h[1:]]
exec(compile(sys.stdin.buffer.read(int(h[0])), '<gantry>', 'exec'))
)";

QByteArray hasherProgram(RemoteChunkHasher::Mode mode)
{
    return QByteArray(kHashPrelude) + (mode == RemoteChunkHasher::Mode::Chunks ? kChunkHashScript : kWholeHashScript);
}
} // namespace

QString waitingPythonCommand()
{
    return QLatin1String(kHostPython) + ssh::shellQuote(QString::fromLatin1(kWaitingPython));
}

RemoteChunkHasher::RemoteChunkHasher(ssh::Session &session, const QString &path, quint64 chunkSize, int chunkCount, Mode mode,
                                     const std::atomic_bool *cancel)
    : m_channel(session.openExec(QString(QLatin1String(kHostPython) + QStringLiteral("%1 %2 %3"))
                                     .arg(ssh::shellQuote(QString::fromLatin1(hasherProgram(mode))), ssh::shellQuote(path))
                                     .arg(chunkSize)))
    , m_path(path)
    , m_chunkCount(chunkCount)
    , m_mode(mode)
    , m_cancel(cancel)
{
}

RemoteChunkHasher::RemoteChunkHasher(std::unique_ptr<ssh::Channel> waiting, const QString &path, quint64 chunkSize, int chunkCount,
                                     Mode mode, const std::atomic_bool *cancel)
    : m_channel(std::move(waiting))
    , m_path(path)
    , m_chunkCount(chunkCount)
    , m_mode(mode)
    , m_cancel(cancel)
{
    const QByteArray program = hasherProgram(mode);
    const QByteArray head = QByteArray::number(program.size()) + ' ' + path.toUtf8().toHex() + ' '
                            + QByteArray::number(chunkSize).toHex() + '\n';
    if (!(*m_channel)->write(head + program)) m_broken = true;
}

void RemoteChunkHasher::announce(int chunk)
{
    if (m_broken || !m_channel) return;
    if (!(*m_channel)->write(QByteArray::number(chunk) + '\n')) m_broken = true;
}

void RemoteChunkHasher::collect(int timeoutMs)
{
    if (m_broken || !m_channel) return;
    auto r = (*m_channel)->read(timeoutMs, &m_err);
    if (!r) m_broken = true;
    else m_out += *r;
    // More than the chunks' lines can fill: the host sends garbage (finish() then reports it).
    if (m_out.size() + m_err.size() > kDigestOutputLimit + qsizetype(m_chunkCount) * kChunkLineBytes) m_broken = true;
}

void RemoteChunkHasher::advance(const std::function<bool(int)> &isDone)
{
    while (m_next < m_chunkCount && isDone(m_next)) announce(m_next++);
    if (m_next == m_chunkCount) endInput();
    collect(0); // keeps the channel window open on files with many chunks
}

void RemoteChunkHasher::endInput()
{
    if (m_ended || m_broken || !m_channel) return;
    m_ended = true;
    if (!(*m_channel)->write(QByteArrayLiteral("end\n"))) m_broken = true;
    else (void)(*m_channel)->sendEof();
}

Error RemoteChunkHasher::failure(const QString &why) const
{
    return Error{ErrorCode::RemoteFailed,
                 TransferText::tr("Cannot check the chunks of %1 on the host: %2").arg(m_path, why)};
}

Result<void> RemoteChunkHasher::drain(const std::function<bool(int)> &isDone)
{
    if (!m_channel) return m_channel.error();
    advance(isDone);
    if (m_next < m_chunkCount) return failure(QStringLiteral("chunk %1 is not done").arg(m_next));
    ssh::Channel &ch = **m_channel;
    endInput();
    if (m_broken) return failure(QString::fromUtf8(m_err).trimmed());
    while (!m_broken && !ch.isEof()) {
        if (m_cancel && m_cancel->load()) return cancelledError();
        collect(500);
    }
    return {};
}

Result<QList<QByteArray>> RemoteChunkHasher::finish(const std::function<bool(int)> &isDone)
{
    if (auto drained = drain(isDone); !drained) return drained.error();
    QList<QByteArray> digests(m_chunkCount);
    int found = 0;
    static const QRegularExpression line(QStringLiteral("^(\\d+) ([0-9a-f]{64})$"), QRegularExpression::MultilineOption);
    for (auto it = line.globalMatch(QString::fromLatin1(m_out)); it.hasNext();) {
        const auto m = it.next();
        const int chunk = m.captured(1).toInt();
        if (chunk < 0 || chunk >= m_chunkCount || !digests[chunk].isEmpty()) continue;
        digests[chunk] = m.captured(2).toLatin1();
        ++found;
    }
    if (found != m_chunkCount) {
        const QString why = QString::fromUtf8(m_err).trimmed();
        return failure(why.isEmpty() ? QStringLiteral("%1 of %2 chunks answered").arg(found).arg(m_chunkCount) : why);
    }
    return digests;
}

Result<QByteArray> RemoteChunkHasher::finishWhole(const std::function<bool(int)> &isDone)
{
    if (auto drained = drain(isDone); !drained) return drained.error();
    static const QRegularExpression line(QStringLiteral("^whole ([0-9a-f]{64})$"), QRegularExpression::MultilineOption);
    const auto m = line.match(QString::fromLatin1(m_out));
    if (!m.hasMatch()) {
        const QString why = QString::fromUtf8(m_err).trimmed();
        return failure(why.isEmpty() ? QStringLiteral("no digest answered") : why);
    }
    return m.captured(1).toLatin1();
}

Result<QByteArray> remoteSha256(ssh::Session &session, const QString &path)
{
    auto out = session.run(hashCommand(path), 60 * 60 * 1000);
    if (!out) return out.error();
    static const QRegularExpression hex(QStringLiteral("^([0-9a-f]{64})"), QRegularExpression::MultilineOption);
    const auto m = hex.match(QString::fromUtf8(out->out));
    if (out->exitStatus != 0 || !m.hasMatch()) {
        return Error{ErrorCode::RemoteFailed,
                     TransferText::tr("Cannot compute SHA-256 of %1 on the host: %2")
                         .arg(path, QString::fromUtf8(out->err).trimmed())};
    }
    return m.captured(1).toLatin1();
}

Result<QByteArray> sftpSha256(SftpClient &sftp, const QString &path)
{
    auto handle = sftp.open(path, SftpClient::OpenRead);
    if (!handle) return handle.error();
    Sha256 hash;
    QMap<quint64, QByteArray> pending; // replies can only be hashed in file order
    QHash<quint32, quint64> inflight;
    quint64 next = 0;     // next offset to request
    quint64 hashed = 0;   // bytes hashed so far
    bool eof = false;
    const quint32 len = sftp.maxRead();
    std::optional<Error> failure;
    while (!failure) {
        while (!eof && inflight.size() < 16) {
            auto id = sftp.sendRead(*handle, next, len);
            if (!id) return id.error();
            inflight.insert(*id, next);
            next += len;
        }
        if (inflight.isEmpty()) break;
        auto reply = sftp.next();
        if (!reply) return reply.error();
        if (!inflight.contains(reply->id)) continue; // an earlier request's answer, not a read of ours
        const quint64 offset = inflight.take(reply->id);
        if (reply->type == SftpClient::Status) {
            if (reply->status() == SftpClient::StatusEof) {
                eof = true;
            } else {
                auto st = sftp.checkStatus(*reply, TransferText::tr("Reading"), path);
                failure = st ? Error{ErrorCode::RemoteFailed, path} : st.error();
            }
            continue;
        }
        QByteArray data;
        sftpwire::Reader(reply->body).string(&data);
        if (quint32(data.size()) < len) eof = true; // short read: OpenSSH only does this at the end
        pending.insert(offset, data);
        while (!pending.isEmpty() && pending.firstKey() == hashed) {
            const QByteArray chunk = pending.take(hashed);
            hash.add(chunk);
            hashed += quint64(chunk.size());
            if (chunk.isEmpty()) break;
        }
    }
    (void)sftp.close(*handle);
    if (failure) return *failure;
    return hash.hexDigest();
}

QString formatBytes(quint64 bytes)
{
    // A size that saturated (a host's lying listing summed to 2^64 - 1) must not read "-1 bytes".
    const quint64 shown = std::min<quint64>(bytes, quint64(std::numeric_limits<qint64>::max()));
    // The C locale's "bytes" is English in every language (#32: "92 bytes" in Chinese); the
    // larger units read the same everywhere.
    if (shown < 1024)
        return TransferText::tr("%1 bytes").arg(shown);
    return QLocale::c().formattedDataSize(qint64(shown), 1, QLocale::DataSizeTraditionalFormat);
}

Error classifyWriteFailure(SftpClient &sftp, const Error &original, const QString &partialPath, quint64 bytesStillNeeded)
{
    if (original.code == ErrorCode::ConnectFailed || original.code == ErrorCode::Cancelled
        || original.code == ErrorCode::PermissionDenied) {
        return original;
    }
    // sftp-server reports ENOSPC and EDQUOT as a bare "Failure": look at the free space.
    auto space = sftp.statvfs(remoteParent(partialPath));
    if (space && space->freeBytes < std::max<quint64>(bytesStillNeeded, 1024 * 1024)) {
        return Error{ErrorCode::DiskFull,
                     TransferText::tr("The disk on %1 is full: %2 free in %3, %4 more needed. "
                                                             "The partial file %5 is kept; free some space and retry "
                                                             "to continue where it stopped.")
                         .arg(sftp.label(), formatBytes(space->freeBytes), remoteParent(partialPath),
                              formatBytes(bytesStillNeeded), partialPath)};
    }
    return original;
}

qint64 checksumListingLimit(const ssh::OutputLimits &limits)
{
    constexpr qint64 kBytesPerFile = 256; // "SIZE\t./PATH\0" + "HEX  ./PATH\n", paths of ~90 bytes
    if (limits.maxOutputBytes <= 0 || limits.maxListEntries <= 0) return 0;
    return std::max(limits.maxOutputBytes, limits.maxListEntries * kBytesPerFile);
}

bool outputLimitReached(const ssh::Session &session, qint64 bytes)
{
    const qint64 limit = session.limits().maxOutputBytes;
    return limit > 0 && bytes > limit;
}

QString remoteParent(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    if (slash < 0) return QStringLiteral(".");
    if (slash == 0) return QStringLiteral("/");
    return path.left(slash);
}

bool changeShowsIn(const QString &shownDir, const QString &changedPath)
{
    auto trimmed = [](QString path) {
        while (path.size() > 1 && path.endsWith(QLatin1Char('/'))) path.chop(1);
        return path;
    };
    const QString shown = trimmed(shownDir);
    const QString changed = trimmed(changedPath);
    if (shown.isEmpty() || changed.isEmpty()) return false;
    auto within = [](const QString &inner, const QString &outer) {
        return inner == outer || inner.startsWith(outer == QLatin1String("/") ? outer : outer + QLatin1Char('/'));
    };
    return within(changed, shown) || within(shown, changed);
}

QString remoteJoin(const QString &dir, const QString &name)
{
    if (dir.isEmpty()) return name;
    if (dir.endsWith(QLatin1Char('/'))) return dir + name;
    return dir + QLatin1Char('/') + name;
}

QString remoteBaseName(const QString &path)
{
    QString p = path;
    while (p.size() > 1 && p.endsWith(QLatin1Char('/'))) p.chop(1);
    return p.mid(p.lastIndexOf(QLatin1Char('/')) + 1);
}

QString firstFreeName(const QString &path, const std::function<bool(const QString &)> &exists)
{
    const QString dir = remoteParent(path);
    const QString base = remoteBaseName(path);
    qsizetype dot = base.lastIndexOf(QLatin1Char('.'));
    if (dot <= 0) dot = base.size();
    const QString stem = base.left(dot);
    const QString ext = base.mid(dot);
    for (int i = 1; i < 10000; ++i) {
        const QString candidate = remoteJoin(dir, QStringLiteral("%1 (%2)%3").arg(stem).arg(i).arg(ext));
        if (!exists(candidate)) return candidate;
    }
    return path;
}

} // namespace gantry::transfer
