#pragma once

#include "core/ssh/session.h"
#include "core/util/result.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace gantry::transfer {

enum class Direction
{
    Upload,
    Download,
};

// What to do when the destination already exists. Nothing is ever overwritten silently: Ask
// without someone to ask is a Conflict error.
enum class ConflictPolicy
{
    Ask,
    Overwrite,
    Resume,   // continue a partial transfer; an identical destination counts as done
    Skip,
    Rename,   // "name (1).ext"
};

QString conflictPolicyName(ConflictPolicy policy);
std::optional<ConflictPolicy> conflictPolicyFromName(const QString &name);
QString directionName(Direction direction);

struct TransferOptions
{
    int parallel = 0;               // sessions for one large file; 0: automatic
    int channels = 0;               // SFTP channels on each of those sessions; 0: by the round trip
    ConflictPolicy onConflict = ConflictPolicy::Ask;
    // Symlinks to files are followed (their content is sent); symlinks to directories and
    // broken links are skipped and reported. Off: every symlink is skipped and reported.
    bool followSymlinks = true;
    bool verify = true;             // compare SHA-256 with the remote's sha256sum
};

// One queue entry: a local file or folder and a remote path.
struct TransferRequest
{
    Direction direction = Direction::Upload;
    QString host;        // saved host name or [user@]host[:port]
    QString localPath;   // upload: the source; download: the destination (dir or file)
    QString remotePath;  // upload: the destination (dir or file); download: the source
    // The destination is a directory the source goes into (a trailing '/' on the command line),
    // else it goes into it only if it already is a directory (like cp).
    bool destinationIsDir = false;
    TransferOptions options;
};

struct TransferProgress
{
    quint64 bytesDone = 0;      // payload bytes done (resumed bytes included)
    quint64 bytesTotal = 0;
    quint64 resumedBytes = 0;   // already there from an earlier attempt
    quint64 wireBytes = 0;      // bytes sent and received on SSH channels, all attempts so far
    int filesDone = 0;
    int filesTotal = 0;
    QString currentFile;
    QString destination;        // the final path, once a conflict is settled ("name (1).ext")
};

struct TransferOutcome
{
    bool skipped = false;
    bool resumed = false;
    bool verified = false;
    quint64 payloadBytes = 0;   // bytes of file content moved in this attempt
    quint64 totalBytes = 0;     // size of what was transferred (all files)
    quint64 wireBytes = 0;      // all attempts of this transfer, from the journal
    int files = 0;
    int channels = 0;           // SFTP channels a large upload's chunks went over (its sessions' together)
    double seconds = 0;
    QString sha256;             // single files only
    QString destination;        // final path
    QStringList notes;          // skipped symlinks, renames, unverifiable checks…
};

// Opens a fresh, connected session; called on worker threads (one session per thread).
using SessionFactory =
    std::function<Result<std::unique_ptr<ssh::Session>>(const std::atomic_bool *cancel)>;

// Asked (on a worker thread) what to do with an existing destination; never returns Ask.
using ConflictResolver = std::function<ConflictPolicy(const QString &destination, bool isDirectory)>;

// Called from worker threads with the running totals.
using ProgressSink = std::function<void(const TransferProgress &)>;

} // namespace gantry::transfer
