#include "core/transfer/tarbatch.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/batchrunner.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/sha256.h"

#include <archive.h>
#include <archive_entry.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>

#include <fcntl.h>
#include <unistd.h>

namespace gantry::transfer {

namespace {

// Bytes libarchive produces, gathered into large channel writes.
struct TarSink
{
    ssh::Channel *channel = nullptr;
    BatchRunner *runner{nullptr}; // when set, the bytes go to it in frames instead
    std::function<Result<void>(const QByteArray &)> out; // when set, the bytes go there instead
    QByteArray buffer;
    quint64 wire = 0;
    // Runner only: the batch's file bytes not yet handed to libarchive. It will emit at least as
    // many more, so a frame is announced for them at once: one `head` on the host per batch rather
    // than one per buffer (a process start each, hundreds per sync).
    quint64 dataLeft = 0;
    quint64 frameOwed = 0; // bytes the open frame still needs
    std::optional<Error> error;
    const std::atomic_bool *cancel{nullptr};  // brace init: lupdate misparses "std::X *p = nullptr;" before a member function

    bool flush()
    {
        if (buffer.isEmpty() || error) return !error;
        if (cancel && cancel->load()) {
            error = Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")};
            return false;
        }
        if (auto w = runner ? sendFramed() : out ? out(buffer) : channel->write(buffer); !w) {
            error = w.error();
            return false;
        }
        wire += quint64(buffer.size());
        buffer.clear();
        return true;
    }

