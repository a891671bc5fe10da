// SPDX-License-Identifier: Apache-2.0
// gantry-cli cp [-r] SRC DST between a bucket (s3://NAME/KEY) and a machine (HOST:PATH): the copy
// runs on the machine with curl and presigned URLs made here (core/storage/machinecopy.h).

#include "cliconnect.h"
#include "clicommand.h"
#include "interruptscope.h"

#include "core/storage/buckets.h"
#include "core/storage/machinecopy.h"
#include "core/transfer/remotespec.h"
#include "core/util/printable.h"
#include "core/util/secretstore.h"

#include <QElapsedTimer>
#include <QJsonArray>

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
                                     const QString &to, bool recursive, const std::atomic_bool *cancel)
{
    if (!recursive) {
        if (from.key.isEmpty() || from.key.endsWith(QLatin1Char('/')))
            return Error{ErrorCode::Usage, QStringLiteral("s3://%1/%2 is a prefix: copy it with cp -r").arg(from.name, from.key)};
        Result<storage::ObjectInfo> object = client.head(from.key, cancel);
        if (!object)
            return object.error();
        const QString path = to.endsWith(QLatin1Char('/')) ? joined(to, baseName(from.key)) : to;
        return QList<CopyItem>{CopyItem{from.key, storage::machinePath(path), object->size, object->etag, object->sha256}};
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
        items.append(CopyItem{object.key, storage::machinePath(joined(to, relative)), object.size, object.etag, {}});
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

struct Sides
{
    std::optional<BucketSpec> bucket;
    std::optional<transfer::RemoteSpec> machine;
    bool toMachine = true;
};

Result<Sides> sidesOf(const QString &src, const QString &dst)
{
    Sides sides;
    if ((sides.bucket = parseBucketSpec(src))) {
        sides.machine = transfer::parseRemoteSpec(dst);
        sides.toMachine = true;
    } else if ((sides.bucket = parseBucketSpec(dst))) {
        sides.machine = transfer::parseRemoteSpec(src);
        sides.toMachine = false;
    }
    if (!sides.bucket)
        return Error{ErrorCode::Usage, QStringLiteral("one side must be a bucket, s3://NAME/KEY (machine to machine copies are not there yet)")};
    if (!sides.machine || sides.machine->path.isEmpty())
        return Error{ErrorCode::Usage, QStringLiteral("the other side must be HOST:PATH (copies between this computer and a bucket are not there yet)")};
    return sides;
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
    const InterruptScope interrupt(InterruptScope::Again::EndsProgram);
    const std::atomic_bool *cancel = interrupt.token().flag();
    auto session = connectHost(context, sides->machine->host, args.host());
    if (!session)
        return context.fail(session.error());
    storage::MachineCopy copy(**session, *client);
    if (Result<void> started = copy.start(); !started)
        return context.fail(started.error());
    Result<QList<CopyItem>> items = sides->toMachine
        ? planDownload(context, *client, *sides->bucket, sides->machine->path, recursive, cancel)
        : planUpload(copy, sides->machine->path, *sides->bucket, recursive, cancel);
    if (!items)
        return context.fail(items.error());
    QElapsedTimer clock;
    clock.start();
    qint64 bytes = 0;
    const QString host = sides->machine->host;
    for (const CopyItem &item : std::as_const(*items)) {
        const QString bucketSide = QStringLiteral("s3://%1/%2").arg(sides->bucket->name, item.key);
        const QString machineSide = host + QLatin1Char(':') + item.remotePath;
        Result<CopyResult> done = sides->toMachine ? copy.download(item, cancel) : copy.upload(item, cancel);
        if (!done && done.error().code == ErrorCode::Cancelled && interrupt.interrupted()) {
            (void)context.fail(Error{ErrorCode::Cancelled, QStringLiteral("Stopped by %1; the files copied so far are kept, the one in flight is not.")
                                                               .arg(QLatin1String(interrupt.cause()))});
            return interrupt.exitCode();
        }
        if (!done)
            return context.fail(done.error());
        bytes += done->bytes;
        printResult(context, sides->toMachine ? bucketSide : machineSide, sides->toMachine ? machineSide : bucketSide, *done);
    }
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("summary")}, {QStringLiteral("files"), items->size()},
                                      {QStringLiteral("bytes"), bytes}, {QStringLiteral("seconds"), double(clock.elapsed()) / 1000.0}});
    }
    return ExitOk;
}

const Registrar cpRegistrar(Command{
    .name = "cp",
    .summary = "copy between a bucket (s3://NAME/KEY) and a machine (HOST:PATH); the machine moves the bytes, not this computer",
    .options = {{.name = "recursive", .help = "a folder, or every object under a prefix", .shortName = 'r'}},
    .arguments = {{"SRC", Argument::One, Complete::HostPath}, {"DST", Argument::One, Complete::HostPath}},
    .groups = Connection,
    .notes = {"The machine runs curl with URLs presigned here that live at most an hour, one per file, handed to it on stdin; "
              "no storage key reaches the machine. A download lands under NAME.gantry-part and takes its name once its size and "
              "checksum match; an upload sends its MD5 (checked by the server) and keeps its SHA-256 as x-amz-meta-sha256. "
              "DST ending in / is a folder. The bucket is one from gantry-cli storage list."},
    .run = cpCommand,
});

} // namespace
} // namespace gantry::cli
