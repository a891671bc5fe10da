// SPDX-License-Identifier: Apache-2.0
#include "core/transfer/remoteedit.h"

#include "core/transfer/remoteops.h"
#include "core/transfer/sha256.h"
#include "core/transfer/transfertext.h"
#include "core/util/printable.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>


namespace gantry::transfer {

namespace {

bool cancelled(const std::atomic_bool *cancel)
{
    return cancel && cancel->load();
}

Error stopped(const QString &path)
{
    return Error{ErrorCode::Cancelled, TransferText::tr("Editing %1 was stopped.").arg(text::printable(path))};
}

QByteArray hexSha256(const QByteArray &data)
{
    Sha256 hash;
    hash.add(data);
    return hash.hexDigest();
}

Result<QByteArray> readWhole(SftpClient &sftp, const QString &path, const std::atomic_bool *cancel)
{
    auto handle = sftp.open(path, SftpClient::OpenRead);
    if (!handle)
        return handle.error();
    QByteArray content;
    std::optional<Error> failure;
    while (!failure) {
        if (cancelled(cancel)) {
            failure = stopped(path);
            break;
        }
        auto id = sftp.sendRead(*handle, quint64(content.size()), sftp.maxRead());
        auto reply = id ? sftp.waitFor(*id) : Result<SftpClient::Reply>(id.error());
        if (!reply) {
            failure = reply.error();
        } else if (reply->type == SftpClient::Status) {
            if (reply->status() == SftpClient::StatusEof)
                break;
            Result<void> status = sftp.checkStatus(*reply, TransferText::tr("Reading"), path);
            failure = status ? Error{ErrorCode::RemoteFailed, path} : status.error();
        } else {
            QByteArray data;
            sftpwire::Reader(reply->body).string(&data);
            if (data.isEmpty())
                break;
            content += data;
            if (quint64(content.size()) > kMaxEditBytes)
                failure = Error{ErrorCode::Usage, TransferText::tr("%1 grew past %2 MiB while it was read; download it instead.")
                                                      .arg(text::printable(path)).arg(kMaxEditBytes >> 20)};
        }
    }
    (void)sftp.close(*handle); // the content is read; a failed close changes nothing
    if (failure)
        return *failure;
    return content;
}

Result<void> writeWhole(SftpClient &sftp, const QByteArray &handle, const QByteArray &content, const QString &path,
                        const std::atomic_bool *cancel)
{
    quint64 offset = 0;
    do {
        if (cancelled(cancel))
            return stopped(path);
        const quint32 n = quint32(std::min<quint64>(sftp.maxWrite(), quint64(content.size()) - offset));
        if (n == 0)
            break;
        auto id = sftp.sendWriteOf(handle, offset, content.constData() + offset, n);
        auto reply = id ? sftp.waitFor(*id) : Result<SftpClient::Reply>(id.error());
        if (!reply)
            return reply.error();
        if (Result<void> status = sftp.checkStatus(*reply, TransferText::tr("Writing"), path); !status)
            return status;
        offset += n;
    } while (offset < quint64(content.size()));
    return {};
}

// Whether the host still has what `expected` describes; a Conflict error naming what changed if not.
Result<void> checkUnchanged(SftpClient &sftp, const EditStamp &expected)
{
    const QString shown = text::printable(expected.path);
    auto now = sftp.stat(expected.path);
    if (!now && now.error().code == ErrorCode::NotFound)
        return Error{ErrorCode::Conflict, TransferText::tr("%1 was deleted on %2 since it was opened.").arg(shown, sftp.label())};
    if (!now)
        return now.error();
    bool same = now->size.value_or(0) == expected.size && now->mtime.value_or(0) == expected.mtime;
    // A change within the same second and of the same size shows only in the content.
    if (same && expected.size <= kReadBackLimit) {
        auto digest = sftpSha256(sftp, expected.path);
        if (!digest)
            return digest.error();
        same = *digest == expected.sha256;
    }
    if (!same)
        return Error{ErrorCode::Conflict, TransferText::tr("%1 changed on %2 since it was opened.").arg(shown, sftp.label())};
    return {};
}

} // namespace

Result<EditStamp> fetchForEdit(SftpClient &sftp, const QString &path, const QString &localFile, const std::atomic_bool *cancel)
{
    auto resolved = sftp.realpath(path);
    if (!resolved)
        return resolved.error();
    auto attrs = sftp.stat(*resolved);
    if (!attrs)
        return attrs.error();
    if (!attrs->isRegular())
        return Error{ErrorCode::Usage, TransferText::tr("%1 is not a regular file; only files can be edited.").arg(text::printable(path))};
    if (attrs->size.value_or(0) > kMaxEditBytes)
        return Error{ErrorCode::Usage, TransferText::tr("%1 is larger than %2 MiB; download it instead of editing it.")
                                           .arg(text::printable(path)).arg(kMaxEditBytes >> 20)};
    auto content = readWhole(sftp, *resolved, cancel);
    if (!content)
        return content.error();
    QFile local(localFile);
    if (!local.open(QIODevice::WriteOnly | QIODevice::Truncate) || local.write(*content) != content->size())
        return Error{ErrorCode::Io, TransferText::tr("Cannot write the local file %1: %2.").arg(localFile, local.errorString())};
    local.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    local.close();
    // The stamp is what was read: a file that changed while it was read conflicts at the first save.
    return EditStamp{*resolved, quint64(content->size()), attrs->mtime.value_or(0), hexSha256(*content), attrs->permissions};
}

Result<EditStamp> storeEdited(SftpClient &sftp, const EditStamp &expected, const QString &localFile, const std::atomic_bool *cancel)
{
    QFile local(localFile);
    if (!local.open(QIODevice::ReadOnly))
        return Error{ErrorCode::Io, TransferText::tr("Cannot read the local file %1: %2.").arg(localFile, local.errorString())};
    const QByteArray content = local.readAll();
    if (Result<void> unchanged = checkUnchanged(sftp, expected); !unchanged)
        return unchanged.error();
    const std::optional<quint32> mode = expected.permissions ? std::optional<quint32>(*expected.permissions & 07777) : std::nullopt;
    const QString folder = expected.path.left(expected.path.lastIndexOf(u'/') + 1);
    const QString name = expected.path.mid(folder.size());
    const QString temp = folder + QStringLiteral(".%1.gantry-edit-%2").arg(name).arg(QRandomGenerator::global()->generate(), 8, 16, QChar(u'0'));
    const quint32 create = SftpClient::OpenWrite | SftpClient::OpenCreate | SftpClient::OpenExclusive;
    auto handle = sftp.open(temp, create, mode);
    const bool inPlace = !handle && handle.error().code == ErrorCode::PermissionDenied;
    if (inPlace) // a file the user may write in a folder they may not (/etc/hosts as its owner)
        handle = sftp.open(expected.path, SftpClient::OpenWrite | SftpClient::OpenTruncate);
    if (!handle)
        return handle.error();
    Result<void> written = writeWhole(sftp, *handle, content, inPlace ? expected.path : temp, cancel);
    Result<void> closed = sftp.close(*handle);
    if (written && !closed)
        written = closed;
    if (written && !inPlace)
        written = sftp.rename(temp, expected.path, true);
    if (!written) {
        if (!inPlace)
            (void)sftp.remove(temp); // best effort: the error that matters is the write's
        return written.error();
    }
    auto now = sftp.stat(expected.path);
    if (!now)
        return now.error();
    return EditStamp{expected.path, now->size.value_or(0), now->mtime.value_or(0), hexSha256(content), now->permissions};
}

} // namespace gantry::transfer
