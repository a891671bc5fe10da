#include "core/transfer/tarbatchdownload.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/localwrite.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/sha256.h"
#include "core/transfer/tarbatchwarmup.h"

#include <archive.h>
#include <archive_entry.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <memory>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

namespace gantry::transfer {

namespace {

struct TarSource
{
    ssh::Channel *channel = nullptr;
    QByteArray buffer;
    QByteArray err; // the remote stderr: the digest lines, tar's complaints
    quint64 wire = 0;
    qint64 errLimit = 0;
    const std::atomic_bool *cancel{nullptr};  // brace init: lupdate misparses "std::X *p = nullptr;" before a member function
};

la_ssize_t tarRead(struct archive *, void *client, const void **data)
{
    auto *src = static_cast<TarSource *>(client);
    src->buffer.clear();
    while (src->buffer.isEmpty()) {
        if (src->cancel && src->cancel->load()) return -1;
        if (src->channel->isEof()) return 0;
        auto r = src->channel->read(1000, &src->err);
        if (!r || src->err.size() > src->errLimit) return -1;
        src->buffer = *r;
    }
    src->wire += quint64(src->buffer.size());
    *data = src->buffer.constData();
    return la_ssize_t(src->buffer.size());
}

Error unexpectedEntry(const QString &host, const QString &remoteFolder, const QString &entry, const QString &localTop)
{
    return Error{ErrorCode::RemoteFailed, TransferText::tr("%1 sent \"%2\" for %3, which would land outside %4; the download was stopped "
                                                           "and nothing was written there. Check the host (it may be compromised) "
                                                           "before fetching from it again.")
                                              .arg(host, entry.left(200), remoteFolder, localTop)};
}

// Creates `folder` and checks that it lies inside localTop with no symbolic link on the way.
Result<void> folderInside(const QString &folder, const QString &localTop)
{
    QDir().mkpath(folder);
    const QString canonicalTop = QFileInfo(localTop).canonicalFilePath();
    const QString canonicalFolder = QFileInfo(folder).canonicalFilePath();
    if (canonicalTop.isEmpty() || (canonicalFolder != canonicalTop && !canonicalFolder.startsWith(canonicalTop + QLatin1Char('/')))) {
        return Error{ErrorCode::PermissionDenied, TransferText::tr("%1 leads outside %2 through a symbolic link; nothing was written "
                                                                   "there. Remove the link or pick another destination and retry.")
                                                      .arg(folder, localTop)};
    }
    return {};
}

// Writes the current entry's data into `partial` (a file of the batch's staging folder, checked
// once by the batch) and returns its SHA-256; ConnectFailed when the stream broke off.
Result<QByteArray> extractEntry(struct archive *in, const QString &partial, TransferContext &ctx, quint64 *payload)
{
    LocalFile out;
    if (auto opened = out.open(partial, LocalFile::Create); !opened) return opened.error();
    Sha256 hash;
    const void *block = nullptr;
    size_t size = 0;
    la_int64_t offset = 0;
    int r = ARCHIVE_OK;
    while ((r = archive_read_data_block(in, &block, &size, &offset)) == ARCHIVE_OK) {
        if (auto w = out.writeAt(quint64(offset), static_cast<const char *>(block), size); !w) {
            out.close();
            QFile::remove(partial);
            return w.error();
        }
        hash.add(static_cast<const char *>(block), size);
        *payload += size;
        ctx.addDone(quint64(size), 0);
    }
    out.close();
    if (r < ARCHIVE_WARN) {
        QFile::remove(partial);
        return Error{ErrorCode::ConnectFailed, QString()};
    }
    return hash.hexDigest();
}

// The host's digest lines keyed as the batch's names are (QString, without "./").
QHash<QString, QByteArray> parseManifest(const QByteArray &err)
{
    QHash<QString, QByteArray> sums;
    const auto lines = parseDigestLines(err);
    for (auto it = lines.cbegin(); it != lines.cend(); ++it) sums.insert(QString::fromUtf8(it.key()), it.value());
    return sums;
}

} // namespace

// The remote side of one batch: names from stdin into a private temp file, tar of exactly those
// (no recursion: a name that became a folder does not pull in its content), then their hashes.
QString downloadBatchCommand(const QString &parent)
{
    return QStringLiteral("cd -- %1 && t=$(mktemp) && trap 'rm -f -- \"$t\"' EXIT && cat > \"$t\" && "
                          "{ tar -c -f - --null --no-recursion -T \"$t\"; rc=$?; "
                          "%2 >&2; exit $rc; }")
        .arg(ssh::shellQuote(parent), digestNamesCommand(QStringLiteral("\"$t\"")));
}

namespace {

QString batchCommand(const QString &parent)
{
    return downloadBatchCommand(parent);
}

// Unpacks one batch's tar stream; files wait in the batch's own staging folder until settle().
// Staged under numbers in a folder made for this batch (never "NAME.partial" beside the file): a
// name a listing can produce — a left-over "x.gantry-partial" beside "x" — must not be able to
// stand for another file's staging copy.
class BatchUnpacker
{
public:
    BatchUnpacker(TransferContext &ctx, struct archive *in, const TreeDownloadSpec &spec, const QSet<QString> &requested,
                  DownloadTally &tally)
        : m_ctx(ctx), m_in(in), m_spec(spec), m_requested(requested), m_tally(tally)
    {
        // Beside the folder, where the download writes no other name (so no file of the listing can
        // be mistaken for it, nor it for one); inside it when the parent cannot be written.
        m_stagingBase = QFileInfo(spec.localTop).absolutePath();
        m_staging = std::make_unique<QTemporaryDir>(QDir(m_stagingBase).filePath(QStringLiteral(".gantry-staging-XXXXXX")));
        if (!m_staging->isValid()) {
            m_stagingBase = spec.localTop;
            m_staging = std::make_unique<QTemporaryDir>(QDir(m_stagingBase).filePath(QStringLiteral(".gantry-staging-XXXXXX")));
        }
    }
    ~BatchUnpacker() = default; // the staging folder goes with what is still in it

