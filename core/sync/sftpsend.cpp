// SPDX-License-Identifier: Apache-2.0
#include "core/sync/sftpsend.h"

#include "core/sync/localfiles.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/sftpclient.h"
#include "core/transfer/tarstage.h"
#include "core/transfer/transferjob.h"
#include "core/transfer/transfertext.h"

#include <QRandomGenerator>

#include <algorithm>
#include <limits>

namespace gantry::sync {

namespace {

using transfer::SftpClient;

struct Outgoing
{
    const SyncEntry *entry = nullptr;
    QByteArray data;
    QString temp;
    QString destination;
    QByteArray handle;   // open until the close is sent
    bool created = false; // the temporary file is on the host
    bool renamed = false;
};

// A request in flight and what it was for.
struct Asked
{
    quint32 id = 0;
    int file = 0;
    quint8 type = 0;
};

// Where a step failed: the caller's error where the link dropped or the sync was cancelled, else
// "not this way" (false), and the files go their usual way.
Result<bool> declined(const Error &error)
{
    if (error.code == ErrorCode::Cancelled || transfer::isTransient(error)) return error;
    return false;
}

// Collects every answer (none is left for a later reader to meet); the first failure, if any.
std::optional<Error> collect(SftpClient &sftp, const QList<Asked> &asked, QList<Outgoing> &out, QList<QByteArray> *readBack)
{
    std::optional<Error> failure;
    for (const Asked &a : asked) {
        auto reply = sftp.waitFor(a.id);
        if (!reply) return reply.error(); // the link: nothing more will come
        Outgoing &o = out[a.file];
        Result<void> ok;
        if (a.type == SftpClient::Open) {
            auto handle = sftp.openedHandle(reply, o.temp, SftpClient::OpenWrite);
            o.created = bool(handle);
            if (handle) o.handle = *handle;
            else ok = handle.error();
        } else if (a.type == SftpClient::Read && reply->type == SftpClient::Data) {
            QByteArray data;
            transfer::sftpwire::Reader(reply->body).string(&data);
            (*readBack)[a.file] += data;
        } else {
            ok = sftp.checkStatus(*reply, transfer::TransferText::tr("Writing"), o.temp);
            o.renamed = o.renamed || (ok && a.type == SftpClient::Extended);
        }
        if (!ok && !failure) failure = ok.error();
    }
    return failure;
}

// Writes each file, reads it back, gives it its mode and time (after the writes, which set the
// time), and closes it: one round trip for all. The host answers a handle's requests in order.
Result<QList<Asked>> writeAll(SftpClient &sftp, QList<Outgoing> &out, bool verify)
{
    QList<Asked> asked;
    for (int i = 0; i < out.size(); ++i) {
        Outgoing &o = out[i];
        const quint64 size = quint64(o.data.size());
        for (quint64 at = 0; at < size; at += sftp.maxWrite()) {
            const quint32 n = quint32(std::min<quint64>(sftp.maxWrite(), size - at));
            auto id = sftp.sendWriteOf(o.handle, at, o.data.constData() + at, n);
            if (!id) return id.error();
            asked.append({*id, i, SftpClient::Write});
        }
        for (quint64 at = 0; verify && at < size; at += sftp.maxRead()) {
            auto id = sftp.sendRead(o.handle, at, quint32(std::min<quint64>(sftp.maxRead(), size - at)));
            if (!id) return id.error();
            asked.append({*id, i, SftpClient::Read});
        }
        QByteArray attrs;
        transfer::sftpwire::putString(attrs, o.handle);
        transfer::sftpwire::putU32(attrs, 0x4 | 0x8); // SSH_FILEXFER_ATTR_PERMISSIONS | SSH_FILEXFER_ATTR_ACMODTIME
        transfer::sftpwire::putU32(attrs, o.entry->mode & 07777);
        transfer::sftpwire::putU32(attrs, quint32(o.entry->mtime));
        transfer::sftpwire::putU32(attrs, quint32(o.entry->mtime));
        auto setId = sftp.send(SftpClient::Fsetstat, attrs);
        if (!setId) return setId.error();
        asked.append({*setId, i, SftpClient::Fsetstat});
        auto closeId = sftp.send(SftpClient::Close, transfer::sftpwire::stringBody(o.handle));
        if (!closeId) return closeId.error();
        asked.append({*closeId, i, SftpClient::Close});
        o.handle.clear();
    }
    return asked;
}

// Best effort: handles still open are closed and temporary files not renamed are removed (as a
// round's staged files are: past a cancel, within a few seconds); those whose removal was not
// confirmed are returned.
QStringList discard(SftpClient &sftp, QList<Outgoing> &out)
{
    QStringList left;
    for (Outgoing &o : out) {
        if (!o.handle.isEmpty()) {
            if (auto id = sftp.send(SftpClient::Close, transfer::sftpwire::stringBody(o.handle))) sftp.forget(*id);
        }
        if (o.created && !o.renamed) left.append(o.temp);
    }
    if (left.isEmpty() || transfer::TarStage::remove(sftp, left)) return {};
    return left;
}

Result<bool> sendAll(SftpClient &sftp, QList<Outgoing> &out, bool verify)
{
    QList<Asked> opens;
    for (int i = 0; i < out.size(); ++i) {
        // Exclusive, and readable by no one else until it is complete, checked and in place.
        auto id = sftp.sendOpen(out[i].temp, SftpClient::OpenRead | SftpClient::OpenWrite | SftpClient::OpenCreate
                                                 | SftpClient::OpenExclusive, 0600);
        if (!id) return id.error();
        opens.append({*id, i, SftpClient::Open});
    }
    QList<QByteArray> readBack(out.size());
    if (auto failure = collect(sftp, opens, out, &readBack)) return declined(*failure);
    auto written = writeAll(sftp, out, verify);
    if (!written) return declined(written.error());
    if (auto failure = collect(sftp, *written, out, &readBack)) return declined(*failure);
    for (int i = 0; verify && i < out.size(); ++i) {
        if (readBack[i] != out[i].data) return false; // the runner's way checks it with sha256sum and says what differs
    }
    QList<Asked> renames;
    for (int i = 0; i < out.size(); ++i) {
        auto id = sftp.sendRename(out[i].temp, out[i].destination, true);
        if (!id) return id.error();
        renames.append({*id, i, SftpClient::Extended});
    }
    if (auto failure = collect(sftp, renames, out, &readBack)) return declined(*failure);
    return true;
}

bool sendable(const SyncEntry &e)
{
    return e.type == SyncEntry::File && e.mtime >= 0 && e.mtime <= std::numeric_limits<quint32>::max()
           && isValidUtf8(e.path); // SFTP paths here are text
}

} // namespace

bool sftpSendPays(const SyncPlan &plan, qint64 shellStartMs, qint64 roundTripMs)
{
    if (roundTripMs < 0 || shellStartMs <= 3 * roundTripMs) return false;
    if (plan.send.isEmpty() || plan.send.size() > kSftpSendMaxFiles || plan.sendBytes > kSftpSendMaxBytes) return false;
    if (!plan.dirs.isEmpty() || !plan.removeFiles.isEmpty() || !plan.removeDirs.isEmpty()) return false;
    return std::all_of(plan.send.cbegin(), plan.send.cend(), sendable);
}

Result<void> sendOverSftp(SftpClient &sftp, const SftpSendTarget &target, QList<SyncEntry> *files,
                          const std::function<void(const SyncEntry &)> &sent, QStringList *strays)
{
    if (!sftp.hasExtension("posix-rename@openssh.com")) return {}; // a plain RENAME does not replace
    // At the top of the folder, where a tar batch's stale clean-up also looks (tarbatch.cpp); not
    // named as its staging folders are, which it goes by modification time: these get the source's.
    const QString tag = QString::number(QRandomGenerator::global()->generate64(), 36);
    QList<Outgoing> out;
    for (const SyncEntry &e : std::as_const(*files)) {
        Outgoing o;
        o.entry = &e;
        const auto data = readLocalFile(target.root + '/' + e.path, qint64(kSftpSendMaxBytes));
        if (!data || quint64(data->size()) != e.size) return {}; // changed since the scan: the usual way sees it
        o.data = *data;
        o.temp = transfer::remoteJoin(target.remoteDir, QStringLiteral(".gantry-sftp-%1-%2").arg(tag).arg(out.size()));
        o.destination = transfer::remoteJoin(target.remoteDir, QString::fromUtf8(e.path));
        out.append(std::move(o));
    }
    const auto r = sendAll(sftp, out, target.verify);
    if (!r || !*r) *strays += discard(sftp, out);
    QList<SyncEntry> placed;
    for (const Outgoing &o : std::as_const(out)) {
        if (o.renamed) placed.append(*o.entry);
    }
    files->removeIf([&placed](const SyncEntry &e) {
        return std::any_of(placed.cbegin(), placed.cend(), [&e](const SyncEntry &p) { return p.path == e.path; });
    });
    for (const SyncEntry &e : std::as_const(placed)) sent(e);
    if (!r) return r.error();
    return {};
}

} // namespace gantry::sync
