// SPDX-License-Identifier: Apache-2.0
#include "core/sync/localfiles.h"

#include "core/sync/localscan.h"
#include "core/transfer/sha256.h"

#include <QFile>

#include <algorithm>

#include <fcntl.h>
#include <unistd.h>

namespace gantry::sync {

namespace {

transfer::LocalEntry toLocalEntry(const QByteArray &root, const SyncEntry &e)
{
    transfer::LocalEntry t;
    t.relative = displayPath(e.path);
    t.nativeRelative = e.path;
    t.nativeAbsolute = root + '/' + e.path;
    t.absolute = QFile::decodeName(t.nativeAbsolute);
    t.size = e.size;
    t.mtimeMs = e.mtime * 1000;
    t.mode = e.mode;
    t.isDir = e.type == SyncEntry::Dir;
    t.isLink = e.type == SyncEntry::Link;
    t.linkTarget = e.linkTarget;
    return t;
}

bool openRaw(const QByteArray &path, QFile *file)
{
    const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0 && file->open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) return true;
    if (fd >= 0) ::close(fd);
    return false;
}

} // namespace

QByteArray localSha256(const QByteArray &path)
{
    QFile f;
    if (!openRaw(path, &f)) return {};
    transfer::Sha256 h;
    QByteArray buf(1 << 20, Qt::Uninitialized);
    for (qint64 n; (n = f.read(buf.data(), buf.size())) > 0;) h.add(buf.constData(), size_t(n));
    return h.hexDigest();
}

std::optional<QByteArray> readLocalFile(const QByteArray &path, qint64 maxBytes)
{
    QFile f;
    if (!openRaw(path, &f)) return std::nullopt;
    QByteArray data = f.read(maxBytes + 1);
    if (f.error() != QFileDevice::NoError || data.size() > maxBytes) return std::nullopt;
    return data;
}

transfer::LocalTree tarTree(const QByteArray &root, const QList<SyncEntry> &dirs, const QList<SyncEntry> &files)
{
    transfer::LocalTree tree;
    QList<SyncEntry> all = dirs + files;
    std::sort(all.begin(), all.end(), [](const SyncEntry &a, const SyncEntry &b) { return a.path < b.path; });
    transfer::Sha256 fp;
    for (const SyncEntry &e : all) {
        tree.entries.append(toLocalEntry(root, e));
        if (e.type == SyncEntry::File) {
            tree.totalBytes += e.size;
            tree.fileCount += 1;
        }
        fp.add(e.path + '\t' + QByteArray::number(e.size) + '\t' + QByteArray::number(e.mtime) + '\n');
    }
    tree.fingerprint = fp.hexDigest();
    return tree;
}

} // namespace gantry::sync