    Result<void> sendFramed()
    {
        qsizetype at = 0;
        while (at < buffer.size()) {
            if (frameOwed == 0) {
                frameOwed = quint64(buffer.size() - at) + dataLeft;
                if (auto h = runner->beginFrame(frameOwed); !h) return h;
            }
            const qsizetype n = qsizetype(std::min<quint64>(frameOwed, quint64(buffer.size() - at)));
            if (auto w = runner->writeData(n == buffer.size() ? buffer : buffer.mid(at, n)); !w) return w;
            frameOwed -= quint64(n);
            at += n;
        }
        return {};
    }
};

la_ssize_t tarWrite(struct archive *, void *client, const void *data, size_t length)
{
    auto *sink = static_cast<TarSink *>(client);
    sink->buffer.append(static_cast<const char *>(data), qsizetype(length));
    if (sink->buffer.size() >= 256 * 1024 && !sink->flush()) return -1;
    return la_ssize_t(length);
}

// What stopped libarchive: the channel's error when the sink failed, else libarchive's own.
Error archiveFailure(struct archive *a, const TarSink &sink)
{
    return sink.error ? *sink.error : Error{ErrorCode::Io, QString::fromUtf8(archive_error_string(a))};
}

// One sha256sum manifest line; names with '\' or newline use sha256sum's escaped form.
QByteArray manifestLine(const QByteArray &hash, const QByteArray &name)
{
    QByteArray n = name;
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

// Streams an opened file's data into the archive and returns its SHA-256. The file must have
// exactly the size the scan saw: a file that changes while it is sent is a conflict.
Result<QByteArray> streamFileData(TransferContext &ctx, struct archive *a, TarSink &sink, QFile &file,
                                  const LocalEntry &e, QByteArray &buf)
{
    Sha256 hash;
    quint64 left = e.size;
    while (left > 0) {
        const qint64 n = file.read(buf.data(), qint64(std::min<quint64>(left, quint64(buf.size()))));
        if (n <= 0) {
            return Error{ErrorCode::Conflict, TransferText::tr("%1 changed while it was being uploaded (it became shorter). "
                                                               "Retry to upload the new version.").arg(e.absolute)};
        }
        hash.add(buf.constData(), size_t(n));
        // Before the call: libarchive may emit some of these bytes in it, and an announced frame
        // must count only bytes that are still to come.
        sink.dataLeft -= std::min(sink.dataLeft, quint64(n));
        if (archive_write_data(a, buf.constData(), size_t(n)) < 0) return archiveFailure(a, sink);
        left -= quint64(n);
        ctx.addDone(quint64(n), 0);
    }
    if (!file.atEnd() && file.read(1).size() == 1) {
        return Error{ErrorCode::Conflict, TransferText::tr("%1 changed while it was being uploaded (it grew). Retry to upload "
                                                           "the new version.").arg(e.absolute)};
    }
    return hash.hexDigest();
}

// Opens an entry's file, by its own bytes when the entry has them.
bool openLocal(QFile &file, const LocalEntry &e)
{
    if (e.nativeAbsolute.isEmpty()) return file.open(QIODevice::ReadOnly);
    const int fd = ::open(e.nativeAbsolute.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return file.open(QIODevice::ReadOnly); // for the error string
    if (file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) return true;
    ::close(fd);
    return false;
}

// Writes one entry (a folder, or a file with its data) and adds a file's line to the manifest.
std::optional<Error> writeEntry(TransferContext &ctx, struct archive *a, TarSink &sink, const LocalEntry &e,
                                QByteArray &buf, QByteArray *manifest, quint64 *batchBytes)
{
    struct archive_entry *entry = archive_entry_new();
    if (e.nativeRelative.isEmpty()) {
        archive_entry_set_pathname_utf8(entry, e.relative.toUtf8().constData());
    } else {
        archive_entry_copy_pathname(entry, e.nativeRelative.constData()); // bytes as they are
    }
    archive_entry_set_perm(entry, e.mode);
    archive_entry_set_mtime(entry, e.mtimeMs / 1000, 0);
    if (e.isDir || e.isLink) {
        archive_entry_set_filetype(entry, e.isDir ? AE_IFDIR : AE_IFLNK);
        if (e.isLink) archive_entry_copy_symlink(entry, e.linkTarget.constData());
        const bool written = archive_write_header(a, entry) >= ARCHIVE_WARN;
        archive_entry_free(entry);
        return written ? std::nullopt : std::optional<Error>(archiveFailure(a, sink));
    }
    archive_entry_set_filetype(entry, AE_IFREG);
    archive_entry_set_size(entry, la_int64_t(e.size));
    QFile file(e.absolute);
    if (!openLocal(file, e)) {
        archive_entry_free(entry);
        return Error{ErrorCode::Io, TransferText::tr("Cannot read the local file %1: %2.").arg(e.absolute, file.errorString())};
    }
    // ARCHIVE_WARN: a name that is not valid UTF-8 goes as its bytes (pax hdrcharset=BINARY).
    const bool headerWritten = archive_write_header(a, entry) >= ARCHIVE_WARN;
    archive_entry_free(entry);
    if (!headerWritten) return archiveFailure(a, sink);
    ctx.setCurrentFile(e.relative);
    const auto digest = streamFileData(ctx, a, sink, file, e, buf);
    if (!digest) return digest.error();
    *batchBytes += e.size;
    *manifest += manifestLine(*digest, e.tarName());
    ctx.addFilesDone(1);
    return std::nullopt;
}

// The manifest travels as the tar stream's last member, for the remote `sha256sum -c`.
std::optional<Error> writeManifestEntry(struct archive *a, const TarSink &sink, const QString &manifestName,
                                        const QByteArray &manifest)
{
    std::optional<Error> failure;
    struct archive_entry *entry = archive_entry_new();
    archive_entry_set_pathname_utf8(entry, manifestName.toUtf8().constData());
    archive_entry_set_filetype(entry, AE_IFREG);
    archive_entry_set_perm(entry, 0600);
    archive_entry_set_size(entry, la_int64_t(manifest.size()));
    if (archive_write_header(a, entry) != ARCHIVE_OK
        || archive_write_data(a, manifest.constData(), size_t(manifest.size())) < 0) {
        failure = archiveFailure(a, sink);
    }
    archive_entry_free(entry);
    return failure;
}

// Writes the batch as one tar stream into the channel; the error that stopped it, if any.
std::optional<Error> writeBatch(TransferContext &ctx, TarSink sink, const LocalTree &tree, int begin, int end,
                                 const QSet<QString> &exclude, const QString &manifestName, bool verify, quint64 *wire,
                                 quint64 *payload)
{
    sink.cancel = ctx.cancel();
    QByteArray manifest;
    struct archive *a = archive_write_new();
    archive_write_set_format_pax_restricted(a);
    archive_write_set_bytes_in_last_block(a, 1);
    archive_write_open(a, &sink, nullptr, tarWrite, nullptr);
    QByteArray buf(1 << 20, Qt::Uninitialized);
    std::optional<Error> failure;
    quint64 batchBytes = 0;
    for (int i = begin; i < end && sink.runner; ++i) {
        const LocalEntry &e = tree.entries[i];
        if (!e.isDir && !e.isLink && !exclude.contains(e.relative)) sink.dataLeft += e.size;
    }
    for (int i = begin; i < end && !failure; ++i) {
        if (exclude.contains(tree.entries[i].relative)) continue;
        failure = writeEntry(ctx, a, sink, tree.entries[i], buf, &manifest, &batchBytes);
    }
    if (!failure && verify) failure = writeManifestEntry(a, sink, manifestName, manifest);
    if (!failure) {
        archive_write_close(a);
        if (!sink.flush()) failure = sink.error;
    }
    archive_write_free(a);
    // A local failure (a file that shrank or cannot be read) inside an announced frame: the frame
    // cannot end where the runner expects it, so the runner gets EOF instead. Its tar then sees a
    // short archive, the batch is not linked, and this session stops as after any failed batch.
    if (failure && sink.runner && sink.frameOwed > 0) sink.runner->abandon();
    *wire += sink.wire;
    *payload += batchBytes;
    ctx.addDone(0, sink.wire);
    return failure;
}

// The verdict from a batch's exit status and output (stderr names a full disk or a permission
// problem; sha256sum lists files whose checksum did not match), given how the sending went.
Result<void> classifyVerdict(TransferContext &ctx, const QString &remoteParent, const LocalTree &tree,
                             const std::optional<Error> &failure, int status, const QByteArray &out, bool connected)
{
    if (failure && failure->code != ErrorCode::ConnectFailed) return *failure;
    if (status == 0 && !failure) return {};
    if (!connected || (failure && out.isEmpty())) {
        return failure ? *failure
                       : Error{ErrorCode::ConnectFailed, TransferText::tr("Connection to %1 lost during the upload. It resumes "
                                                                          "from the last verified batch.").arg(ctx.host())};
    }
    if (out.trimmed().isEmpty()) {
        // The batch ended badly and said nothing: the link dropped under it (its tar killed before
        // the session noticed) more often than anything else. Resumed like a lost connection;
        // should it persist, the retries end with this reason rather than an empty one.
        return Error{ErrorCode::ConnectFailed, TransferText::tr("Unpacking into %1 on %2 ended with status %3 and no message; the "
                                                                "connection was probably lost. It resumes from the last verified batch.")
                                                   .arg(remoteParent, ctx.host())
                                                   .arg(status)};
    }
    if (out.contains("FAILED")) {
        QList<QByteArray> lines;
        for (const QByteArray &line : out.trimmed().split('\n')) {
            if (line.contains("FAILED")) lines.append(line);
        }
        return Error{ErrorCode::RemoteFailed,
                     TransferText::tr("Integrity check failed on %1 for %n file(s) in %2, e.g. %3. Retry to send them again.", nullptr,
                        int(lines.size()))
                         .arg(ctx.host(), remoteParent, QString::fromUtf8(lines.value(0)))};
    }
    return classifyRemoteStderr(ctx.host(), remoteParent, QString::fromUtf8(out), tree.totalBytes);
}

// Collects the verdict of a batch that ran on a channel of its own: its output until it ends.
Result<void> channelVerdict(TransferContext &ctx, ssh::Session &session, ssh::Channel &channel, const QString &remoteParent,
                            const LocalTree &tree, const std::optional<Error> &failure)
{
    if (failure && failure->code == ErrorCode::Cancelled) return *failure;
    QByteArray out;
    QByteArray err;
    QElapsedTimer waited;
    waited.start();
    while (!channel.isEof() && waited.elapsed() < 120000) {
        auto r = channel.read(200, &err);
        if (!r || outputLimitReached(session, out.size() + err.size())) break;
        out += *r;
    }
    const int status = channel.exitStatus().value_or(-1);
    return classifyVerdict(ctx, remoteParent, tree, failure, status, err + out, session.isConnected());
}

// Collects the verdict of a batch a runner unpacked: its report.
Result<void> runnerVerdict(TransferContext &ctx, ssh::Session &session, BatchRunner &runner, int id, const QString &remoteParent,
                           const LocalTree &tree, const std::optional<Error> &failure)
{
    if (failure && (failure->code == ErrorCode::Cancelled || runner.abandoned())) return *failure;
    auto report = runner.waitReport(id, 120000, session);
    if (!report) return failure ? *failure : report.error();
    return classifyVerdict(ctx, remoteParent, tree, failure, report->status, report->output, session.isConnected());
}

} // namespace

std::optional<BatchScript> batchScript(TransferContext &ctx, const QString &remoteParent, const LocalTree &tree, int begin,
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
    // The second cp covers a folder another session's batch created at the same moment. -P: a
    // symlink in the batch is linked as a link; cp -l would otherwise follow it out of the folder.
    // The folder is named after this attempt: a batch that a killed earlier attempt left running on
    // the host must not share (and, finishing, remove) the folder this one unpacks into. Folders
    // left by interrupted attempts (of any tree, any process) are removed once half a day old: a
    // live batch takes minutes at most.
    const QString staging = ssh::shellQuote(QStringLiteral(".gantry-staging-%1-%2-%3")
                                                .arg(QString::fromLatin1(tree.fingerprint.left(12)), ctx.attemptToken())
                                                .arg(begin));
    // Never this batch's verdict: find fails where another session's staging folder goes between
    // its listing and its look at it (a batch then ended with status 1 and no message).
    // A sync's small edits go over SFTP through .gantry-sftp-* files (core/sync/sftpsend.h), which
    // get their source's modification time before they are renamed: those go by their ctime.
    // One batch of the attempt does it: a find fewer on the host for every other batch. (A script
    // built without a folder, for its manifest's name only, claims nothing.)
    const QString stale = !remoteParent.isEmpty() && ctx.claimSweep(QStringLiteral("staging:") + remoteParent)
                              ? QStringLiteral("{ find . -maxdepth 1 \\( -name '.gantry-staging-*' -mmin +720 -o -name '.gantry-sftp-*' "
                                               "-cmin +720 \\) -exec rm -rf -- {} + 2>/dev/null || true; } && ")
                              : QString();
    // openssl (SHA-NI) hashes the batch's files in a third of sha256sum's CPU; its lines, put in
    // sha256sum's form, must equal the manifest. Anything else (no openssl, an escaped name, a
    // mismatch) leaves the verdict, and the names of any mismatched files, to `sha256sum -c`.
    const QString check = *verify ? QStringLiteral("{ sed -n 's|^[0-9a-f]\\{64\\}  |./|p' %1 | xargs -d '\\n' -r openssl dgst -sha256 -r "
                                                   "2>/dev/null | sed 's| \\*\\./|  |' | cmp -s - %1 || sha256sum -c --quiet --strict %1; } "
                                                   "&& rm -f %1 && ").arg(*manifestName)
                                  : QString();
    BatchScript script;
    // The tests are the shell's own: a mkdir and an rm fewer per batch where, as nearly always,
    // the destination is there and the staging folder is not.
    script.extract = QStringLiteral("{ [ -d %1 ] || mkdir -p -- %1; } && cd -- %1 && %3{ { [ ! -e %2 ] && [ ! -L %2 ]; } "
                                    "|| rm -rf -- %2; } && mkdir -- %2 && cd -- %2 && tar -x -p -f -")
                         .arg(q, staging, stale);
    // The check and the linking run in a subshell, so the staging folder is removed from the
    // destination's parent whichever step stopped.
    script.finish = QStringLiteral("cd -- %1 2>/dev/null || exit 1; if [ \"$r\" = 0 ]; then ( cd -- %2 && %3"
                                   "cd .. && { cp -RPlf -- %2/. . 2>/dev/null || cp -RPlf -- %2/. .; } ); rc=$?; else rc=$r; fi; "
                                   "rm -rf -- %2; exit $rc")
                        .arg(q, staging, check);
    return script;
}

std::optional<QString> batchCommand(TransferContext &ctx, const QString &remoteParent, const LocalTree &tree, int begin,
                                    int end, const QSet<QString> &exclude, QString *manifestName, bool *verify)
{
    const auto script = batchScript(ctx, remoteParent, tree, begin, end, exclude, manifestName, verify);
    if (!script) return std::nullopt;
    return widenStdinPipe() + QStringLiteral("( %1 ); r=$?; %2").arg(script->extract, script->finish);
}

StreamedBatch streamBatch(TransferContext &ctx, ssh::Session &session, const QString &remoteParent, const LocalTree &tree,
                          int begin, int end, const QSet<QString> &exclude, std::unique_ptr<ssh::Channel> preopened)
{
    StreamedBatch batch;
    QString manifestName;
    bool verify = false;
    const auto command = batchCommand(ctx, remoteParent, tree, begin, end, exclude, &manifestName, &verify);
    if (!command) return batch;
    Result<std::unique_ptr<ssh::Channel>> channel = preopened ? Result<std::unique_ptr<ssh::Channel>>(std::move(preopened))
                                                              : session.openExec(*command);
    if (!channel) {
        batch.failure = channel.error();
        return batch;
    }
    batch.channel = std::move(*channel);
    TarSink sink;
    sink.channel = batch.channel.get();
    batch.failure = writeBatch(ctx, std::move(sink), tree, begin, end, exclude, manifestName, verify, &batch.wire, &batch.payload);
    if (!batch.failure || batch.failure->code != ErrorCode::Cancelled) (void)batch.channel->sendEof();
    return batch;
}

Result<void> finishBatch(TransferContext &ctx, ssh::Session &session, const QString &remoteParent, const LocalTree &tree,
                         StreamedBatch &batch)
{
    if (batch.runner) return runnerVerdict(ctx, session, *batch.runner, batch.id, remoteParent, tree, batch.failure);
    if (!batch.channel) return batch.failure ? Result<void>(*batch.failure) : Result<void>();
    return channelVerdict(ctx, session, *batch.channel, remoteParent, tree, batch.failure);
}

StreamedBatch streamBatch(TransferContext &ctx, BatchRunner &runner, int id, const QString &remoteParent, const LocalTree &tree,
                          int begin, int end, const QSet<QString> &exclude)
{
    StreamedBatch batch;
    QString manifestName;
    bool verify = false;
    const auto script = batchScript(ctx, remoteParent, tree, begin, end, exclude, &manifestName, &verify);
    if (!script) return batch;
    batch.runner = &runner;
    batch.id = id;
    if (auto b = runner.begin(id, *script); !b) {
        batch.failure = b.error();
        return batch;
    }
    TarSink sink;
    sink.runner = &runner;
    batch.failure = writeBatch(ctx, std::move(sink), tree, begin, end, exclude, manifestName, verify, &batch.wire, &batch.payload);
    // Ending the stream keeps the frames in step after a local failure (the remote tar then sees a
    // short archive and the batch is not linked); a cancelled upload drops the runner instead.
    if (!batch.failure
        || (batch.failure->code != ErrorCode::Cancelled && batch.failure->code != ErrorCode::ConnectFailed && !runner.abandoned())) {
        if (auto e = runner.endStream(); !e && !batch.failure) batch.failure = e.error();
    }
    return batch;
}

std::optional<Error> writeBatchTo(TransferContext &ctx, const std::function<Result<void>(const QByteArray &)> &out,
                                  const LocalTree &tree, int begin, int end, quint64 *wire, quint64 *payload)
{
    QString manifestName;
    bool verify = false;
    const QSet<QString> none;
    if (!batchScript(ctx, QString(), tree, begin, end, none, &manifestName, &verify)) return std::nullopt;
    TarSink sink;
    sink.out = out;
    return writeBatch(ctx, std::move(sink), tree, begin, end, none, manifestName, verify, wire, payload);
}

StreamedBatch unpackStagedBatch(TransferContext &ctx, BatchRunner &runner, int id, const QString &remoteParent,
                                const LocalTree &tree, int begin, int end, const QString &stagedPath)
{
    StreamedBatch batch;
    QString manifestName;
    bool verify = false;
    const QSet<QString> none;
    auto script = batchScript(ctx, remoteParent, tree, begin, end, none, &manifestName, &verify);
    if (!script) return batch;
    // The same unpacking, from the staged file; the file goes whatever tar made of it. Staged
    // files an interrupted sync left are removed once half a day old, as staging folders are.
    const QString file = ssh::shellQuote(stagedPath);
    const QString folder = ssh::shellQuote(stagedPath.left(stagedPath.lastIndexOf(QLatin1Char('/'))));
    QString unpack = script->extract;
    Q_ASSERT(unpack.endsWith(QLatin1String(" -f -")));
    unpack.chop(1); // "tar -x -p -f -" reads the file instead
    const bool sweeps = ctx.claimSweep(QStringLiteral("stage:") + folder);
    const QString sweep = sweeps ? QStringLiteral("find %1 -maxdepth 1 -name '*.tar' -mmin +720 -exec rm -f -- {} + 2>/dev/null; ")
                                       .arg(folder)
                                 : QString();
    script->extract = QStringLiteral("{ %1%2%3; }; s=$?; rm -f -- %3; exit $s").arg(sweep, unpack, file);
    int files = 0;
    for (const LocalEntry &e : tree.entries.mid(begin, end - begin)) {
        if (e.isDir || e.isLink) continue;
        ++files;
        batch.payload += e.size;
    }
    // Its bytes went over SFTP before the upload's progress began: they count as the batch goes.
    ctx.addDone(batch.payload, 0);
    ctx.addFilesDone(files);
    batch.runner = &runner;
    batch.id = id;
    auto sent = runner.begin(id, *script);
    if (sent) sent = runner.endStream();
    if (!sent) batch.failure = sent.error();
    return batch;
}

} // namespace gantry::transfer
