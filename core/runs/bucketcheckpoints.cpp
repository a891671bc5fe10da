// SPDX-License-Identifier: Apache-2.0
#include "core/runs/bucketcheckpoints.h"

#include "core/runs/runstext.h"
#include "core/storage/localcopy.h"
#include "core/ssh/session.h"
#include "core/storage/machinecopy.h"

#include <QDir>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QJsonDocument>
#include <QSaveFile>
#include <QSet>

namespace gantry::runs {
namespace {

const char kManifest[] = "gantry-checkpoint.json";

} // namespace

BucketCheckpoints::BucketCheckpoints(storage::S3Client client, QString prefix, QString scratchDir)
    : m_client(std::move(client))
    , m_prefix(prefix.isEmpty() || prefix.endsWith(QLatin1Char('/')) ? prefix : prefix + QLatin1Char('/'))
    , m_scratch(std::move(scratchDir))
{
}

QString BucketCheckpoints::key(const QString &slot, const QString &relative) const
{
    return m_prefix + slot + QLatin1Char('/') + relative;
}

Result<QJsonObject> BucketCheckpoints::readManifest(const CancelToken &cancel)
{
    if (m_files)
        return *m_files;
    QDir().mkpath(m_scratch);
    const QString local = QDir(m_scratch).filePath(QLatin1String(kManifest));
    Result<storage::CopyResult> got = storage::downloadToLocal(m_client, storage::CopyItem{m_prefix + QLatin1String(kManifest), local, -1, {}, {}},
                                                               cancel.flag());
    if (!got) {
        if (got.error().code != ErrorCode::NotFound)
            return got.error();
        m_files = QJsonObject(); // no checkpoint went up yet
        return *m_files;
    }
    QFile file(local);
    const QJsonDocument document = file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.read(16 << 20)) : QJsonDocument();
    if (!document.isObject())
        return Error{ErrorCode::Parse, RunsText::tr("%1 in the bucket is damaged; remove it (and its a/ and b/ folders) to start the "
                                                    "checkpoints afresh.").arg(m_prefix + QLatin1String(kManifest))};
    m_files = document.object().value(QLatin1String("files")).toObject();
    return *m_files;
}

Result<void> BucketCheckpoints::writeManifest(const QJsonObject &files, const CancelToken &cancel)
{
    QDir().mkpath(m_scratch);
    const QString local = QDir(m_scratch).filePath(QLatin1String(kManifest));
    QSaveFile file(local);
    const QByteArray data = QJsonDocument(QJsonObject{{QStringLiteral("schema"), 1}, {QStringLiteral("files"), files}}).toJson();
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit())
        return Error{ErrorCode::Io, RunsText::tr("Cannot write %1: %2.").arg(local, file.errorString())};
    // One PUT: the bucket holds the old manifest or the new one, never a mix.
    Result<storage::CopyResult> sent = storage::uploadFromLocal(m_client, storage::CopyItem{m_prefix + QLatin1String(kManifest), local, -1, {}, {}},
                                                                cancel.flag());
    if (!sent)
        return sent.error();
    m_files = files;
    return {};
}

namespace {

struct Snapshot
{
    bool made = false;
    QSet<QString> writing; // files a process of the user holds open for writing
};

// A snapshot of the folder by hard links (same folder, so same filesystem): a file the trainer
// puts in place by rename meanwhile leaves the linked one whole, which is then what goes up; a
// file rewritten in place changes under its link too and is caught by its hashes, or, where its
// writer paused half-way, by being open for writing (listed first).
Snapshot snapshotFolder(ssh::Session &session, const QString &dir, const QString &snapshot)
{
    const QString link = QStringLiteral(
        "[ -d %1 ] || exit 0; cd -- %1 || exit 1; %3; mkdir %2 && find . -name '.gantry-snapshot-*' -prune -o -type f -exec sh -c "
        "'for f; do mkdir -p -- \"$(dirname -- \"$0/$f\")\" && ln -- \"$f\" \"$0/$f\" || exit 1; done' %2 {} +")
                             .arg(dir, snapshot, openForWritingScript());
    Snapshot out;
    Result<ssh::ExecOutput> linked = session.run(link);
    if (!linked)
        return out;
    out.made = linked->exitStatus == 0;
    for (const QByteArray &line : linked->out.split('\n')) {
        if (!line.isEmpty())
            out.writing.insert(QString::fromUtf8(line));
    }
    return out;
}

} // namespace

