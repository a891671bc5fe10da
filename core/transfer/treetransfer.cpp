#include "treetransfer.h"

#include "transfer/fileupload.h"
#include "transfer/localtree.h"
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
#include <QRandomGenerator>
#include <QSet>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

namespace gantry::transfer {

namespace {

constexpr int kBatchFiles = 10000;
constexpr quint64 kBatchBytes = 256ull * 1024 * 1024;

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class TransferText
{
    Q_DECLARE_TR_FUNCTIONS(Transfer)
};

// Bytes libarchive produces, gathered into large channel writes.
struct TarSink
{
    ssh::Channel *channel = nullptr;
    QByteArray buffer;
    quint64 wire = 0;
    std::optional<Error> error;
    const std::atomic_bool *cancel{nullptr};  // brace init: lupdate misparses "std::X *p = nullptr;" before a member function

    bool flush()
    {
        if (buffer.isEmpty() || error) return !error;
        if (cancel && cancel->load()) {
            error = Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")};
            return false;
        }
        if (auto w = channel->write(buffer); !w) {
            error = w.error();
            return false;
        }
        wire += quint64(buffer.size());
        buffer.clear();
        return true;
    }
};

la_ssize_t tarWrite(struct archive *, void *client, const void *data, size_t length)
{
    auto *sink = static_cast<TarSink *>(client);
    sink->buffer.append(static_cast<const char *>(data), qsizetype(length));
    if (sink->buffer.size() >= 256 * 1024 && !sink->flush()) return -1;
    return la_ssize_t(length);
}

// One sha256sum manifest line; names with '\' or newline use sha256sum's escaped form.
QByteArray manifestLine(const QByteArray &hash, const QString &name)
{
    QByteArray n = name.toUtf8();
    if (n.contains('\\') || n.contains('\n')) {
        n.replace("\\", "\\\\");
        n.replace("\n", "\\n");
        return "\\" + hash + "  " + n + "\n";
    }
    return hash + "  " + n + "\n";
}

Error classifyRemoteStderr(const QString &host, const QString &where, const QString &stderrText, quint64 needed)
{
    const QString text = stderrText.trimmed();
    if (text.contains(QLatin1String("No space left")) || text.contains(QLatin1String("Disk quota"))) {
        return Error{ErrorCode::DiskFull, TransferText::tr("The disk on %1 is full while writing into %2 (about %3 still to send). "
                                                           "Files already verified are kept; free some space and retry to continue.")
                                              .arg(host, where, formatBytes(needed))};
    }
    if (text.contains(QLatin1String("Permission denied"))) {
        return Error{ErrorCode::PermissionDenied,
                     TransferText::tr("Permission denied writing into %1 on %2. Pick a directory the SSH user can write.").arg(where, host)};
    }
    return Error{ErrorCode::RemoteFailed, TransferText::tr("Unpacking into %1 on %2 failed: %3").arg(where, host, text.left(400))};
}

// Existing files under a remote folder (relative path → size), and whether tar and sha256sum are
// there: one remote command, because each one pays for the login shell's start-up files (conda or
// pyenv init on GPU images can take seconds).
struct RemoteProbe
{
    bool shell = false;
    bool haveTar = false;
    QHash<QString, quint64> sizes;
};

QString probeCommand(const QString &folder, bool listFiles)
{
    QString command = QStringLiteral("command -v tar >/dev/null 2>&1 && command -v sha256sum >/dev/null 2>&1 && "
                                     "printf 'gantry-tar\\0'; ");
    if (listFiles) {
        command += QStringLiteral("cd -- %1 2>/dev/null && find . -type f -printf '%s\\t%P\\0'; true").arg(ssh::shellQuote(folder));
    }
    return command;
}

// Collects a probe started with openExec(probeCommand()).
RemoteProbe collectProbe(Result<std::unique_ptr<ssh::Channel>> &channel, const QString &prefix)
{
    RemoteProbe probe;
    if (!channel) return probe;
    ssh::Channel &ch = **channel;
    (void)ch.sendEof();
    QByteArray out;
    QElapsedTimer waited;
    waited.start();
    while (!ch.isEof() && waited.elapsed() < 10 * 60 * 1000) {
        auto r = ch.read(500);
        if (!r || out.size() > (1 << 20)) return probe; // a probe prints a few lines, not megabytes
        out += *r;
    }
    probe.shell = true;
    for (const QByteArray &rec : out.split('\0')) {
        if (rec.endsWith("gantry-tar")) { // start-up files may have printed before it
            probe.haveTar = true;
            continue;
        }
        const qsizetype tab = rec.indexOf('\t');
        if (tab <= 0) continue;
        probe.sizes.insert(prefix + QString::fromUtf8(rec.mid(tab + 1)), rec.left(tab).toULongLong());
    }
    return probe;
}

// The remote command for one batch; nullopt when the batch has nothing left to send.
std::optional<QString> batchCommand(TransferContext &ctx, const QString &remoteParent, const LocalTree &tree, int begin,
                                    int end, const QSet<QString> &exclude, QString *manifestName, bool *verify)
{
    int files = 0;
    int entries = 0;
    for (int i = begin; i < end; ++i) {
        if (exclude.contains(tree.entries[i].relative)) continue;
        ++entries;
        if (!tree.entries[i].isDir) ++files;
    }
    if (entries == 0) return std::nullopt;
    const QString q = ssh::shellQuote(remoteParent);
    // The manifest travels as the last member of the same tar stream and is checked by the same
    // command: one remote command per batch.
    *manifestName = QStringLiteral(".gantry-manifest-%1-%2").arg(begin).arg(QString::fromLatin1(tree.fingerprint.left(12)));
    *verify = ctx.options().verify && files > 0;
    // The batch unpacks into a staging folder beside the destination (same filesystem) and is
    // hard-linked into place only once complete and its manifest verified: an interrupted batch
    // leaves no truncated file under a final name, and the next attempt redoes it from scratch.
    // The second cp covers a folder another session's batch created at the same moment.
    // Each command has a staging folder of its own: a batch pre-started while probing and then
    // re-sent with the probe's exclusions ran beside its replacement, and the discarded one's
    // cleanup removed the folder the other was unpacking into. Folders left by interrupted runs
    // (of any tree, any process) are removed once they are half a day old: a live batch takes
    // minutes at most.
    const QString fingerprint = QString::fromLatin1(tree.fingerprint.left(12));
    static const QString processToken = QString::number(QRandomGenerator::global()->generate64(), 36);
    static std::atomic_int commandNumber{0};
    const QString staging = QStringLiteral(".gantry-staging-%1-%2-%3-%4").arg(fingerprint, processToken).arg(commandNumber++).arg(begin);
    const QString stale = QStringLiteral("find . -maxdepth 1 -name '.gantry-staging-*' -mmin +720 -exec rm -rf -- {} + "
                                         "2>/dev/null; ");
    const QString check = *verify ? QStringLiteral("sha256sum -c --quiet --strict %1 && rm -f %1 && ").arg(*manifestName)
                                  : QString();
    return QStringLiteral("mkdir -p -- %1 && cd -- %1 && { %4} && mkdir -- %2 && cd -- %2 && tar -x -f - && %3"
                          "cd .. && { cp -Rlf -- %2/. . 2>/dev/null || cp -Rlf -- %2/. .; }; rc=$?; "
                          "cd -- %1 2>/dev/null && rm -rf -- %2; exit $rc")
        .arg(q, ssh::shellQuote(staging), check, stale);
}

Result<void> sendBatch(TransferContext &ctx, ssh::Session &session, const QString &remoteParent, const LocalTree &tree,
                       int begin, int end, const QSet<QString> &exclude, quint64 *wire, quint64 *payload,
                       std::unique_ptr<ssh::Channel> preopened)
{
    QString manifestName;
    bool verify = false;
    const auto command = batchCommand(ctx, remoteParent, tree, begin, end, exclude, &manifestName, &verify);
    if (!command) return {};
    Result<std::unique_ptr<ssh::Channel>> channel = preopened ? Result<std::unique_ptr<ssh::Channel>>(std::move(preopened))
                                                              : session.openExec(*command);
    if (!channel) return channel.error();
    TarSink sink;
    sink.channel = channel->get();
    sink.cancel = ctx.cancel();
    QByteArray manifest;
    struct archive *a = archive_write_new();
    archive_write_set_format_pax_restricted(a);
    archive_write_set_bytes_in_last_block(a, 1);
    archive_write_open(a, &sink, nullptr, tarWrite, nullptr);
    QByteArray buf(1 << 20, Qt::Uninitialized);
    std::optional<Error> failure;
    quint64 batchBytes = 0;
    for (int i = begin; i < end && !failure; ++i) {
        const LocalEntry &e = tree.entries[i];
        if (exclude.contains(e.relative)) continue;
        struct archive_entry *entry = archive_entry_new();
        archive_entry_set_pathname_utf8(entry, e.relative.toUtf8().constData());
        archive_entry_set_perm(entry, e.mode);
        archive_entry_set_mtime(entry, e.mtimeMs / 1000, 0);
        if (e.isDir) {
            archive_entry_set_filetype(entry, AE_IFDIR);
            archive_write_header(a, entry);
            archive_entry_free(entry);
            continue;
        }
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_size(entry, la_int64_t(e.size));
        QFile file(e.absolute);
        if (!file.open(QIODevice::ReadOnly)) {
            failure = Error{ErrorCode::Io, TransferText::tr("Cannot read the local file %1: %2.").arg(e.absolute, file.errorString())};
            archive_entry_free(entry);
            break;
        }
        if (archive_write_header(a, entry) != ARCHIVE_OK) {
            failure = sink.error ? *sink.error : Error{ErrorCode::Io, QString::fromUtf8(archive_error_string(a))};
            archive_entry_free(entry);
            break;
        }
        archive_entry_free(entry);
        ctx.setCurrentFile(e.relative);
        Sha256 hash;
        quint64 left = e.size;
        while (left > 0) {
            const qint64 n = file.read(buf.data(), qint64(std::min<quint64>(left, quint64(buf.size()))));
            if (n <= 0) {
                failure = Error{ErrorCode::Conflict, TransferText::tr("%1 changed while it was being uploaded (it became shorter). "
                                                                      "Retry to upload the new version.").arg(e.absolute)};
                break;
            }
            hash.add(buf.constData(), size_t(n));
            if (archive_write_data(a, buf.constData(), size_t(n)) < 0) {
                failure = sink.error ? *sink.error : Error{ErrorCode::Io, QString::fromUtf8(archive_error_string(a))};
                break;
            }
            left -= quint64(n);
            const quint64 before = sink.wire;
            ctx.addDone(quint64(n), 0);
            (void)before;
        }
        if (failure) break;
        if (!file.atEnd() && file.read(1).size() == 1) {
            failure = Error{ErrorCode::Conflict, TransferText::tr("%1 changed while it was being uploaded (it grew). Retry to upload "
                                                                  "the new version.").arg(e.absolute)};
            break;
        }
        batchBytes += e.size;
        manifest += manifestLine(hash.hexDigest(), e.relative);
        ctx.addFilesDone(1);
    }
    if (!failure && verify) {
        struct archive_entry *entry = archive_entry_new();
        archive_entry_set_pathname_utf8(entry, manifestName.toUtf8().constData());
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_perm(entry, 0600);
        archive_entry_set_size(entry, la_int64_t(manifest.size()));
        if (archive_write_header(a, entry) != ARCHIVE_OK
            || archive_write_data(a, manifest.constData(), size_t(manifest.size())) < 0) {
            failure = sink.error ? *sink.error : Error{ErrorCode::Io, QString::fromUtf8(archive_error_string(a))};
        }
        archive_entry_free(entry);
    }
    if (!failure) {
        archive_write_close(a);
        if (!sink.flush()) failure = sink.error;
    }
    archive_write_free(a);
    *wire += sink.wire;
    *payload += batchBytes;
    ctx.addDone(0, sink.wire);
    if (failure && failure->code == ErrorCode::Cancelled) return *failure;

    // Collect tar's and sha256sum's verdict (stderr names a full disk or a permission problem;
    // stdout lists files whose checksum did not match).
    (void)(*channel)->sendEof();
    QByteArray out;
    QByteArray err;
    QElapsedTimer waited;
    waited.start();
    while (!(*channel)->isEof() && waited.elapsed() < 120000) {
        auto r = (*channel)->read(200, &err);
        if (!r || outputLimitReached(session, out.size() + err.size())) break;
        out += *r;
    }
    const int status = (*channel)->exitStatus().value_or(-1);
    if (failure && failure->code != ErrorCode::ConnectFailed) return *failure;
    if (status == 0 && !failure) return {};
    if (!session.isConnected() || (failure && err.isEmpty() && out.isEmpty())) {
        return failure ? *failure
                       : Error{ErrorCode::ConnectFailed, TransferText::tr("Connection to %1 lost during the upload. It resumes "
                                                                          "from the last verified batch.").arg(ctx.host())};
    }
    if (out.contains("FAILED")) {
        const QList<QByteArray> lines = out.trimmed().split('\n');
        return Error{ErrorCode::RemoteFailed,
                     TransferText::tr("Integrity check failed on %1 for %n file(s) in %2, e.g. %3. Retry to send them again.", nullptr,
                        int(lines.size()))
                         .arg(ctx.host(), remoteParent, QString::fromUtf8(lines.value(0)))};
    }
    return classifyRemoteStderr(ctx.host(), remoteParent, QString::fromUtf8(err + out), tree.totalBytes);
}

// No remote shell: every file over SFTP, each with its own pipelined upload.
Result<void> sftpTreeUpload(TransferContext &ctx, ssh::Session &session, SftpClient &sftp, const QString &remoteParent,
                            const LocalTree &tree, const QSet<QString> &exclude, quint64 *payload)
{
    for (const LocalEntry &e : tree.entries) {
        if (exclude.contains(e.relative)) continue;
        const QString dest = remoteJoin(remoteParent, e.relative);
        if (e.isDir) {
            if (auto m = sftp.mkdirs(dest); !m) return m;
            continue;
        }
        ctx.setCurrentFile(e.relative);
        auto r = uploadFile(ctx, session, sftp, e.absolute, dest, true);
        if (!r) return r.error();
        *payload += r->payloadBytes;
    }
    return {};
}

} // namespace

Result<TransferOutcome> uploadTree(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                   const QString &localFolder, const QString &remoteTop, ConflictPolicy policy)
{
    QElapsedTimer timer;
    timer.start();
    TransferOutcome outcome;
    outcome.destination = remoteTop;
    // The remote probe (tar there? which files exist?) runs while the local folder is scanned.
    const QString remoteName = remoteBaseName(remoteTop);
    auto probeChannel = session.openExec(probeCommand(remoteTop, policy != ConflictPolicy::Overwrite));
    auto scanned = scanLocalTree(localFolder, ctx.options().followSymlinks);
    if (!scanned) return scanned.error();
    const LocalTree &tree = *scanned;
    // The first batch's command is started now too (if the probe then says otherwise, it is
    // dropped: tar only sees an empty stream).
    std::unique_ptr<ssh::Channel> speculative;
    QString speculativeCommand;
    outcome.notes = tree.notes;
    outcome.totalBytes = tree.totalBytes;
    outcome.files = tree.fileCount;
    ctx.addTotals(tree.totalBytes, tree.fileCount);

    // Entries are named "TOP/…"; the remote side unpacks into the parent of remoteTop, so TOP
    // must be remoteTop's own name.
    const QString remoteParentDir = remoteParent(remoteTop);
    const QString top = tree.entries.first().relative;
    LocalTree renamed = tree;
    if (remoteName != top) {
        for (LocalEntry &e : renamed.entries) e.relative = remoteName + e.relative.mid(top.size());
    }

    const QString key = JournalStore::key(Direction::Upload, ctx.host(), QFileInfo(localFolder).absoluteFilePath(), remoteTop);
    if (auto replaceable = ctx.journals().checkReplaceable(key); !replaceable) return replaceable.error();
    TreeJournal journal;
    if (auto j = ctx.journals().loadTree(key); j && j->fingerprint == tree.fingerprint) {
        journal = *j;
        outcome.resumed = !journal.doneBatches.isEmpty();
    } else {
        if (j) outcome.notes.append(TransferText::tr("%1 changed since the interrupted upload; checking every file again.").arg(localFolder));
        journal = TreeJournal{ctx.host(), localFolder, remoteTop, tree.fingerprint, {}, j ? j->wireBytes : 0, 0, 0};
    }

    QSet<QString> exclude;
    if (!renamed.entries.isEmpty()) {
        const auto first = planBatches(renamed, kBatchFiles, kBatchBytes).value(0); // replanned below on long links
        QString manifest;
        bool verify = false;
        if (const auto command = batchCommand(ctx, remoteParentDir, renamed, first.first, first.second, {}, &manifest, &verify)) {
            if (auto ch = session.openExec(*command)) {
                speculative = std::move(*ch);
                speculativeCommand = *command;
            }
        }
    }
    const RemoteProbe probe = collectProbe(probeChannel, remoteName + QLatin1Char('/'));
    if (policy != ConflictPolicy::Overwrite) {
        const auto &existing = probe.sizes;
        for (const LocalEntry &e : renamed.entries) {
            if (e.isDir) continue;
            const auto it = existing.constFind(e.relative);
            if (it == existing.constEnd()) continue;
            if (policy == ConflictPolicy::Skip || (policy == ConflictPolicy::Resume && it.value() == e.size)) {
                exclude.insert(e.relative);
            } else if (policy == ConflictPolicy::Ask || policy == ConflictPolicy::Rename
                       || policy == ConflictPolicy::Resume) {
                return Error{ErrorCode::Conflict,
                             TransferText::tr("%1 already exists on %2 (and differs). Choose overwrite, skip, resume or rename.")
                                 .arg(remoteJoin(remoteParentDir, e.relative), ctx.host())};
            }
        }
        if (!exclude.isEmpty()) {
            outcome.notes.append(TransferText::tr("%n file(s) already on the host were left as they are.", nullptr, int(exclude.size())));
        }
    }

    // Sessions for the tar batches, as for one file of the folder's size; then batches small
    // enough that every session gets a few.
    const int parallelFor = ctx.options().parallel > 0 ? ctx.options().parallel
                                                        : autoParallel(tree.totalBytes, sftp.roundTripMs());
    if (journal.doneBatches.isEmpty()) {
        journal.batchBytes = parallelFor > 1 ? std::clamp<quint64>(tree.totalBytes / quint64(parallelFor * 2), 4ull << 20, kBatchBytes)
                                             : kBatchBytes;
        journal.batchFiles = parallelFor > 1 ? std::clamp(tree.fileCount / (parallelFor * 2), 500, kBatchFiles) : kBatchFiles;
    } else if (journal.batchFiles <= 0 || journal.batchBytes == 0) {
        journal.batchFiles = kBatchFiles; // journals from before plans were recorded used the defaults
        journal.batchBytes = kBatchBytes;
    }
    // Resuming keeps the plan the done batches were numbered in, whatever the link measures now.
    const auto batches = planBatches(renamed, journal.batchFiles, journal.batchBytes);
    // Already verified batches count as resumed.
    for (int b : std::as_const(journal.doneBatches)) {
        if (b < 0 || b >= batches.size()) continue;
        quint64 bytes = 0;
        int files = 0;
        for (int i = batches[b].first; i < batches[b].second; ++i) {
            if (!renamed.entries[i].isDir) {
                bytes += renamed.entries[i].size;
                files += 1;
            }
        }
        ctx.addResumed(bytes);
        ctx.addFilesDone(files);
    }
    for (const QString &rel : std::as_const(exclude)) {
        for (const LocalEntry &e : renamed.entries) {
            if (e.relative == rel) {
                ctx.addResumed(e.size);
                ctx.addFilesDone(1);
                break;
            }
        }
    }

    const bool haveTar = probe.haveTar;
    quint64 wire = 0;
    quint64 payload = 0;
    if (!haveTar) {
        outcome.notes.append(TransferText::tr("%1 runs no tar; files were sent one by one over SFTP.").arg(ctx.host()));
        auto r = sftpTreeUpload(ctx, session, sftp, remoteParentDir, renamed, exclude, &payload);
        outcome.payloadBytes = payload;
        if (!r) return r.error();
    } else {
        // Batches are striped over several sessions on long links (one channel is capped by
        // sshd's 2 MiB window per round trip): session k sends batches k, k+n, k+2n… Each starts
        // its next batch's remote command while the current one streams, so the shell start-up
        // is hidden too. Batches a session could not send (it failed to connect) are sent by the
        // primary session at the end.
        std::mutex mutex;
        std::optional<Error> failure;
        const int sessions = int(std::max<qsizetype>(1, std::min<qsizetype>(parallelFor, batches.size())));
        auto sendStripe = [&](ssh::Session &own, int stripe, int stride, std::unique_ptr<ssh::Channel> first, int firstFor) {
            auto open = [&](int b) -> std::unique_ptr<ssh::Channel> {
                QString manifest;
                bool verify = false;
                const auto command = batchCommand(ctx, remoteParentDir, renamed, batches[b].first, batches[b].second, exclude,
                                                  &manifest, &verify);
                if (!command) return {};
                auto ch = own.openExec(*command);
                return ch ? std::move(*ch) : nullptr;
            };
            const auto pending = [&](int b) {
                std::lock_guard lock(mutex);
                return !journal.doneBatches.contains(b) && !failure;
            };
            std::unique_ptr<ssh::Channel> next = std::move(first);
            int nextFor = firstFor;
            for (int b = stripe; b < batches.size(); b += stride) {
                if (!pending(b)) continue;
                if (ctx.cancelled()) {
                    std::lock_guard lock(mutex);
                    if (!failure) failure = Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")};
                    return;
                }
                std::unique_ptr<ssh::Channel> current = nextFor == b ? std::move(next) : nullptr;
                next.reset();
                nextFor = -1;
                for (int n = b + stride; n < batches.size(); n += stride) {
                    if (!pending(n)) continue;
                    next = open(n);
                    nextFor = n;
                    break;
                }
                quint64 batchWire = 0;
                quint64 batchPayload = 0;
                auto r = sendBatch(ctx, own, remoteParentDir, renamed, batches[b].first, batches[b].second, exclude,
                                   &batchWire, &batchPayload, std::move(current));
                std::lock_guard lock(mutex);
                journal.wireBytes += batchWire;
                wire += batchWire;
                payload += batchPayload;
                if (r) journal.doneBatches.append(b);
                (void)ctx.journals().save(key, journal);
                if (!r) {
                    if (!failure) failure = r.error();
                    return;
                }
            }
        };
        std::unique_ptr<ssh::Channel> first;
        if (speculative && !batches.isEmpty() && !journal.doneBatches.contains(0)) {
            QString manifest;
            bool verify = false;
            if (batchCommand(ctx, remoteParentDir, renamed, batches[0].first, batches[0].second, exclude, &manifest, &verify)
                == std::optional<QString>(speculativeCommand)) {
                first = std::move(speculative);
            }
        }
        speculative.reset();
        std::vector<std::thread> helpers;
        for (int k = 1; k < sessions; ++k) {
            helpers.emplace_back([&, k] {
                auto own = ctx.factory()(ctx.cancel());
                if (own) sendStripe(**own, k, sessions, nullptr, -1);
            });
        }
        sendStripe(session, 0, sessions, std::move(first), 0);
        for (auto &t : helpers) t.join();
        if (!failure) sendStripe(session, 0, 1, nullptr, -1); // stripes of helpers that could not connect
        if (failure) {
            outcome.payloadBytes = payload;
            return *failure;
        }
    }
    ctx.journals().remove(key);
    outcome.payloadBytes = payload;
    outcome.wireBytes = journal.wireBytes;
    outcome.verified = haveTar && ctx.options().verify;
    outcome.seconds = double(timer.elapsed()) / 1000.0;
    return outcome;
}

namespace {
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
    // Remote manifest first: sizes for progress and hashes for the check.
    // One remote command for sizes (progress) and hashes (the check): each command pays for the
    // login shell's start-up files.
    if (!isPlainName(name)) {
        return Error{ErrorCode::Usage, TransferText::tr("%1 does not name a folder on %2 (it ends in '.', '..' or '/'). Name the folder "
                                                        "itself, e.g. /data/run1, and retry.").arg(remoteFolder, ctx.host())};
    }
    // "./NAME": a folder named "-delete" must reach find as a path, not as an option.
    const QString dotName = ssh::shellQuote(QStringLiteral("./") + name);
    auto sums = session.run(QStringLiteral("cd -- %1 && find %2 -type f -printf '%s\\t%p\\0' && printf 'gantry-sums\\0' && "
                                           "find %2 -type f -print0 | xargs -0 -r sha256sum --")
                                .arg(ssh::shellQuote(parent), dotName), 60 * 60 * 1000, checksumListingLimit(session.limits()));
    QHash<QString, quint64> sizes;
    if (sums) {
        const qsizetype marker = sums->out.indexOf(QByteArray("gantry-sums", 12));
        const QByteArray listing = marker >= 0 ? sums->out.left(marker) : QByteArray();
        for (const QByteArray &rec : listing.split('\0')) {
            const qsizetype tab = rec.indexOf('\t');
            if (tab > 0) sizes.insert(QString::fromUtf8(rec.mid(tab + 1 + 2)), rec.left(tab).toULongLong()); // "./"
        }
        if (marker >= 0) sums->out = sums->out.mid(marker + 12);
    }
    if (!sums || sums->exitStatus != 0) {
        return Error{ErrorCode::RemoteFailed, TransferText::tr("Cannot list %1 on %2: %3")
                                                  .arg(remoteFolder, ctx.host(),
                                                       sums ? QString::fromUtf8(sums->err).trimmed() : sums.error().message)};
    }
    if (auto listed = checkEntryCount(session, ctx.host(), remoteFolder, sizes.size()); !listed) return listed.error();
    QHash<QString, QByteArray> expected;
    for (const QByteArray &line : sums->out.split('\n')) {
        if (line.size() < 67) continue;
        if (line.mid(64, 4) == "  ./") expected.insert(QString::fromUtf8(line.mid(68)), line.left(64));
    }
    quint64 total = 0;
    for (quint64 s : std::as_const(sizes)) total = total + s < total ? ~quint64(0) : total + s; // a host can report any size
    ctx.addTotals(total, int(sizes.size()));
    outcome.totalBytes = total;
    outcome.files = int(sizes.size());

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
    struct archive_entry *entry = nullptr;
    std::optional<Error> failure;
    quint64 payload = 0;
    int mismatches = 0;
    int skippedEntries = 0; // not regular files: not copied, so the folder is not verified
    int unchecked = 0;      // arrived without a hash in the host's listing
    QSet<QString> received;
    QString firstMismatch;
    while (!failure) {
        const int rc = archive_read_next_header(in, &entry);
        if (rc == ARCHIVE_EOF) break;
        if (rc < ARCHIVE_WARN) {
            failure = ctx.cancelled() ? Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")}
                                      : Error{ErrorCode::ConnectFailed,
                                              TransferText::tr("Downloading %1 from %2 broke off: %3. Retry to fetch it again.")
                                                  .arg(remoteFolder, ctx.host(), QString::fromUtf8(archive_error_string(in)))};
            break;
        }
        QString rel = QString::fromUtf8(archive_entry_pathname_utf8(entry) ? archive_entry_pathname_utf8(entry)
                                                                           : archive_entry_pathname(entry));
        if (rel.endsWith(QLatin1Char('/'))) rel.chop(1);
        // Only NAME and what is under NAME/ may be written, and only below localTop.
        const auto local = localPathForEntry(rel, name, localTop);
        if (!local) {
            failure = unexpectedEntry(ctx.host(), remoteFolder, rel, localTop);
            break;
        }
        const auto type = archive_entry_filetype(entry);
        if (type == AE_IFDIR) {
            QDir().mkpath(*local);
            continue;
        }
        if (type != AE_IFREG) {
            outcome.notes.append(TransferText::tr("Skipped %1: not a regular file.").arg(rel));
            skippedEntries += 1;
            continue;
        }
        if (QFileInfo::exists(*local) && policy != ConflictPolicy::Overwrite) {
            if (policy == ConflictPolicy::Skip
                || (policy == ConflictPolicy::Resume && quint64(QFileInfo(*local).size()) == quint64(archive_entry_size(entry)))) {
                ctx.addResumed(quint64(archive_entry_size(entry)));
                ctx.addFilesDone(1);
                received.insert(rel);
                archive_read_data_skip(in);
                continue;
            }
            failure = Error{ErrorCode::Conflict, TransferText::tr("%1 already exists here (and differs). Choose overwrite, skip, "
                                                                  "resume or rename.").arg(*local)};
            break;
        }
        ctx.setCurrentFile(rel);
        // Written under a temporary name and renamed once complete and checked: never a partial
        // file under its final name.
        const QString partial = *local + QStringLiteral(".gantry-partial");
        auto digest = extractEntry(in, partial, localTop, ctx, &payload);
        if (!digest) {
            failure = digest.error().code == ErrorCode::ConnectFailed
                          ? Error{ErrorCode::ConnectFailed, TransferText::tr("Downloading %1 from %2 broke off. Retry to fetch it again.")
                                                                .arg(remoteFolder, ctx.host())}
                          : digest.error();
            break;
        }
        received.insert(rel);
        if (!expected.contains(rel)) unchecked += 1;
        if (expected.contains(rel) && expected.value(rel) != *digest) {
            mismatches += 1;
            if (firstMismatch.isEmpty()) firstMismatch = rel;
            QFile::remove(partial);
            continue;
        }
        if (std::rename(QFile::encodeName(partial).constData(), QFile::encodeName(*local).constData()) != 0) {
            failure = Error{ErrorCode::Io, TransferText::tr("Cannot rename %1 to %2: %3. Check the folder's permissions and retry.")
                                               .arg(partial, *local, QString::fromLocal8Bit(std::strerror(errno)))};
            QFile::remove(partial);
            break;
        }
        ctx.addFilesDone(1);
    }
    archive_read_free(in);
    ctx.addDone(0, src.wire);
    outcome.payloadBytes = payload;
    outcome.wireBytes = src.wire;
    if (failure) return *failure;
    if (mismatches > 0) {
        return Error{ErrorCode::RemoteFailed, TransferText::tr("Integrity check failed for %n file(s), e.g. %1 (changed on the host "
                                                               "while downloading?). Retry to fetch them again.", nullptr, mismatches)
                                                  .arg(firstMismatch)};
    }
    int missing = 0;
    for (auto it = expected.constBegin(); it != expected.constEnd(); ++it) missing += received.contains(it.key()) ? 0 : 1;
    if (missing > 0) {
        outcome.notes.append(TransferText::tr("%n file(s) listed on the host did not arrive; retry to fetch them.", nullptr, missing));
    }
    if (unchecked > 0) {
        outcome.notes.append(TransferText::tr("%n file(s) arrived without a checksum from the host and are not verified.", nullptr,
                                unchecked));
    }
    outcome.verified = skippedEntries == 0 && unchecked == 0 && missing == 0;
    outcome.seconds = double(timer.elapsed()) / 1000.0;
    return outcome;
}

} // namespace gantry::transfer
