#include "core/transfer/fileupload.h"
#include "core/transfer/partialcleanup.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/chunkplan.h"
#include "core/transfer/chunkworkers.h"
#include "core/transfer/localwrite.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/sha256.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>

namespace gantry::transfer {

namespace {

// From this round trip a download reads with a wide receive window: libssh's own, one round
// trip's worth of ~1.2 MB, carries 120 MB/s a channel at 10 ms but 12 MB/s at 100 ms.
constexpr qint64 kWideWindowFromMs = 10;

// One download worker's pipeline: its current chunk, the reads in flight and what each chunk
// still waits for.
struct DownloadPipe
{
    struct Request
    {
        int chunk;
        quint64 offset;
        quint32 length;
    };
    explicit DownloadPipe(FileJournal journal) : layout(std::move(journal)) {}

    const FileJournal layout;
    QHash<quint32, Request> inflight;
    QHash<int, quint64> remaining; // chunk → bytes not yet received
    int current = -1;
    quint64 offset = 0;
    quint64 end = 0;
};

bool sendRead(SftpClient &sftp, const QByteArray &handle, ChunkPlan &plan, DownloadPipe &pipe, int chunk, quint64 off,
              quint32 len)
{
    auto id = sftp.sendRead(handle, off, len);
    if (!id) {
        plan.fail(id.error());
        return false;
    }
    pipe.inflight.insert(*id, DownloadPipe::Request{chunk, off, len});
    return true;
}

// Sends reads until twice kMaxInflight are in flight or no chunk is left; false when the worker
// must stop at once (a read could not be sent).
bool fillReadWindow(TransferContext &ctx, SftpClient &sftp, const QByteArray &handle, ChunkPlan &plan, DownloadPipe &pipe)
{
    while (pipe.inflight.size() < kMaxInflight * 2 && !ctx.cancelled()) {
        if (pipe.current < 0) {
            pipe.current = plan.take();
            if (pipe.current < 0) break;
            pipe.offset = pipe.layout.chunkOffset(pipe.current);
            pipe.end = pipe.offset + pipe.layout.chunkLength(pipe.current);
            pipe.remaining.insert(pipe.current, pipe.end - pipe.offset);
        }
        const quint32 n = quint32(std::min<quint64>(sftp.maxRead(), pipe.end - pipe.offset));
        if (!sendRead(sftp, handle, plan, pipe, pipe.current, pipe.offset, n)) return false;
        pipe.offset += n;
        if (pipe.offset >= pipe.end) pipe.current = -1;
    }
    return true;
}

// A status where data was expected: the file became shorter (EOF), or reading failed.
Error readFailure(TransferContext &ctx, SftpClient &sftp, const SftpClient::Reply &reply, const QString &remotePath)
{
    if (reply.status() == SftpClient::StatusEof) {
        return Error{ErrorCode::Conflict, TransferText::tr("%1 on %2 became shorter while it was being downloaded. "
                                                           "Retry to download the new version.").arg(remotePath, ctx.host())};
    }
    auto st = sftp.checkStatus(reply, TransferText::tr("Reading"), remotePath);
    return st ? Error{ErrorCode::RemoteFailed, TransferText::tr("Reading %1 failed.").arg(remotePath)} : st.error();
}

void downloadWorker(TransferContext &ctx, SftpClient &sftp, const QString &remotePath, const QString &localPartial,
                    ChunkPlan &plan)
{
    // Unbuffered: a chunk is journaled as done right after its last write, so every byte of it
    // must be in the file by then (a buffered QFile kept the last 16 KiB of a chunk in user
    // space, and a crash lost them although the journal counted them).
    LocalFile file;
    if (auto opened = file.open(localPartial, LocalFile::Existing); !opened) {
        plan.fail(opened.error());
        return;
    }
    auto handle = sftp.open(remotePath, SftpClient::OpenRead);
    if (!handle) {
        plan.fail(handle.error());
        return;
    }
    DownloadPipe pipe(plan.journal());
    WireMeter meter(sftp, ctx, plan);
    bool failed = false;

    for (;;) {
        if (!failed && !fillReadWindow(ctx, sftp, *handle, plan, pipe)) return;
        if (pipe.inflight.isEmpty()) break;
        auto reply = sftp.next();
        if (!reply) {
            plan.fail(reply.error());
            return;
        }
        const auto it = pipe.inflight.find(reply->id);
        if (it == pipe.inflight.end()) continue;
        const DownloadPipe::Request req = it.value();
        pipe.inflight.erase(it);
        if (failed) continue;
        if (reply->type == SftpClient::Status) {
            plan.fail(readFailure(ctx, sftp, *reply, remotePath));
            failed = true;
            continue;
        }
        QByteArray data;
        sftpwire::Reader(reply->body).string(&data);
        const quint32 got = quint32(std::min<qsizetype>(data.size(), req.length));
        if (got == 0) {
            plan.fail(Error{ErrorCode::RemoteFailed, TransferText::tr("Reading %1 returned no data.").arg(remotePath)});
            failed = true;
            continue;
        }
        if (auto written = file.writeAt(req.offset, data.constData(), got); !written) {
            plan.fail(written.error());
            failed = true;
            continue;
        }
        if (got < req.length && !sendRead(sftp, *handle, plan, pipe, req.chunk, req.offset + got, req.length - got)) return;
        meter.payload(got);
        quint64 &left = pipe.remaining[req.chunk];
        left -= got;
        if (left == 0) {
            pipe.remaining.remove(req.chunk);
            plan.done(req.chunk, QByteArrayLiteral("-"));
        }
    }
    if (ctx.cancelled()) {
        plan.fail(cancelledError());
        return;
    }
    (void)sftp.close(*handle);
}

// The interrupted download's journal when the remote file is unchanged and the staging file still
// has its size; else a fresh one, with a staging file of the full size created once it fits here.
Result<FileJournal> resumeOrStartDownload(TransferContext &ctx, const QString &key, const QString &remotePath,
                                          const QString &localFinal, const QString &partial, quint64 size, qint64 mtime,
                                          TransferOutcome &outcome)
{
    std::optional<FileJournal> journal = ctx.journals().loadFile(key);
    if (journal && (journal->size != size || journal->mtime != mtime || journal->chunkSize != kChunkSize)) {
        outcome.notes.append(TransferText::tr("%1 changed on the host since the interrupted download; starting again.").arg(remotePath));
        journal.reset();
    }
    if (journal && quint64(QFileInfo(partial).size()) != size) journal.reset();
    if (journal && journal->doneBytes() != 0) {
        outcome.resumed = true;
        return *journal;
    }
    // The host reports the size: it must fit here before anything is written (2^53 bytes
    // would be a sparse partial and a journal of 2^31 chunks).
    if (auto space = checkLocalSpace(QFileInfo(partial).absolutePath(), size, QFileInfo(localFinal).fileName()); !space) {
        return space.error();
    }
    const quint64 wire = journal ? journal->wireBytes : 0;
    FileJournal fresh = freshJournal(Direction::Download, ctx.host(), remotePath, localFinal, size, mtime);
    fresh.wireBytes = wire;
    LocalFile f;
    if (auto created = f.open(partial, LocalFile::Create); !created) return created.error();
    if (auto sized = f.resize(size); !sized) return sized.error();
    return fresh;
}

// Compares the local hash with the host's; a damaged copy is removed with its journal.
std::optional<Error> verifyDownloaded(TransferContext &ctx, SftpClient &sftp, std::optional<PendingRemoteHash> &remoteHash,
                                      const QByteArray &localHash, const QString &key, const QString &remotePath,
                                      const QString &localFinal, const QString &partial, TransferOutcome &outcome)
{
    auto remote = remoteHash ? remoteHash->finish() : sftpSha256(sftp, remotePath);
    if (remote) {
        if (*remote != localHash) {
            ctx.journals().remove(key);
            QFile::remove(partial);
            return Error{ErrorCode::RemoteFailed,
                         TransferText::tr("Integrity check failed for %1: SHA-256 is %2 here and %3 on %4. The damaged copy was "
                                          "removed; retry to download it again.")
                             .arg(localFinal, QString::fromLatin1(localHash), QString::fromLatin1(*remote), ctx.host())};
        }
        outcome.verified = true;
    } else {
        outcome.notes.append(TransferText::tr("Not verified: %1").arg(remote.error().message));
    }
    return std::nullopt;
}

// Renames the checked staging file to its final name (over an existing file only when told to),
// then checks that the final name holds what was checked.
Result<void> moveIntoPlace(const QString &partial, const QString &localFinal, bool replaceExisting, quint64 size)
{
    if (QFileInfo::exists(localFinal)) {
        if (!replaceExisting) {
            return Error{ErrorCode::Conflict, TransferText::tr("%1 appeared during the download; the download is kept as %2.")
                                                  .arg(localFinal, partial)};
        }
        QFile::remove(localFinal);
    }
    if (!QFile::rename(partial, localFinal)) {
        return Error{ErrorCode::Io, TransferText::tr("Cannot rename %1 to %2.").arg(partial, localFinal)};
    }
    const QFileInfo placed(localFinal);
    if (!placed.isFile() || placed.isSymLink() || quint64(placed.size()) != size || QFileInfo::exists(partial)) {
        return Error{ErrorCode::Io, TransferText::tr("%1 does not hold the checked download after the rename (%2 bytes expected). "
                                                     "Something else writes to this folder; retry once it is done.")
                                        .arg(localFinal).arg(size)};
    }
    return {};
}

} // namespace

namespace {

Result<TransferOutcome> downloadFileOnce(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                         const QString &remotePath, const QString &localFinal, bool replaceExisting)
{
    QElapsedTimer timer;
    timer.start();
    TransferOutcome outcome;
    outcome.destination = localFinal;
    auto attrs = sftp.stat(remotePath);
    if (!attrs) return attrs.error();
    if (!attrs->isRegular()) {
        return Error{ErrorCode::Usage, TransferText::tr("%1 on %2 is not a regular file.").arg(remotePath, ctx.host())};
    }
    const quint64 size = attrs->size.value_or(0);
    const qint64 mtime = attrs->mtime.value_or(0);
    const QString partial = JournalStore::stagingPath(Direction::Download, ctx.host(), QFileInfo(localFinal).absoluteFilePath());
    const QString key = JournalStore::key(Direction::Download, ctx.host(), remotePath, QFileInfo(localFinal).absoluteFilePath());
    if (auto replaceable = ctx.journals().checkReplaceable(key); !replaceable) return replaceable.error();

    auto journal = resumeOrStartDownload(ctx, key, remotePath, localFinal, partial, size, mtime, outcome);
    if (!journal) return journal.error();
    const quint64 already = journal->doneBytes();
    (void)ctx.journals().save(key, *journal);
    ctx.addResumed(already);

    // The extra sessions start connecting first (on a long link they are already on their way),
    // then the host starts hashing: both overlap with what follows.
    const qint64 roundTripMs = linkRoundTrip(ctx, sftp, true);
    const int workers = downloadWorkers(ctx, *journal, roundTripMs);
    std::optional<PendingRemoteHash> remoteHash;
    if (ctx.options().verify && size > kReadBackLimit) remoteHash.emplace(session, remotePath);
    ChunkPlan plan(ctx.journals(), key, *journal);
    runWorkers(ctx, sftp, workers, [&](SftpClient &client) {
        client.setWideReceiveWindow(roundTripMs >= kWideWindowFromMs);
        downloadWorker(ctx, client, remotePath, partial, plan);
    });
    plan.save();
    const FileJournal after = plan.journal();
    outcome.wireBytes = after.wireBytes;
    outcome.payloadBytes = after.doneBytes() - already;
    outcome.totalBytes = size;
    if (auto e = plan.error()) return *e;
    if (ctx.cancelled()) return cancelledError();

    auto localHash = sha256OfFile(partial, ctx.cancel());
    if (!localHash) return localHash.error();
    outcome.sha256 = QString::fromLatin1(*localHash);
    if (ctx.options().verify) {
        if (auto damaged = verifyDownloaded(ctx, sftp, remoteHash, *localHash, key, remotePath, localFinal, partial, outcome)) {
            return *damaged;
        }
    }
    if (auto placed = moveIntoPlace(partial, localFinal, replaceExisting, size); !placed) return placed.error();
    ctx.journals().remove(key);
    ctx.addFilesDone(1);
    outcome.files = 1;
    outcome.seconds = double(timer.elapsed()) / 1000.0;
    return outcome;
}

} // namespace

Result<TransferOutcome> downloadFile(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                     const QString &remotePath, const QString &localFinal, bool replaceExisting)
{
    Result<TransferOutcome> result = downloadFileOnce(ctx, session, sftp, remotePath, localFinal, replaceExisting);
    // A download cancelled for good leaves no staging file here (Pause and Ctrl+C keep it to resume).
    if (!result && ctx.cancelled() && ctx.discardsOnCancel()) {
        discardDownloadPartial(ctx.journals(), ctx.host(), remotePath, localFinal);
    }
    return result;
}

} // namespace gantry::transfer