Result<MirrorOutcome> BucketCheckpoints::mirror(ssh::Session &session, const QString &remoteDir, const CancelToken &cancel)
{
    Result<QJsonObject> manifest = readManifest(cancel);
    if (!manifest)
        return manifest.error();
    const QString snapshot = QStringLiteral(".gantry-snapshot-%1").arg(QRandomGenerator::system()->generate64() & 0xffffffffffffULL, 12, 16, QLatin1Char('0'));
    const QString dir = ssh::shellQuote(storage::machinePath(remoteDir));
    const QString unlink = QStringLiteral("cd -- %1 && rm -rf -- %2").arg(dir, snapshot);
    const Snapshot linked = snapshotFolder(session, dir, snapshot);
    const bool snapped = linked.made;
    const QSet<QString> &writing = linked.writing;
    // Gone again whatever happens (also a snapshot half made where hard links fail: then the
    // files go up from their own names).
    const auto cleanup = qScopeGuard([&session, &unlink] { (void)session.run(unlink); });
    const QString root = snapped ? remoteDir + QLatin1Char('/') + snapshot : remoteDir;
    storage::MachineCopy copy(session, m_client);
    if (Result<void> started = copy.start(); !started)
        return started.error();
    bool folder = false;
    Result<QList<storage::MachineCopy::RemoteFile>> files = copy.listFiles(root, &folder, cancel.flag());
    if (!files) // no checkpoint folder yet: nothing to mirror
        return files.error().code == ErrorCode::NotFound ? Result<MirrorOutcome>(MirrorOutcome{}) : Result<MirrorOutcome>(files.error());
    MirrorOutcome out;
    QJsonObject next;
    for (const storage::MachineCopy::RemoteFile &file : *files) {
        if (file.relative.startsWith(QLatin1String(".gantry-snapshot-")))
            continue; // another pass's snapshot, left by a machine that stopped mid-pass
        const QString path = root + QLatin1Char('/') + file.relative;
        const QJsonObject known = manifest->value(file.relative).toObject();
        if (writing.contains(file.relative)) { // held open for writing: maybe half of a rewrite
            out.busy.append(file.relative);
            if (!known.isEmpty())
                next.insert(file.relative, known);
            continue;
        }
        Result<storage::MachineCopy::FileHash> before = copy.hash(path, cancel.flag());
        if (!before && before.error().code == ErrorCode::NotFound)
            continue; // gone since the listing (a trainer's temporary file renamed away): not a checkpoint file
        if (!before)
            return before.error();
        if (known.value(QLatin1String("sha256")).toString() == before->sha256) {
            next.insert(file.relative, known); // unchanged: nothing goes up
            continue;
        }
        const QString slot = known.value(QLatin1String("slot")).toString() == QLatin1String("a") ? QStringLiteral("b") : QStringLiteral("a");
        Result<storage::CopyResult> sent = copy.upload(storage::CopyItem{key(slot, file.relative), path, -1, {}, {}}, cancel.flag());
        Result<storage::MachineCopy::FileHash> after = sent ? copy.hash(path, cancel.flag()) : Result<storage::MachineCopy::FileHash>(sent.error());
        if (!after || after->sha256 != sent->sha256) {
            if (cancel.isCancelled())
                return Error{ErrorCode::Cancelled, RunsText::tr("The mirror was stopped.")};
            out.busy.append(file.relative); // written while it went up: its last complete copy stays
            if (!known.isEmpty())
                next.insert(file.relative, known);
            continue;
        }
        next.insert(file.relative, QJsonObject{{QStringLiteral("slot"), slot}, {QStringLiteral("sha256"), sent->sha256},
                                               {QStringLiteral("size"), double(sent->bytes)}});
        out.received.append(file.relative);
        out.bytes += sent->bytes;
    }
    // The manifest moves only in a pass where every file went up whole: a checkpoint made of
    // several files is never restored with some of them new and others from before, and files
    // gone from the folder leave it only then. An empty folder (a trainer between two saves)
    // never replaces a checkpoint.
    if (out.busy.isEmpty() && next != *manifest && !(next.isEmpty() && !manifest->isEmpty())) {
        if (Result<void> written = writeManifest(next, cancel); !written)
            return written.error();
    } else if (!out.busy.isEmpty()) {
        out.received.clear(); // nothing of this pass counts as the checkpoint yet
        out.bytes = 0;
    }
    return out;
}

Result<int> BucketCheckpoints::restore(ssh::Session &session, const QString &remoteDir, const CancelToken &cancel)
{
    m_files.reset(); // another process may have mirrored since
    Result<QJsonObject> manifest = readManifest(cancel);
    if (!manifest)
        return manifest.error();
    if (manifest->isEmpty())
        return 0;
    storage::MachineCopy copy(session, m_client);
    if (Result<void> started = copy.start(); !started)
        return started.error();
    int restored = 0;
    for (auto it = manifest->constBegin(); it != manifest->constEnd(); ++it) {
        const QString relative = QDir::cleanPath(it.key());
        if (relative.isEmpty() || QDir::isAbsolutePath(relative) || relative.startsWith(QLatin1String("..")))
            continue; // a manifest entry never writes outside the checkpoint folder
        const QJsonObject entry = it.value().toObject();
        if (entry.value(QLatin1String("slot")).toString().isEmpty())
            continue; // never a complete copy
        const storage::CopyItem item{key(entry.value(QLatin1String("slot")).toString(), it.key()), remoteDir + QLatin1Char('/') + relative,
                                     qint64(entry.value(QLatin1String("size")).toDouble(-1)), {}, entry.value(QLatin1String("sha256")).toString()};
        if (Result<storage::CopyResult> got = copy.download(item, cancel.flag()); !got)
            return got.error();
        ++restored;
    }
    return restored;
}

} // namespace gantry::runs
