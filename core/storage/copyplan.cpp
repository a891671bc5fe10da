// SPDX-License-Identifier: Apache-2.0
#include "core/storage/copyplan.h"

#include "core/storage/storagetext.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>

#include <algorithm>

namespace gantry::storage {
namespace {

constexpr int kMaxObjects = 100000;

QString asFolderKey(const QString &key)
{
    return key.isEmpty() || key.endsWith(QLatin1Char('/')) ? key : key + QLatin1Char('/');
}

} // namespace

std::optional<BucketPath> parseBucketPath(const QString &text)
{
    if (!text.startsWith(QLatin1String("s3://")))
        return std::nullopt;
    const QString rest = text.mid(5);
    const QString name = rest.section(QLatin1Char('/'), 0, 0);
    if (name.isEmpty())
        return std::nullopt;
    return BucketPath{name, rest.contains(QLatin1Char('/')) ? rest.section(QLatin1Char('/'), 1) : QString()};
}

QString baseName(const QString &path)
{
    QString trimmed = path;
    while (trimmed.endsWith(QLatin1Char('/')) && trimmed.size() > 1)
        trimmed.chop(1);
    return trimmed.section(QLatin1Char('/'), -1);
}

QString joinedPath(const QString &folder, const QString &name)
{
    if (folder.isEmpty())
        return name;
    return folder.endsWith(QLatin1Char('/')) ? QString(folder + name) : QString(folder + QLatin1Char('/') + name);
}

QString keyFor(const BucketPath &to, const QString &fileName)
{
    return to.key.isEmpty() || to.key.endsWith(QLatin1Char('/')) ? to.key + fileName : to.key;
}

Result<QList<CopyItem>> planObjectDownload(const S3Client &client, const QString &key, const QString &to, bool onMachine,
                                           const std::atomic_bool *cancel)
{
    Result<ObjectInfo> object = client.head(key, cancel);
    if (!object)
        return object.error();
    const bool folder = to.endsWith(QLatin1Char('/')) || (!onMachine && QFileInfo(to).isDir());
    const QString path = folder ? joinedPath(to, baseName(key)) : to;
    return QList<CopyItem>{CopyItem{key, onMachine ? machinePath(path) : path, object->size, object->etag, object->sha256}};
}

Result<QList<CopyItem>> planPrefixDownload(const S3Client &client, const BucketPath &from, const QString &to, bool onMachine,
                                           QStringList *leftOut, const std::atomic_bool *cancel)
{
    const QString prefix = asFolderKey(from.key);
    Result<QList<ObjectInfo>> objects = client.listAll(prefix, kMaxObjects, cancel);
    if (!objects)
        return objects.error();
    QList<CopyItem> items;
    for (const ObjectInfo &object : std::as_const(*objects)) {
        if (object.key.endsWith(QLatin1Char('/')) && object.size == 0)
            continue; // a console's "folder" marker
        const QString relative = relativeKeyPath(object.key, prefix);
        if (relative.isEmpty()) {
            if (leftOut)
                leftOut->append(object.key);
            continue;
        }
        const QString path = joinedPath(to, relative);
        items.append(CopyItem{object.key, onMachine ? machinePath(path) : path, object.size, object.etag, {}});
    }
    if (items.isEmpty())
        return Error{ErrorCode::NotFound, StorageText::tr("Nothing to copy under s3://%1/%2: check the prefix.").arg(from.name, prefix)};
    return items;
}

Result<QList<CopyItem>> planLocalUpload(const QString &from, const BucketPath &to, bool recursive)
{
    const QFileInfo info(from);
    if (!info.exists())
        return Error{ErrorCode::NotFound, StorageText::tr("There is no %1 to copy.").arg(from)};
    if (!info.isDir())
        return QList<CopyItem>{CopyItem{keyFor(to, info.fileName()), from, info.size(), {}, {}}};
    if (!recursive)
        return Error{ErrorCode::Usage, StorageText::tr("%1 is a folder: copy it with everything in it (cp -r).").arg(from)};
    const QString prefix = asFolderKey(to.key);
    QList<CopyItem> items;
    const QDir root(from);
    QDirIterator it(from, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (it.fileName().startsWith(QLatin1String(".gantry-part-")))
            continue; // a download of Gantry's in progress (or kept to resume), not the user's file
        items.append(CopyItem{prefix + root.relativeFilePath(path), path, QFileInfo(path).size(), {}, {}});
        if (items.size() > kMaxObjects)
            return Error{ErrorCode::Usage, StorageText::tr("More than %1 files under %2: copy a smaller folder.").arg(kMaxObjects).arg(from)};
    }
    std::sort(items.begin(), items.end(), [](const CopyItem &a, const CopyItem &b) { return a.key < b.key; });
    return items;
}

Result<QList<CopyItem>> planMachineUpload(MachineCopy &copy, const QString &from, const BucketPath &to, bool recursive,
                                          const std::atomic_bool *cancel)
{
    bool isFolder = false;
    const QString root = machinePath(from);
    Result<QList<MachineCopy::RemoteFile>> files = copy.listFiles(root, &isFolder, cancel);
    if (!files)
        return files.error();
    if (isFolder && !recursive)
        return Error{ErrorCode::Usage, StorageText::tr("%1 is a folder: copy it with everything in it (cp -r).").arg(from)};
    if (!isFolder)
        return QList<CopyItem>{CopyItem{keyFor(to, baseName(from)), root, files->value(0).size, {}, {}}};
    const QString prefix = asFolderKey(to.key);
    QList<CopyItem> items;
    for (const MachineCopy::RemoteFile &file : std::as_const(*files))
        items.append(CopyItem{prefix + file.relative, joinedPath(root, file.relative), file.size, {}, {}});
    return items;
}

} // namespace gantry::storage