    std::optional<Error> unpackAll()
    {
        if (!m_staging->isValid())
            return Error{ErrorCode::Io, TransferText::tr("Cannot create a staging folder in %1: %2. Check the folder's permissions and "
                                                         "free space, then retry.")
                                            .arg(m_spec.localTop, m_staging->errorString())};
        if (Result<void> inside = folderInside(m_staging->path(), m_stagingBase); !inside) return inside.error();
        struct archive_entry *entry = nullptr;
        while (true) {
            const int rc = archive_read_next_header(m_in, &entry);
            if (rc == ARCHIVE_EOF) return std::nullopt;
            if (rc < ARCHIVE_WARN) {
                return m_ctx.cancelled() ? Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")}
                                         : Error{ErrorCode::ConnectFailed,
                                                 TransferText::tr("Downloading %1 from %2 broke off: %3. Retry to fetch it again.")
                                                     .arg(m_spec.remoteFolder, m_ctx.host(), QString::fromUtf8(archive_error_string(m_in)))};
            }
            if (auto failure = unpackEntry(entry)) return failure;
        }
    }

    // Renames every file whose hash the host confirmed (or did not give); removes mismatches.
    std::optional<Error> settle(const QHash<QString, QByteArray> &manifest)
    {
        while (!m_pending.isEmpty()) {
            const Pending p = m_pending.takeLast();
            m_tally.received.insert(p.rel);
            const auto it = manifest.constFind(p.rel);
            if (it == manifest.constEnd()) m_tally.unchecked += 1;
            if (it != manifest.constEnd() && it.value() != p.digest) {
                mismatch(p.rel);
                QFile::remove(p.partial);
                continue;
            }
            if (Result<void> inside = folderInside(QFileInfo(p.local).absolutePath(), m_spec.localTop); !inside) return inside.error();
            if (std::rename(QFile::encodeName(p.partial).constData(), QFile::encodeName(p.local).constData()) != 0) {
                const Error failure{ErrorCode::Io, TransferText::tr("Cannot rename %1 to %2: %3. Check the folder's permissions and retry.")
                                                       .arg(p.partial, p.local, QString::fromLocal8Bit(std::strerror(errno)))};
                QFile::remove(p.partial);
                return failure;
            }
            // What landed is what was checked: the staged copy's size, under the file's own name.
            if (QFileInfo(p.local).size() != p.size) {
                mismatch(p.rel);
                continue;
            }
            m_ctx.addFilesDone(1);
        }
        return std::nullopt;
    }

private:
    struct Pending
    {
        QString rel, partial, local;
        QByteArray digest;
        qint64 size = 0;
    };

