#include "core/transfer/localwrite.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/remoteops.h"
#include "core/transfer/sha256.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QLockFile>
#include <QThread>
#include <QStorageInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace gantry::transfer {

bool isPlainName(const QString &name)
{
    return !name.isEmpty() && name != QLatin1String(".") && name != QLatin1String("..") && !name.contains(QLatin1Char('/'))
           && !name.contains(QChar(0));
}

std::optional<QString> localPathForEntry(const QString &entry, const QString &name, const QString &localTop)
{
    if (!isPlainName(name)) return std::nullopt;
    if (entry == name) return localTop;
    if (!entry.startsWith(name + QLatin1Char('/'))) return std::nullopt;
    const QStringList parts = entry.mid(name.size() + 1).split(QLatin1Char('/'));
    for (const QString &part : parts) {
        if (!isPlainName(part)) return std::nullopt;
    }
    const QString top = QDir::cleanPath(localTop);
    const QString local = QDir::cleanPath(top + QLatin1Char('/') + parts.join(QLatin1Char('/')));
    if (!local.startsWith(top + QLatin1Char('/'))) return std::nullopt;
    return local;
}

LocalFile::~LocalFile()
{
    close();
}

Error LocalFile::failure() const
{
    const int code = errno;
    const QString why = QString::fromLocal8Bit(std::strerror(code));
    if (code == ELOOP) {
        return Error{ErrorCode::PermissionDenied, TransferText::tr("%1 is a symbolic link; a download never writes through one. "
                                                            "Remove the link or pick another destination and retry.")
                                                      .arg(m_path)};
    }
    if (code == ENOSPC || code == EDQUOT) {
        return Error{ErrorCode::DiskFull, TransferText::tr("Cannot write %1: %2. Free some space locally and retry; the "
                                                    "download continues where it stopped.").arg(m_path, why)};
    }
    return Error{ErrorCode::PermissionDenied, TransferText::tr("Cannot write %1: %2. Check the folder's permissions and retry.")
                                                  .arg(m_path, why)};
}

Result<void> LocalFile::open(const QString &path, Mode mode)
{
    close();
    m_path = path;
    const int flags = O_WRONLY | O_CLOEXEC | O_NOFOLLOW | (mode == Create ? O_CREAT | O_TRUNC : 0);
    m_fd = ::open(QFile::encodeName(path).constData(), flags, 0644);
    if (m_fd < 0) return failure();
    return {};
}

Result<void> LocalFile::writeAt(quint64 offset, const char *data, quint64 length)
{
    while (length > 0) {
        const ssize_t n = ::pwrite(m_fd, data, size_t(length), off_t(offset));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = ENOSPC;
            return failure();
        }
        data += n;
        offset += quint64(n);
        length -= quint64(n);
    }
    return {};
}

Result<void> LocalFile::resize(quint64 size)
{
    if (::ftruncate(m_fd, off_t(size)) != 0) return failure();
    return {};
}

void LocalFile::close()
{
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
}

Result<void> checkLocalSpace(const QString &dir, quint64 needed, const QString &what)
{
    const QStorageInfo storage(dir);
    if (!storage.isValid()) return {};
    const quint64 available = quint64(std::max<qint64>(0, storage.bytesAvailable()));
    if (needed <= available) return {};
    return Error{ErrorCode::DiskFull, TransferText::tr("Not enough space here for %1: %2 free in %3, %4 needed. Free some space "
                                                "(or pick another folder) and retry.")
                                          .arg(what, formatBytes(available), dir, formatBytes(needed))};
}

DestinationLock::DestinationLock(std::unique_ptr<QLockFile> lock)
    : m_lock(std::move(lock))
{
}

DestinationLock::~DestinationLock() = default;

Result<std::unique_ptr<DestinationLock>> DestinationLock::acquire(const QString &journalDir, const QString &host,
                                                                  const QString &destination)
{
    QDir().mkpath(journalDir);
    const QByteArray id = Sha256::hex((host + QChar(0) + destination).toUtf8()).left(32);
    auto lock = std::make_unique<QLockFile>(QDir(journalDir).filePath(QString::fromLatin1(id) + QStringLiteral(".lock")));
    lock->setStaleLockTime(0); // only a dead holder's lock is stale, however long a transfer runs
    if (lock->tryLock(0)) return std::unique_ptr<DestinationLock>(new DestinationLock(std::move(lock)));
    // A holder killed between creating the file and writing who it is leaves it empty, and
    // QLockFile then never calls it stale: such a file that stays empty holds nothing.
    qint64 pid = 0;
    QString hostName, appName;
    if (lock->error() == QLockFile::LockFailedError && !lock->getLockInfo(&pid, &hostName, &appName)) {
        QThread::msleep(100); // a live holder writes its line at once
        if (!lock->getLockInfo(&pid, &hostName, &appName) && lock->removeStaleLockFile() && lock->tryLock(0)) {
            return std::unique_ptr<DestinationLock>(new DestinationLock(std::move(lock)));
        }
    }
    if (lock->error() == QLockFile::LockFailedError) {
        return Error{ErrorCode::Conflict, TransferText::tr("Another transfer to %1 is running. Wait for it to finish (or cancel "
                                                    "it), or pick another destination, and retry.")
                                              .arg(destination)};
    }
    return Error{ErrorCode::Io, TransferText::tr("Cannot create the lock for %1 in %2. Check that folder's permissions and "
                                          "retry.").arg(destination, journalDir)};
}

} // namespace gantry::transfer
