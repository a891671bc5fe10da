// SPDX-License-Identifier: Apache-2.0
// gantry-cli cp [-r] SRC DST between a bucket (s3://NAME/KEY) and a machine (HOST:PATH): the copy
// runs on the machine with curl and presigned URLs made here (core/storage/machinecopy.h).

#include "cliconnect.h"
#include "clicommand.h"
#include "interruptscope.h"

#include "core/storage/buckets.h"
#include "core/storage/localcopy.h"
#include "core/storage/machinecopy.h"
#include "core/transfer/remotespec.h"
#include "core/util/printable.h"
#include "core/util/secretstore.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>

#include <algorithm>
#include <functional>

namespace gantry::cli {
namespace {

using storage::CopyItem;
using storage::CopyResult;

constexpr int kMaxObjects = 100000;

struct BucketSpec
{
    QString name;
    QString key;
};

std::optional<BucketSpec> parseBucketSpec(const QString &text)
{
    if (!text.startsWith(QLatin1String("s3://")))
        return std::nullopt;
    const QString rest = text.mid(5);
    const QString name = rest.section(QLatin1Char('/'), 0, 0);
    if (name.isEmpty())
        return std::nullopt;
    return BucketSpec{name, rest.contains(QLatin1Char('/')) ? rest.section(QLatin1Char('/'), 1) : QString()};
}

QString baseName(const QString &path)
{
    QString trimmed = path;
    while (trimmed.endsWith(QLatin1Char('/')) && trimmed.size() > 1)
        trimmed.chop(1);
    return trimmed.section(QLatin1Char('/'), -1);
}

QString joined(const QString &folder, const QString &name)
{
    if (folder.isEmpty())
        return name;
    return folder.endsWith(QLatin1Char('/')) ? QString(folder + name) : QString(folder + QLatin1Char('/') + name);
}

void printResult(Context &context, const QString &from, const QString &to, const CopyResult &r)
{
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("item")}, {QStringLiteral("source"), from},
                                      {QStringLiteral("destination"), to}, {QStringLiteral("bytes"), r.bytes},
                                      {QStringLiteral("sha256"), r.sha256}, {QStringLiteral("verified"), r.verified}});
    } else {
        context.out << QStringLiteral("%1 -> %2  %3 bytes, sha256 %4%5")
                           .arg(text::printable(from), text::printable(to))
                           .arg(r.bytes)
                           .arg(r.sha256, r.verified ? QStringLiteral(", verified") : QStringLiteral(", size checked"))
                    << Qt::endl;
    }
}

// Bucket -> machine: one object, or with -r every object under the prefix (keys that would land
// outside the destination folder are left out and named).
Result<QList<CopyItem>> planDownload(Context &context, const storage::S3Client &client, const BucketSpec &from,
                                     const QString &to, bool recursive, const std::atomic_bool *cancel, bool onMachine)
{
    const auto place = [onMachine](const QString &path) { return onMachine ? storage::machinePath(path) : path; };
    if (!recursive) {
        if (from.key.isEmpty() || from.key.endsWith(QLatin1Char('/')))
            return Error{ErrorCode::Usage, QStringLiteral("s3://%1/%2 is a prefix: copy it with cp -r").arg(from.name, from.key)};
        Result<storage::ObjectInfo> object = client.head(from.key, cancel);
        if (!object)
            return object.error();
        const bool folder = to.endsWith(QLatin1Char('/')) || (!onMachine && QFileInfo(to).isDir());
        const QString path = folder ? joined(to, baseName(from.key)) : to;
        return QList<CopyItem>{CopyItem{from.key, place(path), object->size, object->etag, object->sha256}};
    }
    const QString prefix = from.key.isEmpty() || from.key.endsWith(QLatin1Char('/')) ? from.key : from.key + QLatin1Char('/');
    Result<QList<storage::ObjectInfo>> objects = client.listAll(prefix, kMaxObjects, cancel);
    if (!objects)
        return objects.error();
    QList<CopyItem> items;
    for (const storage::ObjectInfo &object : std::as_const(*objects)) {
        if (object.key.endsWith(QLatin1Char('/')) && object.size == 0)
            continue; // a console's "folder" marker
        const QString relative = storage::relativeKeyPath(object.key, prefix);
        if (relative.isEmpty()) {
            context.warn(QStringLiteral("left out s3://%1/%2: its name would not stay inside %3").arg(from.name, object.key, to));
            continue;
        }
        items.append(CopyItem{object.key, place(joined(to, relative)), object.size, object.etag, {}});
    }
    if (items.isEmpty())
        return Error{ErrorCode::NotFound, QStringLiteral("nothing under s3://%1/%2 (gantry-cli storage ls %1/%2)").arg(from.name, prefix)};
    return items;
}

