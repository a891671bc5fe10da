#include "transferjob.h"

#include "transfer/fileupload.h"
#include "transfer/remoteops.h"
#include "transfer/sha256.h"
#include "transfer/sftpclient.h"
#include "transfer/treetransfer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QThread>

namespace gantry::transfer {

namespace {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class TransferText
{
    Q_DECLARE_TR_FUNCTIONS(Transfer)
};

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
    QString remote = req.remotePath.isEmpty() ? QStringLiteral(".") : req.remotePath;
    if (remote.startsWith(QLatin1String("~/"))) remote = remote.mid(2);
    if (remote == QLatin1String("~")) remote = QStringLiteral(".");
    if (!remote.startsWith(QLatin1Char('/'))) {
        auto home = sftp.realpath(QStringLiteral("."));
        if (!home) return home.error();
        remote = remote == QLatin1String(".") ? *home : remoteJoin(*home, remote);
    }
    QString dest;
    auto st = sftp.stat(remote);
    if (st && st->isDir()) {
        dest = remoteJoin(remote, local.fileName());
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

    bool replace = false;
    ConflictPolicy policy = ctx.options().onConflict;
    auto existing = sftp.stat(dest);
    if (existing) {
        policy = decide(ctx, dest, existing->isDir());
        if (existing->isDir() != local.isDir()) {
            return Error{ErrorCode::Conflict, TransferText::tr("%1 on %2 exists and is a %3; the source is a %4.")
                                                  .arg(dest, ctx.host(), existing->isDir() ? TransferText::tr("folder") : TransferText::tr("file"),
                                                       local.isDir() ? TransferText::tr("folder") : TransferText::tr("file"))};
        }
        switch (policy) {
        case ConflictPolicy::Ask:
            if (!local.isDir()) return conflictError(dest, TransferText::tr(" on %1").arg(ctx.host()));
            break; // folders: only files that really collide are a conflict
        case ConflictPolicy::Skip:
            if (!local.isDir()) {
                TransferOutcome o;
                o.skipped = true;
                o.destination = dest;
                o.notes.append(TransferText::tr("%1 exists on %2; skipped.").arg(dest, ctx.host()));
                return o;
            }
            break;
        case ConflictPolicy::Rename:
            dest = firstFreeName(dest, [&](const QString &p) { return sftp.stat(p).ok(); });
            break;
        case ConflictPolicy::Overwrite: replace = true; break;
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
                        return o;
                    }
                }
                return Error{ErrorCode::Conflict, TransferText::tr("%1 exists on %2 and differs from %3; resume cannot continue it. "
                                                                   "Choose overwrite or rename.")
                                                      .arg(dest, ctx.host(), req.localPath)};
            }
            break;
        }
    }
    if (local.isDir()) return uploadTree(ctx, session, sftp, local.absoluteFilePath(), dest, policy);
    ctx.addTotals(quint64(local.size()), 1);
    return uploadFile(ctx, session, sftp, local.absoluteFilePath(), dest, replace);
}

Result<TransferOutcome> runDownload(const TransferRequest &req, TransferContext &ctx, ssh::Session &session, SftpClient &sftp)
{
    QString remote = req.remotePath;
    if (remote.startsWith(QLatin1String("~/"))) remote = remote.mid(2);
    if (!remote.startsWith(QLatin1Char('/'))) {
        auto home = sftp.realpath(QStringLiteral("."));
        if (!home) return home.error();
        remote = remoteJoin(*home, remote);
    }
    while (remote.size() > 1 && remote.endsWith(QLatin1Char('/'))) remote.chop(1);
    auto st = sftp.stat(remote);
    if (!st) return st.error();
    const QString name = remoteBaseName(remote);
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
    bool replace = false;
    ConflictPolicy policy = ctx.options().onConflict;
    const QFileInfo existing(dest);
    if (existing.exists()) {
        policy = decide(ctx, dest, existing.isDir());
        switch (policy) {
        case ConflictPolicy::Ask:
            if (!st->isDir()) return conflictError(dest, QString());
            break;
        case ConflictPolicy::Skip:
            if (!st->isDir()) {
                TransferOutcome o;
                o.skipped = true;
                o.destination = dest;
                o.notes.append(TransferText::tr("%1 exists; skipped.").arg(dest));
                return o;
            }
            break;
        case ConflictPolicy::Rename:
            dest = firstFreeName(dest, [](const QString &p) { return QFileInfo::exists(p); });
            break;
        case ConflictPolicy::Overwrite: replace = true; break;
        case ConflictPolicy::Resume:
            if (!st->isDir()) {
                if (quint64(existing.size()) == st->size.value_or(0)) {
                    auto ours = sha256OfFile(dest, ctx.cancel());
                    auto theirs = st->size.value_or(0) <= kReadBackLimit ? sftpSha256(sftp, remote)
                                                                         : remoteSha256(session, remote);
                    if (ours && theirs && *ours == *theirs) {
                        TransferOutcome o;
                        o.skipped = true;
                        o.verified = true;
                        o.destination = dest;
                        o.sha256 = QString::fromLatin1(*ours);
                        o.notes.append(TransferText::tr("%1 is already identical.").arg(dest));
                        return o;
                    }
                }
                return Error{ErrorCode::Conflict, TransferText::tr("%1 exists and differs from %2 on %3; choose overwrite or rename.")
                                                      .arg(dest, remote, ctx.host())};
            }
            break;
        }
    }
    if (st->isDir()) return downloadTree(ctx, session, sftp, remote, dest, policy);
    ctx.addTotals(st->size.value_or(0), 1);
    return downloadFile(ctx, session, sftp, remote, dest, replace);
}

} // namespace

Result<TransferOutcome> runTransfer(const TransferRequest &request, TransferContext &ctx)
{
    auto session = ctx.factory()(ctx.cancel());
    if (!session) return session.error();
    auto sftp = SftpClient::start((*session)->handle(), (*session)->target().display(), ctx.cancel());
    if (!sftp) return sftp.error();
    auto r = request.direction == Direction::Upload ? runUpload(request, ctx, **session, **sftp)
                                                    : runDownload(request, ctx, **session, **sftp);
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
        auto r = runTransfer(request, ctx);
        if (r || attempt >= attempts || !isTransient(r.error()) || ctx.cancelled()) return r;
        if (onRetry) onRetry(attempt, r.error());
        // Back off 1 s, 2 s, 4 s… (an sshd restart takes a moment), still honouring cancel.
        for (int i = 0; i < 10 * (1 << std::min(attempt - 1, 4)) && !ctx.cancelled(); ++i) QThread::msleep(100);
    }
}

} // namespace gantry::transfer
