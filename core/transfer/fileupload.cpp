#include "core/transfer/fileupload.h"
#include "core/transfer/partialcleanup.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/chunkplan.h"
#include "core/transfer/chunkworkers.h"
#include "core/transfer/hashahead.h"
#include "core/transfer/localwrite.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/sessionprefetch.h"
#include "core/transfer/sha256.h"
#include "core/transfer/uploadworker.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMap>
#include <QThread>

#include <atomic>
#include <thread>

namespace gantry::transfer {

namespace {

// The local file must exist and be readable before anything is created on the host.
Result<void> checkReadable(const QFileInfo &info, const QString &localPath)
{
    if (!info.exists()) {
        return Error{ErrorCode::NotFound, TransferText::tr("The local file %1 does not exist.").arg(localPath)};
    }
    QFile probe(localPath);
    if (!probe.open(QIODevice::ReadOnly)) {
        return Error{ErrorCode::PermissionDenied,
                     TransferText::tr("Cannot read the local file %1: %2. Check its permissions.").arg(localPath, probe.errorString())};
    }
    return {};
}

// What resumeOrStart leaves open for the first session's worker, and its free-space question.
struct StagingOpen
{
    std::optional<QByteArray> created;             // the staging file, created empty on the first client
    QHash<const SftpClient *, QByteArray> onLanes; // and opened on the session's extra channels with it
    Result<quint32> spaceAsked = Error{ErrorCode::Generic, QString()};
};

// Opens the staging file for writing on the first session's extra channels (those SessionPrefetch
// opened with it), in the round trip of its creation: sftp-server answers each channel on its
// own, so nothing is written before every open (the truncating one included) has answered.
std::vector<std::pair<SftpClient *, Result<quint32>>> sendLaneOpens(TransferContext &ctx, const SftpClient &first, const QString &partial)
{
    std::vector<std::pair<SftpClient *, Result<quint32>>> sent;
    if (const SessionPrefetch *p = ctx.prefetch()) {
        for (SftpClient *lane : p->primaryLanes()) {
            if (lane->sameSession(first)) sent.emplace_back(lane, lane->sendOpen(partial, SftpClient::OpenWrite | SftpClient::OpenCreate, 0644));
        }
    }
    return sent;
}

// The interrupted upload's journal when the file is unchanged and the staging file still holds
// what it says was acknowledged; else a fresh one, with an empty staging file created on the host and left
// open in opened->created (and on the lanes) for the first worker.
Result<FileJournal> resumeOrStart(TransferContext &ctx, SftpClient &sftp, const QString &key, const QFileInfo &info,
                                  const QString &localPath, const QString &partial, const QString &remoteFinal,
                                  TransferOutcome &outcome, StagingOpen *opened)
{
    Result<quint32> *spaceAsked = &opened->spaceAsked;
    const quint64 size = quint64(info.size());
    const qint64 mtime = info.lastModified().toMSecsSinceEpoch();
    std::optional<FileJournal> journal = ctx.journals().loadFile(key);
    if (journal && (journal->size != size || journal->mtime != mtime || journal->chunkSize != kChunkSize)) {
        outcome.notes.append(TransferText::tr("%1 changed since the interrupted upload; starting it again from zero.").arg(localPath));
        journal.reset();
    }
    if (journal) {
        auto st = sftp.stat(partial);
        quint64 needed = 0;
        for (int i = 0; i < journal->chunkCount(); ++i) {
            if (journal->done[i]) needed = std::max(needed, journal->chunkOffset(i) + journal->chunkLength(i));
        }
        if (!st || !st->size || *st->size < needed) journal.reset();
    }
    if (journal && journal->doneBytes() != 0) {
        outcome.resumed = true;
        *spaceAsked = sftp.sendStatvfs(remoteParent(partial));
        return *journal;
    }
    const quint64 wire = journal ? journal->wireBytes : 0;
    FileJournal fresh = freshJournal(Direction::Upload, ctx.host(), info.absoluteFilePath(), remoteFinal, size, mtime);
    fresh.wireBytes = wire;
    // The free space is asked with the open, after it: sftp-server answers in order, so a stale
    // staging file the open truncates no longer counts as taken.
    auto openId = sftp.sendOpen(partial, SftpClient::OpenWrite | SftpClient::OpenCreate | SftpClient::OpenTruncate, 0644);
    if (!openId) return openId.error();
    *spaceAsked = sftp.sendStatvfs(remoteParent(partial));
    // Every answer is read, even after a failure: the clients stay in use.
    for (auto &[lane, id] : sendLaneOpens(ctx, sftp, partial)) {
        if (!id) continue;
        if (auto laneHandle = lane->openedHandle(lane->waitFor(*id), partial, SftpClient::OpenWrite)) opened->onLanes.insert(lane, *laneHandle);
    }
    auto h = sftp.openedHandle(sftp.waitFor(*openId), partial, SftpClient::OpenWrite);
    if (!h) {
        if (*spaceAsked) (void)sftp.waitFor(**spaceAsked);
        return h.error();
    }
    opened->created = *h;
    return fresh;
}

// The host's free space must hold what is still to send; `asked`: the statvfs request, sent with
// the staging file's lookup or creation (one round trip fewer before data).
Result<void> checkRemoteSpace(TransferContext &ctx, SftpClient &sftp, const QFileInfo &info, const QString &partial, quint64 toSend,
                              const Result<quint32> &asked)
{
    if (!asked) return {}; // a host without statvfs@openssh.com: the write says when the disk is full
    if (auto space = sftp.spaceFrom(sftp.waitFor(*asked), remoteParent(partial)); space && space->freeBytes + 65536 < toSend) {
        return Error{ErrorCode::DiskFull,
                     TransferText::tr("Not enough space on %1 for %2: %3 free in %4, %5 needed. Free some space (or pick another "
                                      "directory) and retry.")
                         .arg(ctx.host(), info.fileName(), formatBytes(space->freeBytes), remoteParent(partial),
                              formatBytes(toSend))};
    }
    return {};
}

// Checks the uploaded staging file against the local hash: by the host's chunk or whole-file digest
// when its python3 answered, else by a whole-file hash run there now. A damaged copy is removed
// with its journal.
std::optional<Error> verifyUploaded(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                    std::optional<RemoteChunkHasher> &chunkHasher, const std::function<bool(int)> &isDone,
                                    const FileJournal &after, const QByteArray &localHash, const QString &key,
                                    const QString &partial, const QString &remoteFinal, TransferOutcome &outcome)
{
    const auto damaged = [&](const QString &what, const QByteArray &found, const QByteArray &expected) {
        ctx.journals().remove(key);
        (void)sftp.remove(partial);
        return Error{ErrorCode::RemoteFailed,
                     TransferText::tr("Integrity check failed for %1: SHA-256 of %2 on %3 is %4, expected %5. The damaged copy "
                                      "was removed; retry to upload it again.")
                         .arg(remoteFinal, what, ctx.host(), QString::fromLatin1(found), QString::fromLatin1(expected))};
    };
    if (chunkHasher && chunkHasher->mode() == RemoteChunkHasher::Mode::WholeFile) {
        if (auto remote = chunkHasher->finishWhole(isDone)) {
            if (*remote != localHash) return damaged(TransferText::tr("the file"), *remote, localHash);
            outcome.verified = true;
        }
    } else if (chunkHasher) {
        // Chunk mode only runs when no chunk was sent without a hash ("-"): see sendChunks.
        if (auto chunks = chunkHasher->finish(isDone)) {
            for (int i = 0; i < chunks->size(); ++i) {
                if (chunks->at(i) != after.chunkHashes.value(i)) {
                    return damaged(TransferText::tr("bytes %1–%2").arg(after.chunkOffset(i)).arg(after.chunkOffset(i) + after.chunkLength(i)),
                                   chunks->at(i), after.chunkHashes.value(i));
                }
            }
            outcome.verified = true;
        }
    }
    if (!outcome.verified && ctx.cancelled()) return cancelledError(); // the journal stays: a rerun checks again
    if (!outcome.verified) {
        // Small files, hosts without python3, journals from older versions: the whole file.
        auto remote = after.size > kReadBackLimit ? remoteSha256(session, partial) : sftpSha256(sftp, partial);
        if (remote && *remote != localHash) return damaged(TransferText::tr("the file"), *remote, localHash);
        if (remote) outcome.verified = true;
        else outcome.notes.append(TransferText::tr("Not verified: %1").arg(remote.error().message));
    }
    return std::nullopt;
}

// A file that changed while it went out is uploaded again from the start: its journal is dropped.
Result<void> checkUnchanged(TransferContext &ctx, const QString &localPath, quint64 size, qint64 mtime, const QString &key)
{
    const QFileInfo now(localPath);
    if (quint64(now.size()) == size && now.lastModified().toMSecsSinceEpoch() == mtime) return {};
    ctx.journals().remove(key);
    return Error{ErrorCode::Conflict,
                 TransferText::tr("%1 changed while it was being uploaded. Retry to upload the new version from the start.").arg(localPath)};
}

// Without replaceExisting, a file that appeared at the destination meanwhile wins; ours stays in
// its staging file. After the rename the final name must hold what was checked.
Result<void> moveIntoPlace(TransferContext &ctx, SftpClient &sftp, const QString &partial, const QString &remoteFinal,
                           bool replaceExisting, quint64 size)
{
    const SftpClient::Renamed moved = sftp.renameAndLstat(partial, remoteFinal, replaceExisting);
    const Result<void> &r = moved.renamed;
    if (!r && (replaceExisting || !moved.after)) return r;
    if (!r) {
        return Error{ErrorCode::Conflict,
                     TransferText::tr("%1 appeared on %2 during the upload; the upload is kept as %3.").arg(remoteFinal, ctx.host(), partial)};
    }
    const Result<SftpAttrs> &placed = moved.after;
    if (!placed || !placed->isRegular() || placed->size.value_or(~quint64(0)) != size) {
        return Error{ErrorCode::RemoteFailed, TransferText::tr("%1 on %2 does not hold the checked upload after the rename (%3 bytes "
                                                               "expected). Something else writes there; retry once it is done.")
                                                  .arg(remoteFinal, ctx.host())
                                                  .arg(size)};
    }
    return {};
}

// Sends the chunks still missing over the sessions the link wants and returns the whole file's
// SHA-256, computed here while they go out. Large files are checked on the host (chunkHasher, set
// up here): chunk by chunk on long links, and on short links after a resume; by the whole file
// when a fresh upload runs on a short link (there the CPUs set the pace, and one pass on each side
// beats three). Announced while the chunks go out (on long links and for the whole file) from the
// first session's thread (which owns `session`), on the python runTransfer started with the SFTP
// channels (its login shell ran meanwhile), given its program once the first chunk is done; where
// there is none, started then on a channel of its own.
Result<QByteArray> sendChunks(TransferContext &ctx, ssh::Session &session, SftpClient &sftp, const QString &localPath,
                              const QString &partial, ChunkPlan &plan, const StagingOpen &opened,
                              std::optional<RemoteChunkHasher> &chunkHasher, std::atomic<int> *channels)
{
    const FileJournal journal = plan.journal();
    const bool hostCheck = ctx.options().verify && journal.size > kReadBackLimit;
    const qint64 roundTripMs = linkRoundTrip(ctx, sftp, hostCheck);
    const bool wholeCheck = hostCheck && roundTripMs >= 0 && roundTripMs < 10 && journal.doneBytes() == 0;
    // Chunks sent without a hash of their own ("-") leave the whole-file check to the end.
    const bool chunkCheck = hostCheck && !wholeCheck && !journal.chunkHashes.contains(QByteArrayLiteral("-"));
    const auto mode = wholeCheck ? RemoteChunkHasher::Mode::WholeFile : RemoteChunkHasher::Mode::Chunks;
    if (!chunkCheck && !wholeCheck) (void)ctx.takeWaitingPython(); // not needed: its channel closes now
    const auto openHasher = [&] {
        if (chunkHasher) return;
        if (auto waiting = ctx.takeWaitingPython()) {
            chunkHasher.emplace(std::move(waiting), partial, kChunkSize, journal.chunkCount(), mode, ctx.cancel());
        } else {
            chunkHasher.emplace(session, partial, kChunkSize, journal.chunkCount(), mode, ctx.cancel());
        }
    };
    const auto isDone = [&plan](int chunk) { return plan.isDone(chunk); };
    const Fanout fanout = fileFanout(ctx, journal, roundTripMs);
    const int workers = fanout.sessions;
    // The whole-file hash: from the sent buffers when one session sends the file in order, else
    // read on its own thread.
    Result<QByteArray> localHash = Error{ErrorCode::Generic, QString()};
    std::optional<InlineHash> inlineHash;
    std::thread hasher;
    HashAhead *ahead = ctx.hashAhead();
    if (ahead && !ahead->matches(QFileInfo(localPath).absoluteFilePath(), journal.size, journal.mtime)) {
        ahead->drop(); // another file, or this one changed: its hash is read again below, not twice at once
        ahead = nullptr;
    }
    if (workers == 1 && fanout.lanes == 1 && journal.doneBytes() == 0) {
        inlineHash.emplace();
        if (ahead) ahead->drop();
    } else if (!ahead) {
        hasher = std::thread([&] { localHash = sha256OfFile(localPath, ctx.cancel()); });
    }
    // On a short link the CPUs, not the network, limit the transfer: the host then hashes all
    // chunks at the end, on all its cores, instead of competing with the transfer for them. The
    // whole file is hashed in order, on one core, best while it arrives.
    const bool followAlong = (chunkCheck && roundTripMs >= 10) || wholeCheck;
    // Called on the first session's thread as its chunks complete, and once its own are done, as
    // the other sessions' complete: the host's answer for the last ones overlaps their close.
    std::function<void()> follow;
    if (followAlong) follow = [&] {
        if (ctx.cancelled() || plan.error()) return; // the check would not be read
        openHasher();
        chunkHasher->advance(isDone);
    };
    runLaneWorkers(ctx, &session, sftp, fanout, [&](Lanes &lanes) {
        SftpClient &client = lanes.first;
        WorkerExtras extras;
        extras.chunkHashes = chunkCheck; // only the chunk check reads them (then or after a resume)
        if (&client == &sftp) {
            extras.opened = opened.created;
            extras.lanesOpened = opened.onLanes;
            extras.whole = inlineHash ? &*inlineHash : nullptr;
            extras.chunkDone = follow;
        }
        *channels += uploadWorker(ctx, lanes, localPath, partial, journal.size, plan, extras);
    }, follow);
    if (chunkCheck || wholeCheck) openHasher();
    if (hasher.joinable()) hasher.join();
    if (ahead && !inlineHash) localHash = ahead->take(ctx.cancel());
    if (!inlineHash || plan.error() || ctx.cancelled()) return localHash;
    if (inlineHash->inOrder && inlineHash->at == journal.size) return inlineHash->hash.hexDigest();
    return sha256OfFile(localPath, ctx.cancel());
}

} // namespace

int sessionCap()
{
    // Every session costs this computer a share of a core (encryption, tar, hashing) and the
    // host one too (sshd, tar). Where the CPUs limit, past two a core they stop adding speed and
    // start taking it (each sshd copies its full 2 MiB channel buffer again as it grows, starving
    // the tar behind it). A folder's tar streams on a long link are held to their windows
    // instead, and take up to kLongLinkTreeSessions whatever the cores (treeParallel).
    static const int cap = std::clamp(2 * QThread::idealThreadCount(), 2, 16);
    return cap;
}

int autoParallel(quint64 size, qint64 roundTripMs)
{
    // Each session is capped by sshd's 2 MiB channel window per round trip, so long links need
    // several; on a short link one session is faster (the extra ones only burn the shared CPU).
    if (size < 32ull * 1024 * 1024 || roundTripMs < 10) return 1;
    if (roundTripMs < 30) return std::min(size >= 256ull * 1024 * 1024 ? 4 : 2, sessionCap());
    return std::min(size >= 256ull * 1024 * 1024 ? 8 : 4, sessionCap());
}

int fileParallel(quint64 size, qint64 roundTripMs)
{
    // A session carries ~10-15 MB/s at 100 ms (sshd's window): from 64 MiB, two chunks a session,
    // eight. On a short link sshd decrypts and writes a session on one core: from 256 MiB two,
    // whose share of the CPUs outweighs the second read of the file for its hash.
    if (roundTripMs >= 30 && size >= 64ull * 1024 * 1024) return std::min(8, sessionCap());
    if (roundTripMs >= 0 && roundTripMs < 10 && size >= 256ull * 1024 * 1024) return 2;
    return autoParallel(size, roundTripMs);
}

namespace {

Result<TransferOutcome> uploadFileOnce(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                       const QString &localPath, const QString &remoteFinal, bool replaceExisting)
{
    QElapsedTimer timer;
    timer.start();
    TransferOutcome outcome;
    outcome.destination = remoteFinal;
    const QFileInfo info(localPath);
    if (auto readable = checkReadable(info, localPath); !readable) return readable.error();
    const quint64 size = quint64(info.size());
    const qint64 mtime = info.lastModified().toMSecsSinceEpoch();
    const QString partial = JournalStore::stagingPath(Direction::Upload, ctx.host(), remoteFinal);
    const QString key = JournalStore::key(Direction::Upload, ctx.host(), info.absoluteFilePath(), remoteFinal);
    if (auto replaceable = ctx.journals().checkReplaceable(key); !replaceable) return replaceable.error();
    StagingOpen opened;
    auto journal = resumeOrStart(ctx, sftp, key, info, localPath, partial, remoteFinal, outcome, &opened);
    if (!journal) return journal.error();
    const quint64 already = journal->doneBytes();
    if (auto space = checkRemoteSpace(ctx, sftp, info, partial, size - already, opened.spaceAsked); !space) {
        if (opened.created) (void)sftp.close(*opened.created); // the lanes' handles close with their channels
        return space.error();
    }
    (void)ctx.journals().save(key, *journal);
    ctx.addResumed(already);

    ChunkPlan plan(ctx.journals(), key, *journal);
    const auto isDone = [&plan](int chunk) { return plan.isDone(chunk); };
    std::optional<RemoteChunkHasher> chunkHasher;
    std::atomic<int> channels{0};
    Result<QByteArray> localHash = sendChunks(ctx, session, sftp, localPath, partial, plan, opened, chunkHasher, &channels);
    outcome.channels = channels;
    plan.save();
    const FileJournal after = plan.journal();
    outcome.wireBytes = after.wireBytes;
    outcome.payloadBytes = after.doneBytes() - already;
    outcome.totalBytes = size;
    if (auto e = plan.error()) return *e;
    if (ctx.cancelled()) return cancelledError();
    if (!after.complete()) {
        return Error{ErrorCode::Generic, TransferText::tr("Upload of %1 stopped before the end; retry to continue.").arg(localPath)};
    }

    if (auto unchanged = checkUnchanged(ctx, localPath, size, mtime, key); !unchanged) return unchanged.error();
    if (!localHash) return localHash.error();
    outcome.sha256 = QString::fromLatin1(*localHash);
    if (ctx.options().verify) {
        const auto damaged = verifyUploaded(ctx, session, sftp, chunkHasher, isDone, after, *localHash, key, partial, remoteFinal,
                                            outcome);
        if (damaged) return *damaged;
    }
    if (auto moved = moveIntoPlace(ctx, sftp, partial, remoteFinal, replaceExisting, size); !moved) return moved.error();
    ctx.journals().remove(key);
    ctx.addFilesDone(1);
    outcome.files = 1;
    outcome.seconds = double(timer.elapsed()) / 1000.0;
    return outcome;
}

} // namespace

Result<TransferOutcome> uploadFile(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                   const QString &localPath, const QString &remoteFinal, bool replaceExisting)
{
    Result<TransferOutcome> result = uploadFileOnce(ctx, session, sftp, localPath, remoteFinal, replaceExisting);
    if (!result && ctx.cancelled() && ctx.discardsOnCancel()) {
        discardUploadPartial(ctx.factory(), ctx.journals(), ctx.host(), localPath, remoteFinal);
    }
    return result;
}

} // namespace gantry::transfer