// Machine -> bucket: one file, or with -r every file under the folder.
Result<QList<CopyItem>> planUpload(storage::MachineCopy &copy, const QString &from, const BucketSpec &to, bool recursive,
                                   const std::atomic_bool *cancel)
{
    bool isFolder = false;
    const QString root = storage::machinePath(from);
    Result<QList<storage::MachineCopy::RemoteFile>> files = copy.listFiles(root, &isFolder, cancel);
    if (!files)
        return files.error();
    if (isFolder && !recursive)
        return Error{ErrorCode::Usage, QStringLiteral("%1 is a folder: copy it with cp -r").arg(from)};
    QList<CopyItem> items;
    if (!isFolder) {
        const QString key = to.key.isEmpty() || to.key.endsWith(QLatin1Char('/')) ? to.key + baseName(from) : to.key;
        items.append(CopyItem{key, root, files->value(0).size, {}, {}});
        return items;
    }
    const QString prefix = to.key.isEmpty() || to.key.endsWith(QLatin1Char('/')) ? to.key : to.key + QLatin1Char('/');
    for (const storage::MachineCopy::RemoteFile &file : std::as_const(*files))
        items.append(CopyItem{prefix + file.relative, joined(root, file.relative), file.size, {}, {}});
    return items;
}

// This computer -> bucket: one file, or with -r every file under the folder.
Result<QList<CopyItem>> planLocalUpload(const QString &from, const BucketSpec &to, bool recursive)
{
    const QFileInfo info(from);
    if (!info.exists())
        return Error{ErrorCode::NotFound, QStringLiteral("there is no %1 to copy").arg(from)};
    const QString prefix = to.key.isEmpty() || to.key.endsWith(QLatin1Char('/')) ? to.key : to.key + QLatin1Char('/');
    if (!info.isDir()) {
        const QString key = to.key.isEmpty() || to.key.endsWith(QLatin1Char('/')) ? to.key + info.fileName() : to.key;
        return QList<CopyItem>{CopyItem{key, from, info.size(), {}, {}}};
    }
    if (!recursive)
        return Error{ErrorCode::Usage, QStringLiteral("%1 is a folder: copy it with cp -r").arg(from)};
    QList<CopyItem> items;
    const QDir root(from);
    QDirIterator it(from, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        items.append(CopyItem{prefix + root.relativeFilePath(path), path, QFileInfo(path).size(), {}, {}});
        if (items.size() > kMaxObjects)
            return Error{ErrorCode::Usage, QStringLiteral("more than %1 files under %2: copy a smaller folder").arg(kMaxObjects).arg(from)};
    }
    std::sort(items.begin(), items.end(), [](const CopyItem &a, const CopyItem &b) { return a.key < b.key; });
    return items;
}

struct Sides
{
    std::optional<BucketSpec> bucket;
    std::optional<transfer::RemoteSpec> machine; // none: the other side is a local path
    QString local;
    bool toMachine = true; // the bucket is the source
};

Result<Sides> sidesOf(const QString &src, const QString &dst)
{
    Sides sides;
    QString other;
    if ((sides.bucket = parseBucketSpec(src))) {
        other = dst;
        sides.toMachine = true;
    } else if ((sides.bucket = parseBucketSpec(dst))) {
        other = src;
        sides.toMachine = false;
    }
    if (!sides.bucket)
        return Error{ErrorCode::Usage, QStringLiteral("one side must be a bucket, s3://NAME/KEY (machine to machine copies are not there yet)")};
    if (parseBucketSpec(other))
        return Error{ErrorCode::Usage, QStringLiteral("bucket to bucket copies are not there yet")};
    sides.machine = transfer::parseRemoteSpec(other);
    if (sides.machine && sides.machine->path.isEmpty())
        return Error{ErrorCode::Usage, QStringLiteral("%1: give a path after the host").arg(other)};
    if (!sides.machine)
        sides.local = other;
    return sides;
}

using CopyOne = std::function<Result<CopyResult>(const CopyItem &)>;

