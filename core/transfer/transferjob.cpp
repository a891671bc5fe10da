#include "core/transfer/transferjob.h"
#include "core/transfer/batchrunner.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/fileupload.h"
#include "core/transfer/localwrite.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/sessionprefetch.h"
#include "core/transfer/sha256.h"
#include "core/transfer/hashahead.h"
#include "core/transfer/sftpclient.h"
#include "core/transfer/treetransfer.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QScopeGuard>
#include <QThread>

#include <optional>

namespace gantry::transfer {

namespace {

Error conflictError(const QString &what, const QString &where)
{
    return Error{ErrorCode::Conflict, TransferText::tr("%1 already exists%2. Choose what to do: overwrite, resume, skip or rename "
                                                       "(CLI: --on-conflict).").arg(what, where)};
}

// Decides Ask through the resolver; Ask stays Ask when nobody can be asked.
ConflictPolicy decide(TransferContext &ctx, const QString &destination, bool isDir)
{
    ConflictPolicy p = ctx.options().onConflict;
    if (p == ConflictPolicy::Ask && ctx.resolver()) p = ctx.resolver()(destination, isDir);
    return p;
}

// What to do about an existing destination: go on with the decided policy (the destination
// maybe renamed, maybe replaced), or stop with an outcome already (skipped, identical).
struct ConflictDecision
{
    QString destination;
    ConflictPolicy policy = ConflictPolicy::Ask;
    bool replace = false;
    std::optional<TransferOutcome> finished;
};

// Where an upload goes, and (when known from the same round trip) what is there now.
struct UploadDestination
{
    QString path;
    std::optional<Result<SftpAttrs>> existing;
};

// An upload's remote path as given, "~" meaning the home folder: relative paths are the home's.
QString uploadRemote(const TransferRequest &req)
{
    QString remote = req.remotePath.isEmpty() ? QStringLiteral(".") : req.remotePath;
    if (remote.startsWith(QLatin1String("~/"))) remote = remote.mid(2);
    if (remote == QLatin1String("~")) remote = QStringLiteral(".");
    return remote;
}

// A download's remote path as given: relative paths are the home's.
QString downloadRemote(const TransferRequest &req)
{
    return req.remotePath.startsWith(QLatin1String("~/")) ? req.remotePath.mid(2) : req.remotePath;
}

// The first question of the destination check (uploadDestination, runDownload) sent with the
// SFTP handshake, one round trip fewer before data: the home folder for a relative path, else
// the path itself and, for an upload, the name inside it.
void askDestinationAhead(const TransferRequest &req, SftpClient &sftp)
{
    const QString remote = req.direction == Direction::Upload ? uploadRemote(req) : downloadRemote(req);
    if (!remote.startsWith(QLatin1Char('/'))) {
        sftp.askAhead(SftpClient::Realpath, QStringLiteral("."));
    } else if (req.direction == Direction::Upload) {
        sftp.askAhead(SftpClient::Stat, remote);
        sftp.askAhead(SftpClient::Stat, remoteJoin(remote, QFileInfo(req.localPath).fileName()));
    } else {
        QString path = remote;
        while (path.size() > 1 && path.endsWith(QLatin1Char('/'))) path.chop(1); // as runDownload asks
        sftp.askAhead(SftpClient::Stat, path);
    }
}

// The remote path an upload of `local` writes: into remotePath when that is (or is to be) a
// folder, else remotePath itself, whose parent must exist. "~" and relative paths are the home's.
Result<UploadDestination> uploadDestination(const TransferRequest &req, TransferContext &ctx, SftpClient &sftp, const QFileInfo &local)
{
    QString remote = uploadRemote(req);
    if (!remote.startsWith(QLatin1Char('/'))) {
        auto home = sftp.realpath(QStringLiteral("."));
        if (!home) return home.error();
        remote = remote == QLatin1String(".") ? *home : remoteJoin(*home, remote);
    }
    QString dest;
    // The destination and the name inside it in one round trip: remotePath is most often a
    // folder, and then the second answer is what uploadConflict needs.
    const QString inside = remoteJoin(remote, local.fileName());
    const auto both = sftp.stats({remote, inside});
    const Result<SftpAttrs> &st = both[0];
    if (st && st->isDir()) {
        dest = inside;
    } else if (req.destinationIsDir || req.remotePath.endsWith(QLatin1Char('/'))) {
        if (st) return Error{ErrorCode::Conflict, TransferText::tr("%1 on %2 is a file, not a directory.").arg(remote, ctx.host())};
        if (auto m = sftp.mkdirs(remote); !m) return m.error();
        dest = remoteJoin(remote, local.fileName());
    } else {
        const QString parent = remoteParent(remote);
        auto pst = sftp.stat(parent);
        if (!pst) {
            if (pst.error().code == ErrorCode::NotFound) {
                return Error{ErrorCode::NotFound, TransferText::tr("The destination folder %1 does not exist on %2. Create it first, "
                                                                   "or end the destination with '/' to have it created.")
                                                      .arg(parent, ctx.host())};
            }
            return pst.error();
        }
        dest = remote;
    }
    while (dest.size() > 1 && dest.endsWith(QLatin1Char('/'))) dest.chop(1);
    if (dest == inside && st && st->isDir()) return UploadDestination{dest, both[1]};
    return UploadDestination{dest, std::nullopt};
}

Result<ConflictDecision> uploadConflict(const TransferRequest &req, TransferContext &ctx, ssh::Session &session,
                                        SftpClient &sftp, const QFileInfo &local, const UploadDestination &destination)
{
    const QString &dest = destination.path;
    ConflictDecision d{dest, ctx.options().onConflict, false, std::nullopt};
    auto existing = destination.existing ? *destination.existing : sftp.stat(dest);
    if (existing) {
        d.policy = decide(ctx, dest, existing->isDir());
        if (existing->isDir() != local.isDir()) {
            return Error{ErrorCode::Conflict, TransferText::tr("%1 on %2 exists and is a %3; the source is a %4.")
                                                  .arg(dest, ctx.host(), existing->isDir() ? TransferText::tr("folder") : TransferText::tr("file"),
                                                       local.isDir() ? TransferText::tr("folder") : TransferText::tr("file"))};
        }
        switch (d.policy) {
        case ConflictPolicy::Ask:
            if (!local.isDir()) return conflictError(dest, TransferText::tr(" on %1").arg(ctx.host()));
            break; // folders: only files that really collide are a conflict
        case ConflictPolicy::Skip:
            if (!local.isDir()) {
                TransferOutcome o;
                o.skipped = true;
                o.destination = dest;
                o.notes.append(TransferText::tr("%1 exists on %2; skipped.").arg(dest, ctx.host()));
                d.finished = o;
                return d;
            }
            break;
        case ConflictPolicy::Rename:
            d.destination = firstFreeName(dest, [&](const QString &p) { return sftp.stat(p).ok(); });
            break;
        case ConflictPolicy::Overwrite: d.replace = true; break;
        case ConflictPolicy::Resume:
            if (!local.isDir()) {
                if (existing->size.value_or(0) == quint64(local.size())) {
                    auto theirs = existing->size.value_or(0) <= kReadBackLimit ? sftpSha256(sftp, dest)
                                                                               : remoteSha256(session, dest);
                    auto ours = sha256OfFile(local.absoluteFilePath(), ctx.cancel());
                    if (theirs && ours && *theirs == *ours) {
                        TransferOutcome o;
                        o.skipped = true;
                        o.verified = true;
                        o.destination = dest;
                        o.sha256 = QString::fromLatin1(*ours);
                        o.notes.append(TransferText::tr("%1 on %2 is already identical.").arg(dest, ctx.host()));
                        d.finished = o;
                return d;
                    }
                }
                return Error{ErrorCode::Conflict, TransferText::tr("%1 exists on %2 and differs from %3; resume cannot continue it. "
                                                                   "Choose overwrite or rename.")
                                                      .arg(dest, ctx.host(), req.localPath)};
            }
            break;
        }
    }
    return d;
}

// The local path a download of the remote `name` writes: into localPath when that is (or is to
// be) a folder, else localPath itself, whose folder must exist.
Result<QString> downloadDestination(const TransferRequest &req, const QString &name)
{
    QString dest;
    const QFileInfo localInfo(req.localPath.isEmpty() ? QStringLiteral(".") : req.localPath);
    if (localInfo.isDir()) {
        dest = QDir(localInfo.absoluteFilePath()).filePath(name);
    } else if (req.destinationIsDir || req.localPath.endsWith(QLatin1Char('/'))) {
        if (localInfo.exists()) return Error{ErrorCode::Conflict, TransferText::tr("%1 is a file, not a folder.").arg(req.localPath)};
        if (!QDir().mkpath(localInfo.absoluteFilePath())) {
            return Error{ErrorCode::PermissionDenied, TransferText::tr("Cannot create the folder %1.").arg(req.localPath)};
        }
        dest = QDir(localInfo.absoluteFilePath()).filePath(name);
    } else {
        if (!QFileInfo(localInfo.absolutePath()).isDir()) {
            return Error{ErrorCode::NotFound, TransferText::tr("The local folder %1 does not exist.").arg(localInfo.absolutePath())};
        }
        dest = localInfo.absoluteFilePath();
    }
    return dest;
}

Result<ConflictDecision> downloadConflict(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                          const SftpAttrs &st, const QString &remote, const QString &dest)
{
    ConflictDecision d{dest, ctx.options().onConflict, false, std::nullopt};
    const QFileInfo existing(dest);
    if (existing.exists()) {
        d.policy = decide(ctx, dest, existing.isDir());
        switch (d.policy) {
        case ConflictPolicy::Ask:
            if (!st.isDir()) return conflictError(dest, QString());
            break;
        case ConflictPolicy::Skip:
            if (!st.isDir()) {
                TransferOutcome o;
                o.skipped = true;
                o.destination = dest;
                o.notes.append(TransferText::tr("%1 exists; skipped.").arg(dest));
                d.finished = o;
                return d;
            }
            break;
        case ConflictPolicy::Rename:
            d.destination = firstFreeName(dest, [](const QString &p) { return QFileInfo::exists(p); });
            break;
        case ConflictPolicy::Overwrite: d.replace = true; break;
        case ConflictPolicy::Resume:
            if (!st.isDir()) {
                if (quint64(existing.size()) == st.size.value_or(0)) {
                    auto ours = sha256OfFile(dest, ctx.cancel());
                    auto theirs = st.size.value_or(0) <= kReadBackLimit ? sftpSha256(sftp, remote)
                                                                         : remoteSha256(session, remote);
                    if (ours && theirs && *ours == *theirs) {
                        TransferOutcome o;
                        o.skipped = true;
                        o.verified = true;
                        o.destination = dest;
                        o.sha256 = QString::fromLatin1(*ours);
                        o.notes.append(TransferText::tr("%1 is already identical.").arg(dest));
                        d.finished = o;
                return d;
                    }
                }
                return Error{ErrorCode::Conflict, TransferText::tr("%1 exists and differs from %2 on %3; choose overwrite or rename.")
                                                      .arg(dest, remote, ctx.host())};
            }
            break;
        }
    }
    return d;
}

Result<TransferOutcome> runUpload(const TransferRequest &req, TransferContext &ctx, ssh::Session &session, SftpClient &sftp)
{
    const QFileInfo local(req.localPath);
    if (!local.exists() && !local.isSymLink()) {
        return Error{ErrorCode::NotFound, TransferText::tr("The local file %1 does not exist.").arg(req.localPath)};
    }
    if (local.isSymLink() && !ctx.options().followSymlinks) {
        TransferOutcome o;
        o.skipped = true;
        o.notes.append(TransferText::tr("Skipped symlink %1 (symlinks are not followed).").arg(req.localPath));
        return o;
    }
    if (!local.exists()) {
        return Error{ErrorCode::NotFound, TransferText::tr("%1 is a broken symlink.").arg(req.localPath)};
    }
    const auto destination = uploadDestination(req, ctx, sftp, local);
    if (!destination) return destination.error();
    const auto decision = uploadConflict(req, ctx, session, sftp, local, *destination);
    sftp.settleAhead();
    if (!decision) return decision.error();
    if (decision->finished) return *decision->finished;
    const QString &dest = decision->destination;
    ctx.setDestination(dest); // the queue shows where it goes, a renamed copy's new name included
    // Two transfers into one destination would break each other's partial: the later one stops.
    auto lock = DestinationLock::acquire(ctx.journals().directory(), ctx.host(), dest);
    if (!lock) return lock.error();
    if (local.isDir()) return uploadTree(ctx, session, sftp, local.absoluteFilePath(), dest, decision->policy);
    ctx.addTotals(quint64(local.size()), 1);
    return uploadFile(ctx, session, sftp, local.absoluteFilePath(), dest, decision->replace);
}

// A folder that an earlier attempt of this transfer began filling (the link dropped) is filled
// on: what that attempt finished is there complete and verified (each file staged, then renamed
// in place), and is kept where its size matches, whatever Ask or Rename decided then.
ConflictDecision folderOfAnEarlierAttempt(const TransferContext &ctx)
{
    const ConflictPolicy then = ctx.folderPolicy();
    const bool keep = then == ConflictPolicy::Skip || then == ConflictPolicy::Overwrite;
    return ConflictDecision{ctx.folderWrittenInto(), keep ? then : ConflictPolicy::Resume, false, std::nullopt};
}

Result<TransferOutcome> runDownload(const TransferRequest &req, TransferContext &ctx, ssh::Session &session, SftpClient &sftp)
{
    QString remote = downloadRemote(req);
    if (!remote.startsWith(QLatin1Char('/'))) {
        auto home = sftp.realpath(QStringLiteral("."));
        if (!home) return home.error();
        remote = remoteJoin(*home, remote);
    }
    while (remote.size() > 1 && remote.endsWith(QLatin1Char('/'))) remote.chop(1);
    auto st = sftp.stat(remote);
    sftp.settleAhead();
    if (!st) return st.error();
    if (const QString last = remoteBaseName(remote); last == QLatin1String(".") || last == QLatin1String("..")) {
        auto real = sftp.realpath(remote); // "host:." is the home folder; the answer is checked below
        if (!real) return real.error();
        remote = *real;
    }
    const QString name = remoteBaseName(remote);
    if (!isPlainName(name)) { // "/x/..", "/x/.", "/": the local name would climb out of the destination
        return Error{ErrorCode::Usage, TransferText::tr("%1 on %2 does not end in a file or folder name. Name it directly (e.g. "
                                                        "/data/run1 instead of /data/run1/x/..) and retry.").arg(req.remotePath, ctx.host())};
    }
    const auto destination = downloadDestination(req, name);
    if (!destination) return destination.error();
    const auto decision = st->isDir() && QFileInfo(ctx.folderWrittenInto()).isDir() ? Result<ConflictDecision>(folderOfAnEarlierAttempt(ctx))
                                                                                   : downloadConflict(ctx, session, sftp, *st, remote, *destination);
    if (!decision) return decision.error();
    if (decision->finished) return *decision->finished;
    const QString &dest = decision->destination;
    ctx.setDestination(dest); // the queue shows where it goes, a renamed copy's new name included
    auto lock = DestinationLock::acquire(ctx.journals().directory(), QString(), dest); // one local path, any host
    if (!lock) return lock.error();
    if (st->isDir()) return downloadTree(ctx, session, sftp, remote, dest, decision->policy);
    ctx.addTotals(st->size.value_or(0), 1);
    return downloadFile(ctx, session, sftp, remote, dest, decision->replace);
}

// The size of the one local file an upload sends (followed through a link where the options
// allow); none for a download, a folder or a link left out.
std::optional<quint64> oneFileToUpload(const TransferRequest &request, const TransferContext &ctx)
{
    const QFileInfo local(request.localPath);
    if (request.direction == Direction::Download || !local.isFile()) return std::nullopt;
    if (local.isSymLink() && !ctx.options().followSymlinks) return std::nullopt;
    return quint64(local.size());
}

// The extra sessions worth connecting ahead: a large file's chunks, a folder's batches, or
// whatever a download turns out to be.
SessionPrefetch::Helpers prefetchFor(const TransferRequest &request, const TransferContext &ctx)
{
    if (request.direction == Direction::Download) return SessionPrefetch::forDownload();
    const QFileInfo local(request.localPath);
    if (local.isSymLink() && !ctx.options().followSymlinks) return {};
    if (local.isDir()) return SessionPrefetch::forFolderUpload();
    return SessionPrefetch::forOneUpload(ctx, oneFileToUpload(request, ctx).value_or(0));
}

// SFTP channels besides the first on each session: for one large file to upload.
SessionPrefetch::Lanes lanesFor(const TransferRequest &request, const TransferContext &ctx)
{
    const std::optional<quint64> size = oneFileToUpload(request, ctx);
    return size ? SessionPrefetch::lanesForOneUpload(ctx, *size) : SessionPrefetch::Lanes();
}

// The whole-file hash of a large file to upload, read while the sessions connect (a file that
// fans out over sessions or channels needs it read apart from what it sends).
std::unique_ptr<HashAhead> hashAheadFor(const TransferRequest &request, const TransferContext &ctx)
{
    const std::optional<quint64> size = oneFileToUpload(request, ctx);
    if (!size || *size < kHashAheadFrom) return nullptr;
    return std::make_unique<HashAhead>(QFileInfo(request.localPath).absoluteFilePath());
}

} // namespace

Result<TransferOutcome> runTransfer(const TransferRequest &request, TransferContext &ctx)
{
    // Extra sessions connect while this one still connects and probes.
    SessionPrefetch prefetch(ctx, prefetchFor(request, ctx), lanesFor(request, ctx));
    // A folder goes up in tar batches: its helper sessions start their batch runners as they
    // connect (the shells start while the first session probes), and no SFTP (three round trips;
    // on a host without tar a folder's large files start it where they fan out).
    if (request.direction == Direction::Upload && QFileInfo(request.localPath).isDir()) {
        prefetch.setSftpWanted(false);
        prefetch.setRunOnConnect(BatchRunner::command());
    }
    const std::unique_ptr<HashAhead> ahead = hashAheadFor(request, ctx);
    ctx.setHashAhead(ahead.get());
    const auto forgetAhead = qScopeGuard([&ctx] { ctx.setHashAhead(nullptr); });
    QElapsedTimer connecting;
    connecting.start();
    auto session = [&] {
        const ssh::KeyExchangeObserver early([&prefetch](qint64 ms) { prefetch.firstKeyExchange(ms); },
                                             [&prefetch](qint64 ms) { prefetch.firstBanner(ms); });
        return ctx.factory()(ctx.cancel());
    }();
    prefetch.firstConnected(session ? connecting.elapsed() : -1);
    if (!session) return session.error();
    // The host's check of one large upload starts its python (and the login shell before it)
    // with the SFTP channels, so that a slow shell start-up runs beside the transfer.
    std::unique_ptr<ssh::Channel> waitingPython;
    ctx.setWaitingPython(&waitingPython);
    const auto forgetPython = qScopeGuard([&ctx] { ctx.setWaitingPython(nullptr); });
    const std::optional<quint64> oneFile = oneFileToUpload(request, ctx);
    const bool hostCheck = oneFile && *oneFile > kReadBackLimit && ctx.options().verify;
    // A large file on a long link sends on several channels of each session: the first session's
    // open with its first, in the same round trips.
    auto clients = SftpClient::startMany(**session, 1 + prefetch.extraLanes(), ctx.cancel(),
                                         [&request](SftpClient &first) { askDestinationAhead(request, first); },
                                         hostCheck ? waitingPythonCommand() : QString(), &waitingPython);
    if (!clients) return clients.error();
    std::unique_ptr<SftpClient> sftp = std::move(clients->front());
    clients->erase(clients->begin());
    prefetch.setPrimaryLanes(std::move(*clients));
    auto r = request.direction == Direction::Upload ? runUpload(request, ctx, **session, *sftp)
                                                    : runDownload(request, ctx, **session, *sftp);
    (void)prefetch.takePrimaryLanes(); // channels no worker took close before their session
    ctx.flush();
    return r;
}

bool isTransient(const Error &error)
{
    return error.code == ErrorCode::ConnectFailed || error.code == ErrorCode::Timeout;
}

Result<TransferOutcome> runTransferWithRetries(const TransferRequest &request, TransferContext &ctx, int attempts,
                                               const std::function<void(int, const Error &)> &onRetry)
{
    for (int attempt = 1;; ++attempt) {
        if (attempt > 1) ctx.restartProgress(); // else a retried folder's totals would count twice
        auto r = runTransfer(request, ctx);
        if (r || attempt >= attempts || !isTransient(r.error()) || ctx.cancelled()) return r;
        if (onRetry) onRetry(attempt, r.error());
        // Back off 1 s, 2 s, 4 s… (an sshd restart takes a moment), still honouring cancel.
        for (int i = 0; i < 10 * (1 << std::min(attempt - 1, 4)) && !ctx.cancelled(); ++i) QThread::msleep(100);
    }
}

} // namespace gantry::transfer
