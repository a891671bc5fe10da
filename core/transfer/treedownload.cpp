#include "treetransfer.h"

#include "transfer/localwrite.h"
#include "transfer/remoteops.h"
#include "transfer/sha256.h"

#include <archive.h>
#include <archive_entry.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace gantry::transfer {

namespace {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class TransferText
{
    Q_DECLARE_TR_FUNCTIONS(Transfer)
};

struct TarSource
{
    ssh::Channel *channel = nullptr;
    QByteArray buffer;
    QByteArray err;
    quint64 wire = 0;
    const std::atomic_bool *cancel{nullptr};  // brace init: lupdate misparses "std::X *p = nullptr;" before a member function
};

Error unexpectedEntry(const QString &host, const QString &remoteFolder, const QString &entry, const QString &localTop)
{
    return Error{ErrorCode::RemoteFailed, TransferText::tr("%1 sent \"%2\" for %3, which would land outside %4; the download was stopped "
                                                           "and nothing was written there. Check the host (it may be compromised) "
                                                           "before fetching from it again.")
                                              .arg(host, entry.left(200), remoteFolder, localTop)};
}

// Writes the current entry's data into `partial` (no symlink followed, parent folder inside
// localTop) and returns its SHA-256; ConnectFailed when the stream broke off.
Result<QByteArray> extractEntry(struct archive *in, const QString &partial, const QString &localTop, TransferContext &ctx,
                                quint64 *payload)
{
    const QString folder = QFileInfo(partial).absolutePath();
    QDir().mkpath(folder);
    const QString canonicalTop = QFileInfo(localTop).canonicalFilePath();
    const QString canonicalFolder = QFileInfo(folder).canonicalFilePath();
    if (canonicalTop.isEmpty() || (canonicalFolder != canonicalTop && !canonicalFolder.startsWith(canonicalTop + QLatin1Char('/')))) {
        return Error{ErrorCode::PermissionDenied, TransferText::tr("%1 leads outside %2 through a symbolic link; nothing was written "
                                                                   "there. Remove the link or pick another destination and retry.")
                                                      .arg(folder, localTop)};
    }
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

la_ssize_t tarRead(struct archive *, void *client, const void **data)
{
    auto *src = static_cast<TarSource *>(client);
    src->buffer.clear();
    while (src->buffer.isEmpty()) {
        if (src->cancel && src->cancel->load()) return -1;
        if (src->channel->isEof()) return 0;
        auto r = src->channel->read(1000, &src->err);
        if (!r) return -1;
        src->buffer = *r;
    }
    src->wire += quint64(src->buffer.size());
    *data = src->buffer.constData();
    return la_ssize_t(src->buffer.size());
}

// What the host says the folder holds: sizes (progress) and SHA-256 hashes (the check), keyed
// by the path below the folder's parent.
struct RemoteListing
{
    QHash<QString, quint64> sizes;
    QHash<QString, QByteArray> expected;
};

// One remote command for sizes and hashes: each command pays for the login shell's start-up files.
Result<RemoteListing> listRemoteFolder(TransferContext &ctx, ssh::Session &session, const QString &remoteFolder,
                                       const QString &parent, const QString &name)
{
    // "./NAME": a folder named "-delete" must reach find as a path, not as an option.
    const QString dotName = ssh::shellQuote(QStringLiteral("./") + name);
    auto sums = session.run(QStringLiteral("cd -- %1 && find %2 -type f -printf '%s\\t%p\\0' && printf 'gantry-sums\\0' && "
                                           "find %2 -type f -print0 | xargs -0 -r sha256sum --")
                                .arg(ssh::shellQuote(parent), dotName), 60 * 60 * 1000, checksumListingLimit(session.limits()));
    RemoteListing listing;
    if (sums) {
        const qsizetype marker = sums->out.indexOf(QByteArray("gantry-sums", 12));
        const QByteArray sizeRecords = marker >= 0 ? sums->out.left(marker) : QByteArray();
        for (const QByteArray &rec : sizeRecords.split('\0')) {
            const qsizetype tab = rec.indexOf('\t');
            if (tab > 0) listing.sizes.insert(QString::fromUtf8(rec.mid(tab + 1 + 2)), rec.left(tab).toULongLong()); // "./"
        }
        if (marker >= 0) sums->out = sums->out.mid(marker + 12);
    }
    if (!sums || sums->exitStatus != 0) {
        return Error{ErrorCode::RemoteFailed, TransferText::tr("Cannot list %1 on %2: %3")
                                                  .arg(remoteFolder, ctx.host(),
                                                       sums ? QString::fromUtf8(sums->err).trimmed() : sums.error().message)};
    }
    if (auto listed = checkEntryCount(session, ctx.host(), remoteFolder, listing.sizes.size()); !listed) return listed.error();
    for (const QByteArray &line : sums->out.split('\n')) {
        if (line.size() < 67) continue;
        if (line.mid(64, 4) == "  ./") listing.expected.insert(QString::fromUtf8(line.mid(68)), line.left(64));
    }
    return listing;
}

// What arrived so far, for the check at the end.
struct DownloadTally
{
    quint64 payload = 0;
    int mismatches = 0;
    int skippedEntries = 0; // not regular files: not copied, so the folder is not verified
    int unchecked = 0;      // arrived without a hash in the host's listing
    QSet<QString> received;
    QString firstMismatch;
};

// Unpacks a remote `tar -c` stream below localTop, one entry at a time.
class TarUnpacker
{
public:
    TarUnpacker(TransferContext &ctx, struct archive *in, const QString &remoteFolder, const QString &name,
                const QString &localTop, ConflictPolicy policy, const RemoteListing &listing, TransferOutcome &outcome)
        : m_ctx(ctx), m_in(in), m_remoteFolder(remoteFolder), m_name(name), m_localTop(localTop), m_policy(policy),
          m_listing(listing), m_outcome(outcome)
    {
    }

    // Reads every entry; the error that stopped it, if any.
    std::optional<Error> unpackAll()
    {
        struct archive_entry *entry = nullptr;
        while (true) {
            const int rc = archive_read_next_header(m_in, &entry);
            if (rc == ARCHIVE_EOF) return std::nullopt;
            if (rc < ARCHIVE_WARN) {
                return m_ctx.cancelled() ? Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")}
                                         : Error{ErrorCode::ConnectFailed,
                                                 TransferText::tr("Downloading %1 from %2 broke off: %3. Retry to fetch it again.")
                                                     .arg(m_remoteFolder, m_ctx.host(), QString::fromUtf8(archive_error_string(m_in)))};
            }
            if (auto failure = unpackEntry(entry)) return failure;
        }
    }

    const DownloadTally &tally() const { return m_tally; }

private:
    std::optional<Error> unpackEntry(struct archive_entry *entry)
    {
        QString rel = QString::fromUtf8(archive_entry_pathname_utf8(entry) ? archive_entry_pathname_utf8(entry)
                                                                           : archive_entry_pathname(entry));
        if (rel.endsWith(QLatin1Char('/'))) rel.chop(1);
        // Only NAME and what is under NAME/ may be written, and only below localTop.
        const auto local = localPathForEntry(rel, m_name, m_localTop);
        if (!local) return unexpectedEntry(m_ctx.host(), m_remoteFolder, rel, m_localTop);
        const auto type = archive_entry_filetype(entry);
        if (type == AE_IFDIR) {
            QDir().mkpath(*local);
            return std::nullopt;
        }
        if (type != AE_IFREG) {
            m_outcome.notes.append(TransferText::tr("Skipped %1: not a regular file.").arg(rel));
            m_tally.skippedEntries += 1;
            return std::nullopt;
        }
        if (QFileInfo::exists(*local) && m_policy != ConflictPolicy::Overwrite) {
            if (m_policy == ConflictPolicy::Skip
                || (m_policy == ConflictPolicy::Resume && quint64(QFileInfo(*local).size()) == quint64(archive_entry_size(entry)))) {
                m_ctx.addResumed(quint64(archive_entry_size(entry)));
                m_ctx.addFilesDone(1);
                m_tally.received.insert(rel);
                archive_read_data_skip(m_in);
                return std::nullopt;
            }
            return Error{ErrorCode::Conflict, TransferText::tr("%1 already exists here (and differs). Choose overwrite, skip, "
                                                               "resume or rename.").arg(*local)};
        }
        return unpackFile(rel, *local);
    }

    // Written under a temporary name and renamed once complete and checked: never a partial
    // file under its final name.
    std::optional<Error> unpackFile(const QString &rel, const QString &local)
    {
        m_ctx.setCurrentFile(rel);
        const QString partial = local + QStringLiteral(".gantry-partial");
        auto digest = extractEntry(m_in, partial, m_localTop, m_ctx, &m_tally.payload);
        if (!digest) {
            return digest.error().code == ErrorCode::ConnectFailed
                       ? Error{ErrorCode::ConnectFailed, TransferText::tr("Downloading %1 from %2 broke off. Retry to fetch it again.")
                                                             .arg(m_remoteFolder, m_ctx.host())}
                       : digest.error();
        }
        m_tally.received.insert(rel);
        const auto &expected = m_listing.expected;
        if (!expected.contains(rel)) m_tally.unchecked += 1;
        if (expected.contains(rel) && expected.value(rel) != *digest) {
            m_tally.mismatches += 1;
            if (m_tally.firstMismatch.isEmpty()) m_tally.firstMismatch = rel;
            QFile::remove(partial);
            return std::nullopt;
        }
        if (std::rename(QFile::encodeName(partial).constData(), QFile::encodeName(local).constData()) != 0) {
            const Error failure{ErrorCode::Io, TransferText::tr("Cannot rename %1 to %2: %3. Check the folder's permissions and retry.")
                                                   .arg(partial, local, QString::fromLocal8Bit(std::strerror(errno)))};
            QFile::remove(partial);
            return failure;
        }
        m_ctx.addFilesDone(1);
        return std::nullopt;
    }

    TransferContext &m_ctx;
    struct archive *m_in;
    const QString &m_remoteFolder;
    const QString &m_name;
    const QString &m_localTop;
    ConflictPolicy m_policy;
    const RemoteListing &m_listing;
    TransferOutcome &m_outcome;
    DownloadTally m_tally;
};

// The verdict once the stream is unpacked: mismatches fail, missing or unchecked files are noted.
Result<TransferOutcome> checkArrivals(TransferOutcome outcome, const DownloadTally &tally, const RemoteListing &listing)
{
    if (tally.mismatches > 0) {
        return Error{ErrorCode::RemoteFailed, TransferText::tr("Integrity check failed for %n file(s), e.g. %1 (changed on the host "
                                                               "while downloading?). Retry to fetch them again.", nullptr,
                                                               tally.mismatches)
                                                  .arg(tally.firstMismatch)};
    }
    int missing = 0;
    for (auto it = listing.expected.constBegin(); it != listing.expected.constEnd(); ++it) {
        missing += tally.received.contains(it.key()) ? 0 : 1;
    }
    if (missing > 0) {
        outcome.notes.append(TransferText::tr("%n file(s) listed on the host did not arrive; retry to fetch them.", nullptr, missing));
    }
    if (tally.unchecked > 0) {
        outcome.notes.append(TransferText::tr("%n file(s) arrived without a checksum from the host and are not verified.", nullptr,
                                tally.unchecked));
    }
    outcome.verified = tally.skippedEntries == 0 && tally.unchecked == 0 && missing == 0;
    return outcome;
}

} // namespace

Result<TransferOutcome> downloadTree(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                     const QString &remoteFolder, const QString &localTop, ConflictPolicy policy)
{
    QElapsedTimer timer;
    timer.start();
    TransferOutcome outcome;
    outcome.destination = localTop;
    auto attrs = sftp.stat(remoteFolder);
    if (!attrs) return attrs.error();
    const QString parent = remoteParent(remoteFolder);
    const QString name = remoteBaseName(remoteFolder);
    if (!isPlainName(name)) {
        return Error{ErrorCode::Usage, TransferText::tr("%1 does not name a folder on %2 (it ends in '.', '..' or '/'). Name the folder "
                                                        "itself, e.g. /data/run1, and retry.").arg(remoteFolder, ctx.host())};
    }
    // Remote manifest first: sizes for progress and hashes for the check.
    const auto listing = listRemoteFolder(ctx, session, remoteFolder, parent, name);
    if (!listing) return listing.error();
    quint64 total = 0;
    for (quint64 s : std::as_const(listing->sizes)) total = total + s < total ? ~quint64(0) : total + s; // a host can report any size
    ctx.addTotals(total, int(listing->sizes.size()));
    outcome.totalBytes = total;
    outcome.files = int(listing->sizes.size());

    const QString localParent = QFileInfo(localTop).absolutePath();
    if (!QDir().mkpath(localParent)) {
        return Error{ErrorCode::PermissionDenied, TransferText::tr("Cannot create the local folder %1.").arg(localParent)};
    }
    if (auto space = checkLocalSpace(localParent, total, QFileInfo(localTop).fileName()); !space) return space.error();
    auto channel = session.openExec(QStringLiteral("cd -- %1 && exec tar -c -f - -- %2")
                                        .arg(ssh::shellQuote(parent), ssh::shellQuote(name)));
    if (!channel) return channel.error();
    TarSource src;
    src.channel = channel->get();
    src.cancel = ctx.cancel();
    struct archive *in = archive_read_new();
    archive_read_support_format_tar(in);
    archive_read_open(in, &src, nullptr, tarRead, nullptr);
    TarUnpacker unpacker(ctx, in, remoteFolder, name, localTop, policy, *listing, outcome);
    const auto failure = unpacker.unpackAll();
    archive_read_free(in);
    ctx.addDone(0, src.wire);
    outcome.payloadBytes = unpacker.tally().payload;
    outcome.wireBytes = src.wire;
    if (failure) return *failure;
    auto checked = checkArrivals(std::move(outcome), unpacker.tally(), *listing);
    if (checked) checked->seconds = double(timer.elapsed()) / 1000.0;
    return checked;
}

} // namespace gantry::transfer