    void mismatch(const QString &rel)
    {
        m_tally.mismatches += 1;
        if (m_tally.firstMismatch.isEmpty()) m_tally.firstMismatch = rel;
    }

    std::optional<Error> unpackEntry(struct archive_entry *entry)
    {
        QString rel = QString::fromUtf8(archive_entry_pathname_utf8(entry) ? archive_entry_pathname_utf8(entry)
                                                                           : archive_entry_pathname(entry));
        if (rel.startsWith(QLatin1String("./"))) rel.remove(0, 2);
        if (rel.endsWith(QLatin1Char('/'))) rel.chop(1);
        // Only NAME and what is under NAME/ may be written, and only below localTop.
        const auto local = localPathForEntry(rel, m_spec.name, m_spec.localTop);
        if (!local) return unexpectedEntry(m_ctx.host(), m_spec.remoteFolder, rel, m_spec.localTop);
        const auto type = archive_entry_filetype(entry);
        if (type == AE_IFDIR) return std::nullopt; // folders come from the listing
        if (type != AE_IFREG) {
            m_tally.notes.append(TransferText::tr("Skipped %1: not a regular file.").arg(rel));
            m_tally.skippedEntries += 1;
            return std::nullopt;
        }
        // Only what this batch asked for, once, and no larger than listed (the free space was
        // checked against the listing): a file that grew since is a mismatch, not written.
        if (!m_requested.contains(rel) || m_seen.contains(rel)) return std::nullopt;
        m_seen.insert(rel);
        if (archive_entry_size(entry) < 0 || quint64(archive_entry_size(entry)) > m_spec.sizes.value(rel)) {
            mismatch(rel);
            return std::nullopt;
        }
        m_ctx.setCurrentFile(rel);
        Pending p{rel, m_staging->filePath(QString::number(m_staged++)), *local, {}};
        auto digest = extractEntry(m_in, p.partial, m_ctx, &m_tally.payload);
        if (!digest) {
            return digest.error().code == ErrorCode::ConnectFailed
                       ? Error{ErrorCode::ConnectFailed, TransferText::tr("Downloading %1 from %2 broke off. Retry to fetch it again.")
                                                             .arg(m_spec.remoteFolder, m_ctx.host())}
                       : digest.error();
        }
        p.digest = *digest;
        p.size = QFileInfo(p.partial).size();
        m_pending.append(p);
        return std::nullopt;
    }

