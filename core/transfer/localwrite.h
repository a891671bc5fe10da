#pragma once

#include "core/util/result.h"

#include <QString>

#include <memory>
#include <optional>

class QLockFile;

namespace gantry::transfer {

// A name that is one path component: not empty, not "." or "..", no '/' and no NUL. Names a host
// reports (SFTP listings, tar entries, the last part of a remote path) must pass before they
// become a local path.
bool isPlainName(const QString &name);

// Where the tar entry `entry` of a folder download of remote folder `name` goes under
// localTop (the local folder that stands for `name`); nullopt when the entry is not `name` itself
// or under `name/`, has a "."/".." or empty component, or its cleaned path leaves localTop.
std::optional<QString> localPathForEntry(const QString &entry, const QString &name, const QString &localTop);

// A local file written without a user-space buffer: every byte a write reported is in the
// kernel (and survives a crash of the app) before the caller records it as done. Opened with
// O_NOFOLLOW: a symlink planted at the path is refused, not written through.
class LocalFile final
{
public:
    enum Mode
    {
        Create,     // create or truncate
        Existing,   // must exist; kept as it is
    };
    LocalFile() = default;
    LocalFile(const LocalFile &) = delete;
    LocalFile &operator=(const LocalFile &) = delete;
    ~LocalFile();

    Result<void> open(const QString &path, Mode mode);
    Result<void> writeAt(quint64 offset, const char *data, quint64 length);
    Result<void> resize(quint64 size);
    void close();
    const QString &path() const { return m_path; }

private:
    Error failure() const; // from errno
    int m_fd = -1;
    QString m_path;
};

// Fails with DiskFull before anything is written when `needed` bytes do not fit into the free
// space of the local folder `dir` (a host can report any size; 2^53 bytes must not become a
// sparse file or a crash).
Result<void> checkLocalSpace(const QString &dir, quint64 needed, const QString &what);

// One running transfer per destination: a lock file in the journal folder, keyed by host and
// destination, held while the transfer runs (a crashed holder's lock is taken over). The later
// of two transfers to one destination fails at once instead of breaking the other one's partial.
class DestinationLock final
{
public:
    static Result<std::unique_ptr<DestinationLock>> acquire(const QString &journalDir, const QString &host,
                                                            const QString &destination);
    ~DestinationLock();

private:
    explicit DestinationLock(std::unique_ptr<QLockFile> lock);
    std::unique_ptr<QLockFile> m_lock;
};

} // namespace gantry::transfer
