// SPDX-License-Identifier: Apache-2.0
// gantry-cli cp [-r] SRC DST between a bucket (s3://NAME/KEY) and a machine (HOST:PATH): the copy
// runs on the machine with curl and presigned URLs made here (core/storage/machinecopy.h).

#include "cliconnect.h"
#include "clicommand.h"
#include "interruptscope.h"

#include "core/storage/buckets.h"
#include "core/storage/copyplan.h"
#include "core/storage/localcopy.h"
#include "core/storage/machinecopy.h"
#include "core/storage/machinetomachine.h"
#include "core/transfer/remotespec.h"
#include "core/util/printable.h"
#include "core/util/secretstore.h"

#include <QElapsedTimer>
#include <QJsonArray>

#include <functional>

namespace gantry::cli {
namespace {

using storage::CopyItem;
using storage::CopyResult;

using storage::BucketPath;

void printResult(Context &context, const QString &from, const QString &to, const CopyResult &r)
{
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("item")}, {QStringLiteral("source"), from},
                                      {QStringLiteral("destination"), to}, {QStringLiteral("bytes"), r.bytes},
                                      {QStringLiteral("sha256"), r.sha256}, {QStringLiteral("verified"), r.verified},
                                      {QStringLiteral("already_there"), r.alreadyThere}, {QStringLiteral("resumed_bytes"), r.resumedBytes}});
    } else {
        QString how = r.verified ? QStringLiteral(", verified") : QStringLiteral(", size checked");
        if (r.alreadyThere)
            how = QStringLiteral(", already there (checked), nothing sent");
        else if (r.resumedBytes > 0)
            how += QStringLiteral(", resumed after %1 bytes from an interrupted copy").arg(r.resumedBytes);
        context.out << QStringLiteral("%1 -> %2  %3 bytes, sha256 %4%5")
                           .arg(text::printable(from), text::printable(to))
                           .arg(r.bytes)
                           .arg(r.sha256.isEmpty() ? QStringLiteral("-") : r.sha256, how)
                    << Qt::endl;
    }
}

// Bucket -> machine or here: one object, or with -r every object under the prefix (keys that
// would land outside the destination folder are left out and named).
Result<QList<CopyItem>> planDownload(Context &context, const storage::S3Client &client, const BucketPath &from,
                                     const QString &to, bool recursive, const std::atomic_bool *cancel, bool onMachine)
{
    if (!recursive) {
        if (from.key.isEmpty() || from.key.endsWith(QLatin1Char('/')))
            return Error{ErrorCode::Usage, QStringLiteral("s3://%1/%2 is a prefix: copy it with cp -r").arg(from.name, from.key)};
        return storage::planObjectDownload(client, from.key, to, onMachine, cancel);
    }
    QStringList leftOut;
    Result<QList<CopyItem>> items = storage::planPrefixDownload(client, from, to, onMachine, &leftOut, cancel);
    for (const QString &key : std::as_const(leftOut))
        context.warn(QStringLiteral("left out s3://%1/%2: its name would not stay inside %3").arg(from.name, key, to));
    return items;
}

struct Sides
{
    std::optional<BucketPath> bucket;
    std::optional<transfer::RemoteSpec> machine; // none: the other side is a local path
    QString local;
    bool toMachine = true; // the bucket is the source
};

Result<Sides> sidesOf(const QString &src, const QString &dst)
{
    Sides sides;
    QString other;
    if ((sides.bucket = storage::parseBucketPath(src))) {
        other = dst;
        sides.toMachine = true;
    } else if ((sides.bucket = storage::parseBucketPath(dst))) {
        other = src;
        sides.toMachine = false;
    }
    if (!sides.bucket)
        return Error{ErrorCode::Usage, QStringLiteral("one side must be a bucket, s3://NAME/KEY, or both machines, HOST:PATH")};
    if (storage::parseBucketPath(other))
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
            (void)context.fail(Error{ErrorCode::Cancelled, QStringLiteral("Stopped by %1; the files copied so far are kept. Run the same copy again to go on: files already there with the same checksum are skipped, and a large file whose checksum is known goes on from where it stopped.")
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
int localCopy(Context &context, const Sides &sides, const storage::S3Client &client, const storage::MultipartPolicy &policy, bool recursive)
{
    const InterruptScope interrupt(InterruptScope::Again::EndsProgram);
    const std::atomic_bool *cancel = interrupt.token().flag();
    Result<QList<CopyItem>> items = sides.toMachine ? planDownload(context, client, *sides.bucket, sides.local, recursive, cancel, false)
                                                    : storage::planLocalUpload(sides.local, *sides.bucket, recursive);
    if (!items)
        return context.fail(items.error());
    return runCopies(context, interrupt, *items, sides.bucket->name, QString(), sides.toMachine, [&](const CopyItem &item) {
        return sides.toMachine ? storage::downloadToLocal(client, item, cancel) : storage::uploadFromLocal(client, item, cancel, nullptr, policy);
    });
}

// HOST:PATH -> HOST:DIR: straight between the machines (a one-time key), else through here.
int machineToMachine(Context &context, const Args &args, const transfer::RemoteSpec &from, const transfer::RemoteSpec &to)
{
    const InterruptScope interrupt(InterruptScope::Again::EndsProgram);
    auto source = connectHost(context, from.host, args.host());
    if (!source)
        return context.fail(source.error());
    auto target = connectHost(context, to.host, args.host());
    if (!target)
        return context.fail(target.error());
    Result<storage::MachineCopyOutcome> done =
        storage::copyBetweenMachines(**source, **target, (*target)->target(), storage::MachineToMachine{from.path, to.path}, interrupt.token());
    if (!done)
        return interrupt.interrupted() ? interrupt.exitCode() : context.fail(done.error());
    if (!done->direct)
        context.warn(QStringLiteral("%1 could not send to %2 itself (%3); the copy went through this computer")
                         .arg(from.host, to.host, text::printableLines(done->note)));
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("from"), QString(from.host + QLatin1Char(':') + from.path)},
                                      {QStringLiteral("to"), QString(to.host + QLatin1Char(':') + to.path)},
                                      {QStringLiteral("files"), done->files}, {QStringLiteral("direct"), done->direct},
                                      {QStringLiteral("verified"), true}});
    } else {
        context.out << QStringLiteral("Copied %1 file(s) from %2 to %3 %4; SHA-256 checked on both machines.")
                           .arg(done->files)
                           .arg(text::printable(from.host), text::printable(to.host),
                                done->direct ? QStringLiteral("straight between the machines") : QStringLiteral("through this computer"))
                    << Qt::endl;
    }
    return ExitOk;
}