    TransferContext &m_ctx;
    struct archive *m_in;
    const TreeDownloadSpec &m_spec;
    const QSet<QString> &m_requested;
    DownloadTally &m_tally;
    QSet<QString> m_seen;
    QList<Pending> m_pending;
    QString m_stagingBase;
    std::unique_ptr<QTemporaryDir> m_staging;
    int m_staged = 0;
};

// Sends a started batch its names on stdin, then EOF (tar starts at once and its output waits in
// the channel's window while an earlier batch is read).
std::unique_ptr<ssh::Channel> feedBatch(Result<std::unique_ptr<ssh::Channel>> ch, const QStringList &names)
{
    if (!ch) return nullptr;
    QByteArray list;
    for (const QString &n : names) list += "./" + n.toUtf8() + '\0'; // "./": a name never reads as an option
    if (!(*ch)->write(list) || !(*ch)->sendEof()) return nullptr;
    return std::move(*ch);
}

std::unique_ptr<ssh::Channel> startBatch(ssh::Session &session, const QString &parent, const QStringList &names)
{
    return feedBatch(session.openExec(batchCommand(parent)), names);
}

// Reads one started batch to its end; tally receives what arrived.
std::optional<Error> readBatch(TransferContext &ctx, ssh::Session &session, ssh::Channel &channel, const TreeDownloadSpec &spec,
                               const QStringList &names, DownloadTally &tally)
{
    TarSource src;
    src.channel = &channel;
    src.cancel = ctx.cancel();
    src.errLimit = checksumListingLimit(session.limits());
    const QSet<QString> requested(names.cbegin(), names.cend());
    struct archive *in = archive_read_new();
    archive_read_support_format_tar(in);
    archive_read_open(in, &src, nullptr, tarRead, nullptr);
    BatchUnpacker unpacker(ctx, in, spec, requested, tally);
    auto failure = unpacker.unpackAll();
    archive_read_free(in);
    // The rest: tar's end blocks and the digest lines, which follow tar's output.
    QElapsedTimer waited;
    waited.start();
    while (!failure && !channel.isEof() && waited.elapsed() < 600000 && !ctx.cancelled()) {
        auto r = channel.read(200, &src.err);
        if (!r || src.err.size() > src.errLimit) break;
    }
    if (!failure && !channel.isEof()) {
        failure = ctx.cancelled() ? Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")}
                                  : Error{ErrorCode::ConnectFailed, TransferText::tr("Downloading %1 from %2 broke off. Retry to fetch it again.")
                                                                        .arg(spec.remoteFolder, ctx.host())};
    }
    if (!failure) failure = unpacker.settle(parseManifest(src.err));
    if (!failure && channel.exitStatus().value_or(0) != 0) {
        // tar's or the shell's complaint (a file that vanished, no mktemp there…), for the note on
        // what did not arrive.
        QByteArray why;
        for (const QByteArray &line : src.err.split('\n')) {
            if (!line.isEmpty() && !parseManifest(line).isEmpty()) continue;
            why += line.trimmed() + ' ';
        }
        if (!why.trimmed().isEmpty()) {
            tally.notes.append(TransferText::tr("%1 reported: %2").arg(ctx.host(), QString::fromUtf8(why.trimmed().left(300))));
        }
    }
    tally.wire += src.wire;
    ctx.addDone(0, src.wire);
    return failure;
}

// Every session takes the next batch nobody has taken yet, and starts the one after it while
// the current one streams (the shell start-up and tar's first bytes are hidden). A helper that
// cannot connect, or is slow, simply takes fewer: the others finish the folder.
class StripedTarDownload
{
    struct Started
    {
        int batch = -1;
        std::unique_ptr<ssh::Channel> channel; // null: it could not be started
    };

public:
    StripedTarDownload(TransferContext &ctx, const TreeDownloadSpec &spec, const QList<QStringList> &batches, DownloadTally &tally)
        : m_ctx(ctx), m_spec(spec), m_batches(batches), m_tally(tally)
    {
    }

    // Helpers: the warm ones first (their sessions took pool indices 0…warm-1), then cold ones.
    std::optional<Error> run(ssh::Session &primary, int sessions, SessionPool &pool, FirstBatches &first)
    {
        const int warm = first.helpers ? first.helpers->start([this](WarmSession &w) { fetch(*w.session, std::move(w.channels)); }) : 0;
        std::vector<std::thread> helpers;
        for (int k = 1 + warm; k < sessions; ++k) {
            helpers.emplace_back([this, k, &pool] {
                auto own = pool.take(k - 1);
                if (own) fetch(**own);
            });
        }
        fetch(primary, std::move(first.primary));
        for (auto &t : helpers) t.join();
        if (first.helpers) first.helpers->join();
        return m_failure;
    }

private:
    // The next batch to start; -1 when none is left or the download stopped.
    int claim()
    {
        std::lock_guard lock(m_mutex);
        if (m_failure || m_next >= m_batches.size()) return -1;
        return m_next++;
    }

    bool record(DownloadTally &part, const std::optional<Error> &failure)
    {
        std::lock_guard lock(m_mutex);
        m_tally.payload += part.payload;
        m_tally.wire += part.wire;
        m_tally.mismatches += part.mismatches;
        m_tally.skippedEntries += part.skippedEntries;
        m_tally.unchecked += part.unchecked;
        m_tally.received.unite(part.received);
        if (m_tally.firstMismatch.isEmpty()) m_tally.firstMismatch = part.firstMismatch;
        m_tally.notes += part.notes;
        if (failure && !m_failure) m_failure = failure;
        return !failure;
    }

