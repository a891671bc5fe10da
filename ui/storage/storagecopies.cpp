// SPDX-License-Identifier: Apache-2.0
#include "ui/storage/storagecopies.h"

#include "core/ssh/session.h"
#include "core/storage/buckets.h"
#include "core/storage/copyplan.h"
#include "core/storage/localcopy.h"
#include "core/storage/machinetomachine.h"
#include "core/util/printable.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLocale>

namespace gantry::ui::storagecopies {
namespace {

class Text
{
    Q_DECLARE_TR_FUNCTIONS(gantry::ui::StorageCopies)
};

using storage::CopyItem;
using storage::CopyResult;

// Every picked object, and every object under each picked folder, into `to`.
Result<QList<CopyItem>> plan(const storage::S3Client &client, const QString &bucket, const QList<Pick> &picks, const QString &to,
                             bool onMachine, int *leftOut, const std::atomic_bool *cancel)
{
    QList<CopyItem> items;
    const QString folder = to.endsWith(QLatin1Char('/')) ? to : to + QLatin1Char('/');
    for (const Pick &pick : picks) {
        QStringList skipped;
        Result<QList<CopyItem>> some = pick.folder
            ? storage::planPrefixDownload(client, {bucket, pick.key}, storage::joinedPath(folder, storage::baseName(pick.key)), onMachine,
                                          &skipped, cancel)
            : storage::planObjectDownload(client, pick.key, folder, onMachine, cancel);
        if (!some)
            return some.error();
        items += *some;
        *leftOut += int(skipped.size());
    }
    return items;
}

void planned(CopyProgress &progress, const QList<CopyItem> &items)
{
    qint64 total = 0;
    for (const CopyItem &item : items)
        total += std::max<qint64>(0, item.size);
    progress.totalBytes = total;
    progress.totalFiles = int(items.size());
}

using CopyOne = std::function<Result<CopyResult>(const CopyItem &)>;

// Each item in turn; a machine's copy (no byte counts on the way) counts whole files.
Result<QString> copyAll(const QList<CopyItem> &items, CopyProgress &progress, bool countsBytes, int leftOut, const CopyOne &copyOne)
{
    qint64 bytes = 0;
    int alreadyThere = 0;
    int resumed = 0;
    for (const CopyItem &item : items) {
        const qint64 before = progress.doneBytes.load();
        Result<CopyResult> done = copyOne(item);
        if (!done)
            return done.error();
        alreadyThere += done->alreadyThere ? 1 : 0;
        if (!done->verified)
            ++progress.sizeOnlyFiles;
        resumed += done->resumedBytes > 0 ? 1 : 0;
        bytes += done->alreadyThere ? 0 : done->bytes;
        if (countsBytes)
            progress.doneBytes = before + done->bytes; // a retried request counted twice on the way; a skipped file at once
        else
            progress.doneBytes += done->bytes;
        ++progress.doneFiles;
    }
    QString summary = Text::tr("%n file(s) copied, %1, each checked.", "", int(items.size()) - alreadyThere).arg(QLocale().formattedDataSize(bytes));
    if (const int sizeOnly = progress.sizeOnlyFiles.load(); sizeOnly > 0)
        summary += QLatin1Char(' ') + Text::tr("%n of them by size only: the storage keeps no checksum for them.", "", sizeOnly);
    if (alreadyThere > 0)
        summary += QLatin1Char(' ') + Text::tr("%n file(s) already there with the same checksum were skipped.", "", alreadyThere);
    if (resumed > 0)
        summary += QLatin1Char(' ') + Text::tr("%n file(s) went on from an interrupted copy.", "", resumed);
    if (leftOut > 0)
        summary += QLatin1Char(' ') + Text::tr("%n object(s) left out: their names would leave the folder.", "", leftOut);
    return summary;
}

// How a copy between machines went: straight, through this computer and why, or some of each.
QString machinesSummary(int straight, int through, const QString &sourceHost, const QString &targetHost, const QStringList &notes)
{
    if (through == 0)
        return Text::tr("%n file(s) copied straight from %1 to %2, each checked on both.", "", straight).arg(sourceHost, targetHost);
    if (straight == 0)
        return Text::tr("%n file(s) copied through this computer, each checked on both machines: %1", "", through)
            .arg(notes.join(QLatin1Char(' ')));
    return Text::tr("%1 file(s) copied straight from %2 to %3 and %4 through this computer, each checked on both machines: %5")
        .arg(QString::number(straight), sourceHost, targetHost, QString::number(through), notes.join(QLatin1Char(' ')));
}

} // namespace

CopyOperations::Work download(storage::Buckets *buckets, const QString &bucket, const QList<Pick> &picks, const QString &folder)
{
    return [=](const CancelToken &token, CopyProgress &progress) -> Result<QString> {
        Result<storage::S3Client> client = buckets->client(bucket);
        if (!client)
            return client.error();
        int leftOut = 0;
        Result<QList<CopyItem>> items = plan(*client, bucket, picks, folder, false, &leftOut, token.flag());
        if (!items)
            return items.error();
        planned(progress, *items);
        return copyAll(*items, progress, true, leftOut, [&](const CopyItem &item) {
            return storage::downloadToLocal(*client, item, token.flag(), &progress.doneBytes);
        });
    };
}

CopyOperations::Work toMachine(storage::Buckets *buckets, const QString &bucket, const QList<Pick> &picks,
                               const SessionSource &sessions, const QString &host, const QString &folder)
{
    return [=](const CancelToken &token, CopyProgress &progress) -> Result<QString> {
        Result<storage::S3Client> client = buckets->client(bucket);
        if (!client)
            return client.error();
        Result<transfer::SessionFactory> factory = sessions(host);
        if (!factory)
            return factory.error();
        Result<std::unique_ptr<ssh::Session>> session = (*factory)(token.flag());
        if (!session)
            return session.error();
        storage::MachineCopy copy(**session, *client);
        if (Result<void> started = copy.start(); !started)
            return started.error();
        int leftOut = 0;
        Result<QList<CopyItem>> items = plan(*client, bucket, picks, folder, true, &leftOut, token.flag());
        if (!items)
            return items.error();
        planned(progress, *items);
        return copyAll(*items, progress, false, leftOut, [&](const CopyItem &item) { return copy.download(item, token.flag()); });
    };
}

CopyOperations::Work betweenMachines(const SessionSource &sessions, const QString &sourceHost, const QStringList &paths,
                                     const QString &targetHost, const QString &folder)
{
    return [=](const CancelToken &token, CopyProgress &progress) -> Result<QString> {
        auto open = [&](const QString &host) -> Result<std::unique_ptr<ssh::Session>> {
            Result<transfer::SessionFactory> factory = sessions(host);
            if (!factory)
                return factory.error();
            return (*factory)(token.flag());
        };
        Result<std::unique_ptr<ssh::Session>> source = open(sourceHost);
        if (!source)
            return source.error();
        Result<std::unique_ptr<ssh::Session>> target = open(targetHost);
        if (!target)
            return target.error();
        // Planned by files (the machines move the bytes; the target's tar names each file it lands).
        int total = 0;
        for (const QString &path : paths) {
            if (Result<int> files = storage::machineFileCount(**source, path, token); files)
                total += *files;
        }
        progress.totalFiles = std::max(total, 1);
        int straight = 0;
        int through = 0;
        QStringList notes;
        for (const QString &path : paths) {
            const int before = progress.doneFiles.load();
            Result<storage::MachineCopyOutcome> copied = storage::copyBetweenMachines(
                **source, **target, (*target)->target(), storage::MachineToMachine{path, folder}, token, &progress.doneFiles);
            if (!copied)
                return copied.error();
            progress.doneFiles = before + copied->files;
            (copied->direct ? straight : through) += copied->files;
            // Why the direct path failed holds the machines' own words (ssh's, tar's): printable only.
            const QString note = text::printable(copied->note);
            if (!copied->direct && !notes.contains(note))
                notes << note;
        }
        return machinesSummary(straight, through, sourceHost, targetHost, notes);
    };
}

CopyOperations::Work upload(storage::Buckets *buckets, const QString &bucket, const QString &prefix, const QStringList &files)
{
    return [=](const CancelToken &token, CopyProgress &progress) -> Result<QString> {
        Result<storage::S3Client> client = buckets->client(bucket);
        if (!client)
            return client.error();
        QList<CopyItem> items;
        for (const QString &file : files) {
            // A folder keeps its name under the prefix, as a download keeps a prefix's.
            const QString key = QFileInfo(file).isDir() ? storage::joinedPath(prefix, storage::baseName(file)) + QLatin1Char('/') : prefix;
            Result<QList<CopyItem>> some = storage::planLocalUpload(file, {bucket, key}, true);
            if (!some)
                return some.error();
            items += *some;
        }
        planned(progress, items);
        const storage::MultipartPolicy policy = buckets->multipartPolicy();
        return copyAll(items, progress, true, 0, [&](const CopyItem &item) {
            return storage::uploadFromLocal(*client, item, token.flag(), &progress.doneBytes, policy);
        });
    };
}

} // namespace gantry::ui::storagecopies
