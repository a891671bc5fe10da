#include "core/transfer/remotefileops.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/remoteops.h"

#include <QCoreApplication>
#include <QStringList>

namespace gantry::transfer {

namespace {
// Runs a short command whose stdout is wanted, stopped (SIGINT to its process group) by cancel.
Result<ssh::ExecOutput> runCancellable(ssh::Session &session, const QString &command, const std::atomic_bool *cancel)
{
    ssh::ExecOutput output;
    ssh::Session::ExecOptions options;
    options.onStdout = [&output](const QByteArray &data) { output.out += data; };
    options.onStderr = [&output](const QByteArray &data) {
        if (output.err.size() < 64 * 1024) output.err += data; // the first lines say why
    };
    options.cancel = cancel;
    auto status = session.exec(command, options);
    if (!status) return status.error();
    output.exitStatus = *status;
    return output;
}
} // namespace

QString shellPathArg(const QString &path)
{
    return ssh::shellQuote(path.startsWith(QLatin1Char('-')) ? QStringLiteral("./") + path : path);
}

Result<void> checkNewName(const QString &name)
{
    if (name.isEmpty() || name == QLatin1String(".") || name == QLatin1String("..") || name.contains(QLatin1Char('/'))
        || name.contains(QChar(0))) {
        return Error{ErrorCode::Usage, TransferText::tr("\"%1\" is not a file name: give a name without '/' (the entry stays in its folder).")
                                           .arg(name)};
    }
    return {};
}

Result<QString> renameRemote(SftpClient &sftp, const QString &path, const QString &newName)
{
    if (auto ok = checkNewName(newName); !ok) return ok.error();
    if (auto st = sftp.lstat(path); !st) return st.error();
    const QString target = remoteJoin(remoteParent(path), newName);
    if (target == path) return target;
    if (sftp.lstat(target)) {
        return Error{ErrorCode::Conflict, TransferText::tr("%1 already exists on %2; pick another name or delete it first.").arg(target, sftp.label())};
    }
    if (auto r = sftp.rename(path, target, false); !r) return r.error();
    return target;
}

Result<RemoteTreeCount> countRemoteTree(ssh::Session &session, SftpClient &sftp, const QString &path,
                                        const std::atomic_bool *cancel)
{
    auto st = sftp.lstat(path);
    if (!st) return st.error();
    RemoteTreeCount count;
    if (!st->isDir()) {
        count.files = 1;
        return count;
    }
    count.isDir = true;
    // NUL-separated so a name with a newline counts once; the host sends two numbers, not the names.
    const QString p = shellPathArg(path);
    const QString command = QStringLiteral("find %1 -type d -print0 | tr -cd '\\000' | wc -c; "
                                           "find %1 ! -type d -print0 | tr -cd '\\000' | wc -c")
                                .arg(p);
    auto out = runCancellable(session, command, cancel);
    if (!out) return out.error();
    const QStringList numbers = QString::fromLatin1(out->out).simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    bool okFolders = false, okFiles = false;
    if (numbers.size() == 2) {
        count.folders = numbers[0].toLongLong(&okFolders);
        count.files = numbers[1].toLongLong(&okFiles);
    }
    if (!okFolders || !okFiles || count.folders < 1) {
        return Error{ErrorCode::RemoteFailed, TransferText::tr("Cannot count the files in %1 on %2 (find, tr and wc are needed there): %3")
                                                  .arg(path, sftp.label(), QString::fromUtf8(out->err).trimmed())};
    }
    return count;
}

Result<void> removeRemote(ssh::Session &session, SftpClient &sftp, const QString &path, bool recursive,
                          const std::atomic_bool *cancel)
{
    auto st = sftp.lstat(path);
    if (!st) return st.error();
    if (!st->isDir()) return sftp.remove(path); // a link goes, never what it points to
    if (!recursive) {
        auto entries = sftp.list(path);
        if (entries && !entries->isEmpty()) {
            return Error{ErrorCode::Conflict, TransferText::tr("%1 on %2 is a folder with %n entries; confirm a recursive delete "
                                                 "(gantry-cli rm -r) to delete it with everything in it.",
                                                 nullptr, int(entries->size()))
                                                  .arg(path, sftp.label())};
        }
        return sftp.rmdir(path);
    }
    // SFTP has no recursive delete, and one request per file is slow over a long link: rm on the host.
    auto out = runCancellable(session, QStringLiteral("rm -rf -- %1").arg(shellPathArg(path)), cancel);
    if (!out) return out.error();
    if (out->exitStatus != 0 || sftp.lstat(path)) {
        return Error{ErrorCode::RemoteFailed, TransferText::tr("Cannot delete all of %1 on %2: %3")
                                                  .arg(path, sftp.label(), QString::fromUtf8(out->err).trimmed())};
    }
    return {};
}

} // namespace gantry::transfer