    // Commands for the session's first batches, opened together (in the same two round trips),
    // each fed the names of a batch claimed for it; a command no batch is left for ends.
    std::deque<Started> feedFirst(ssh::Session &own, std::vector<std::unique_ptr<ssh::Channel>> warm)
    {
        // Warm commands (started while the folder was listed) take one batch each; without any,
        // the session opens commands for its first kDownloadBatchesAhead batches.
        const size_t wanted = warm.empty() ? size_t(kDownloadBatchesAhead) : warm.size();
        std::vector<int> claimed;
        while (claimed.size() < wanted) {
            const int b = claim();
            if (b < 0) break;
            claimed.push_back(b);
        }
        if (warm.empty() && !claimed.empty()) {
            for (auto &opened : own.openExecs(QStringList(int(claimed.size()), batchCommand(m_spec.parent))))
                warm.push_back(opened ? std::move(*opened) : nullptr);
        }
        std::deque<Started> started;
        for (size_t k = 0; k < claimed.size(); ++k) {
            const int b = claimed[k];
            started.push_back({b, warm[k] ? feedBatch(std::move(warm[k]), m_batches[b]) : nullptr});
        }
        return started;
    }

    // A session reads its batches one after another; as one ends, the command of the batch
    // kDownloadBatchesAhead after it starts. Where the login shell is slow (conda or pyenv init
    // taking a second) it starts as the batch begins instead, while three batches still stream:
    // on a fast one, four tar commands a session at once only crowd the host's CPUs.
    void fetch(ssh::Session &own, std::vector<std::unique_ptr<ssh::Channel>> warm = {})
    {
        std::deque<Started> started = feedFirst(own, std::move(warm));
        const auto startNext = [&] {
            if (const int n = claim(); n >= 0) started.push_back({n, startBatch(own, m_spec.parent, m_batches[n])});
        };
        while (!started.empty()) {
            const int b = started.front().batch;
            std::unique_ptr<ssh::Channel> current = std::move(started.front().channel);
            started.pop_front();
            // A command refused when it was started ahead (a host's MaxSessions below OpenSSH's
            // 10, with the SFTP channel and three commands open) gets a second try now that the
            // batches before it are closed.
            if (!current && !m_ctx.cancelled()) current = startBatch(own, m_spec.parent, m_batches[b]);
            if (m_spec.slowShell && current && !m_ctx.cancelled()) startNext();
            DownloadTally part;
            std::optional<Error> failure;
            if (m_ctx.cancelled()) {
                failure = Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")};
            } else if (!current) {
                failure = Error{ErrorCode::ConnectFailed, TransferText::tr("Cannot start fetching %1 from %2. Retry to fetch it again.")
                                                              .arg(m_spec.remoteFolder, m_ctx.host())};
            } else {
                failure = readBatch(m_ctx, own, *current, m_spec, m_batches[b], part);
            }
            current.reset();
            if (!record(part, failure)) return; // the commands started ahead end with their channels
            if (!m_spec.slowShell) startNext();
        }
    }

    TransferContext &m_ctx;
    const TreeDownloadSpec &m_spec;
    const QList<QStringList> &m_batches;
    DownloadTally &m_tally;
    qsizetype m_next = 0;
    std::mutex m_mutex;
    std::optional<Error> m_failure;
};

} // namespace

std::optional<Error> fetchBatches(TransferContext &ctx, ssh::Session &primary, const TreeDownloadSpec &spec,
                                  const QList<QStringList> &batches, int sessions, SessionPool &pool, DownloadTally &tally,
                                  FirstBatches first)
{
    if (batches.isEmpty()) return std::nullopt;
    StripedTarDownload download(ctx, spec, batches, tally);
    return download.run(primary, std::clamp(sessions, 1, int(batches.size())), pool, first);
}

} // namespace gantry::transfer
