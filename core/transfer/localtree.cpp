#include "core/transfer/localtree.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/sha256.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>

#include <algorithm>

namespace gantry::transfer {

namespace {
quint32 modeOf(const QFileInfo &fi)
{
    const auto p = fi.permissions();
    quint32 mode = 0;
    if (p & QFileDevice::ReadOwner) mode |= 0400;
    if (p & QFileDevice::WriteOwner) mode |= 0200;
    if (p & QFileDevice::ExeOwner) mode |= 0100;
    if (p & QFileDevice::ReadGroup) mode |= 0040;
    if (p & QFileDevice::WriteGroup) mode |= 0020;
    if (p & QFileDevice::ExeGroup) mode |= 0010;
    if (p & QFileDevice::ReadOther) mode |= 0004;
    if (p & QFileDevice::WriteOther) mode |= 0002;
    if (p & QFileDevice::ExeOther) mode |= 0001;
    return mode;
}
} // namespace

Result<LocalTree> scanLocalTree(const QString &folder, bool followSymlinks)
{
    const QFileInfo rootInfo(folder);
    if (!rootInfo.exists()) {
        return Error{ErrorCode::NotFound, TransferText::tr("The local folder %1 does not exist.").arg(folder)};
    }
    if (!rootInfo.isReadable()) {
        return Error{ErrorCode::PermissionDenied, TransferText::tr("Cannot read the local folder %1: permission denied.").arg(folder)};
    }
    const QDir root(rootInfo.absoluteFilePath());
    const QString top = rootInfo.fileName();
    LocalTree tree;
    tree.entries.append(LocalEntry{top, rootInfo.absoluteFilePath(), 0, 0, 0755, true});
    QDirIterator it(root.absolutePath(), QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo fi = it.fileInfo();
        const QString rel = top + QLatin1Char('/') + root.relativeFilePath(path);
        if (fi.isSymLink()) {
            if (!followSymlinks) {
                tree.notes.append(TransferText::tr("Skipped symlink %1 (symlinks are not followed).").arg(rel));
                continue;
            }
            if (!fi.exists()) {
                tree.notes.append(TransferText::tr("Skipped broken symlink %1.").arg(rel));
                continue;
            }
            if (fi.isDir()) {
                tree.notes.append(TransferText::tr("Skipped symlink to a folder %1 (folder links are not followed, to avoid loops).").arg(rel));
                continue;
            }
        }
        if (fi.isDir()) {
            if (!fi.isReadable() || !fi.isExecutable()) {
                return Error{ErrorCode::PermissionDenied,
                             TransferText::tr("Cannot read the local folder %1: permission denied. Fix its permissions or leave it out.")
                                 .arg(path)};
            }
            tree.entries.append(LocalEntry{rel, path, 0, 0, modeOf(fi), true});
            continue;
        }
        if (!fi.isFile()) {
            tree.notes.append(TransferText::tr("Skipped %1: not a regular file (device, socket or pipe).").arg(rel));
            continue;
        }
        if (!fi.isReadable()) {
            return Error{ErrorCode::PermissionDenied,
                         TransferText::tr("Cannot read the local file %1: permission denied. Fix its permissions or leave it out.")
                             .arg(path)};
        }
        LocalEntry e{rel, fi.canonicalFilePath().isEmpty() ? path : fi.canonicalFilePath(), quint64(fi.size()),
                     fi.lastModified().toMSecsSinceEpoch(), modeOf(fi), false};
        tree.totalBytes += e.size;
        tree.fileCount += 1;
        tree.entries.append(e);
    }
    std::sort(tree.entries.begin(), tree.entries.end(),
              [](const LocalEntry &a, const LocalEntry &b) { return a.relative < b.relative; });
    Sha256 fp;
    for (const LocalEntry &e : tree.entries) {
        fp.add(QStringLiteral("%1\t%2\t%3\t%4\n").arg(e.relative).arg(e.size).arg(e.mtimeMs).arg(e.isDir).toUtf8());
    }
    tree.fingerprint = fp.hexDigest();
    return tree;
}

QList<QPair<int, int>> planBatches(const LocalTree &tree, int maxFiles, quint64 maxBytes)
{
    QList<QPair<int, int>> batches;
    int begin = 0;
    int files = 0;
    quint64 bytes = 0;
    for (int i = 0; i < tree.entries.size(); ++i) {
        const LocalEntry &e = tree.entries[i];
        if (i > begin && (files >= maxFiles || bytes + e.size > maxBytes)) {
            batches.append({begin, i});
            begin = i;
            files = 0;
            bytes = 0;
        }
        if (!e.isDir) {
            files += 1;
            bytes += e.size;
        }
    }
    if (begin < tree.entries.size()) batches.append({begin, int(tree.entries.size())});
    return batches;
}

} // namespace gantry::transfer