int cpCommand(Context &context, const Args &args)
{
    if (!storage::parseBucketPath(args.arg("SRC")) && !storage::parseBucketPath(args.arg("DST"))) {
        const std::optional<transfer::RemoteSpec> from = transfer::parseRemoteSpec(args.arg("SRC"));
        const std::optional<transfer::RemoteSpec> to = transfer::parseRemoteSpec(args.arg("DST"));
        if (from && to && !from->path.isEmpty() && !to->path.isEmpty())
            return machineToMachine(context, args, *from, *to);
    }
    Result<Sides> sides = sidesOf(args.arg("SRC"), args.arg("DST"));
    if (!sides)
        return context.usage(sides.error().message);
    const bool recursive = args.has("recursive");
    std::unique_ptr<SecretStore> secrets = makeDesktopSecretStore(context.configDir);
    const storage::Buckets buckets(context.configDir, secrets.get());
    Result<storage::S3Client> client = buckets.client(sides->bucket->name);
    if (!client)
        return context.fail(client.error());
    if (!sides->machine)
        return localCopy(context, *sides, *client, buckets.multipartPolicy(), recursive);
    const InterruptScope interrupt(InterruptScope::Again::EndsProgram);
    const std::atomic_bool *cancel = interrupt.token().flag();
    auto session = connectHost(context, sides->machine->host, args.host());
    if (!session)
        return context.fail(session.error());
    storage::MachineCopy copy(**session, *client);
    copy.setMultipartPolicy(buckets.multipartPolicy());
    if (Result<void> started = copy.start(); !started)
        return context.fail(started.error());
    Result<QList<CopyItem>> items = sides->toMachine
        ? planDownload(context, *client, *sides->bucket, sides->machine->path, recursive, cancel, true)
        : storage::planMachineUpload(copy, sides->machine->path, *sides->bucket, recursive, cancel);
    if (!items)
        return context.fail(items.error());
    return runCopies(context, interrupt, *items, sides->bucket->name, sides->machine->host + QLatin1Char(':'), sides->toMachine,
                     [&](const CopyItem &item) { return sides->toMachine ? copy.download(item, cancel) : copy.upload(item, cancel); });
}

const Registrar cpRegistrar(Command{
    .name = "cp",
    .summary = "copy between a bucket (s3://NAME/KEY) and a machine (HOST:PATH) or this computer, or between two machines; a machine moves the bytes itself",
    .options = {{.name = "recursive", .help = "a folder, or every object under a prefix", .shortName = 'r'}},
    .arguments = {{"SRC", Argument::One, Complete::HostPath}, {"DST", Argument::One, Complete::HostPath}},
    .groups = Connection,
    .notes = {"The machine runs curl with URLs presigned here that live at most an hour, one per file, handed to it on stdin; "
              "no storage key reaches the machine. A download lands under a .gantry-part-… name beside it and takes its name once its size and "
              "checksum match; an upload sends its MD5 (checked by the server) and keeps its SHA-256 as x-amz-meta-sha256. "
              "Run again after an interruption, a copy skips the files already there with the same checksum, a large download "
              "(8 MiB and more, its SHA-256 or MD5 known) goes on from its .gantry-part-… file and a multipart upload (over 64 MiB) "
              "from the parts the storage holds (remembered in storage-uploads.json; after 7 days the next upload to the bucket aborts them). "
              "DST ending in / is a folder. The bucket is one from gantry-cli storage list. Between this computer and a bucket the "
              "bytes are streamed here the same way.",
              "Between two machines (HOST:PATH HOST:DIR, a file or a folder into DIR) the source sends straight to the target: a key "
              "pair made for the copy is authorised on the target (one marked line of its ~/.ssh/authorized_keys, removed afterwards) "
              "and the target's host key is the one this computer knows. Where the source cannot reach the target, the copy goes "
              "through this computer and says so. Both ends' SHA-256 of every file are compared."},
    .run = cpCommand,
});

} // namespace
} // namespace gantry::cli
