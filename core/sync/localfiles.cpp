// SPDX-License-Identifier: Apache-2.0
#include "core/sync/localfiles.h"

#include "core/transfer/sha256.h"

#include <QFile>

#include <fcntl.h>
#include <unistd.h>

namespace gantry::sync {

namespace {

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

} // namespace gantry::sync