// Each item in turn, a line (or a JSON event) per file, a summary with --json.
int runCopies(Context &context, const InterruptScope &interrupt, const QList<CopyItem> &items, const QString &bucket,
              const QString &otherPrefix, bool fromBucket, const CopyOne &copyOne)
{
    QElapsedTimer clock;
    clock.start();
    qint64 bytes = 0;
    for (const CopyItem &item : items) {
        const QString bucketSide = QStringLiteral("s3://%1/%2").arg(bucket, item.key);
        const QString otherSide = otherPrefix + item.remotePath;
        Result<CopyResult> done = copyOne(item);
        if (!done && done.error().code == ErrorCode::Cancelled && interrupt.interrupted()) {
            (void)context.fail(Error{ErrorCode::Cancelled, QStringLiteral("Stopped by %1; the files copied so far are kept, the one in flight is not.")
                                                               .arg(QLatin1String(interrupt.cause()))});
            return interrupt.exitCode();
        }
        if (!done)
            return context.fail(done.error());
        bytes += done->bytes;
        printResult(context, fromBucket ? bucketSide : otherSide, fromBucket ? otherSide : bucketSide, *done);
    }
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("summary")}, {QStringLiteral("files"), items.size()},
                                      {QStringLiteral("bytes"), bytes}, {QStringLiteral("seconds"), double(clock.elapsed()) / 1000.0}});
    }
    return ExitOk;
}

// Between this computer and the bucket, streamed here.
int localCopy(Context &context, const Sides &sides, const storage::S3Client &client, bool recursive)
{
    const InterruptScope interrupt(InterruptScope::Again::EndsProgram);
    const std::atomic_bool *cancel = interrupt.token().flag();
    Result<QList<CopyItem>> items = sides.toMachine ? planDownload(context, client, *sides.bucket, sides.local, recursive, cancel, false)
                                                    : planLocalUpload(sides.local, *sides.bucket, recursive);
    if (!items)
        return context.fail(items.error());
    return runCopies(context, interrupt, *items, sides.bucket->name, QString(), sides.toMachine, [&](const CopyItem &item) {
        return sides.toMachine ? storage::downloadToLocal(client, item, cancel) : storage::uploadFromLocal(client, item, cancel);
    });
}

int cpCommand(Context &context, const Args &args)
{
    Result<Sides> sides = sidesOf(args.arg("SRC"), args.arg("DST"));
    if (!sides)
        return context.usage(sides.error().message);
    const bool recursive = args.has("recursive");
    std::unique_ptr<SecretStore> secrets = makeDesktopSecretStore(context.configDir);
    Result<storage::S3Client> client = storage::Buckets(context.configDir, secrets.get()).client(sides->bucket->name);
    if (!client)
        return context.fail(client.error());
    if (!sides->machine)
        return localCopy(context, *sides, *client, recursive);
    const InterruptScope interrupt(InterruptScope::Again::EndsProgram);
    const std::atomic_bool *cancel = interrupt.token().flag();
    auto session = connectHost(context, sides->machine->host, args.host());
    if (!session)
        return context.fail(session.error());
    storage::MachineCopy copy(**session, *client);
    if (Result<void> started = copy.start(); !started)
        return context.fail(started.error());
    Result<QList<CopyItem>> items = sides->toMachine
        ? planDownload(context, *client, *sides->bucket, sides->machine->path, recursive, cancel, true)
        : planUpload(copy, sides->machine->path, *sides->bucket, recursive, cancel);
    if (!items)
        return context.fail(items.error());
    return runCopies(context, interrupt, *items, sides->bucket->name, sides->machine->host + QLatin1Char(':'), sides->toMachine,
                     [&](const CopyItem &item) { return sides->toMachine ? copy.download(item, cancel) : copy.upload(item, cancel); });
}

const Registrar cpRegistrar(Command{
    .name = "cp",
    .summary = "copy between a bucket (s3://NAME/KEY) and a machine (HOST:PATH) or this computer (a local path); a machine moves the bytes itself",
    .options = {{.name = "recursive", .help = "a folder, or every object under a prefix", .shortName = 'r'}},
    .arguments = {{"SRC", Argument::One, Complete::HostPath}, {"DST", Argument::One, Complete::HostPath}},
    .groups = Connection,
    .notes = {"The machine runs curl with URLs presigned here that live at most an hour, one per file, handed to it on stdin; "
              "no storage key reaches the machine. A download lands under NAME.gantry-part and takes its name once its size and "
              "checksum match; an upload sends its MD5 (checked by the server) and keeps its SHA-256 as x-amz-meta-sha256. "
              "DST ending in / is a folder. The bucket is one from gantry-cli storage list. Between this computer and a bucket the "
              "bytes are streamed here the same way."},
    .run = cpCommand,
});

} // namespace
} // namespace gantry::cli
