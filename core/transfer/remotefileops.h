#pragma once

#include "core/ssh/session.h"
#include "core/transfer/sftpclient.h"
#include "core/util/result.h"

#include <QString>

#include <atomic>

namespace gantry::transfer {

// Rename, delete and the count a delete confirmation shows: once here, for the Files tab and for
// `gantry-cli rename` / `gantry-cli rm`. Names travel as SFTP strings where SFTP can do the work;
// the one shell command (a recursive delete, a count) gets the path after "--" or as ./NAME, so a
// file called "-rf" or one with a newline in its name is only ever a path. Use on the session's
// own thread.

// A path as a shell argument that no command can take for an option: "./-rf" for a relative
// path that starts with '-', then shell-quoted.
QString shellPathArg(const QString &path);

// The new name is a name, not a path: not empty, no '/', not "." or "..", no NUL.
Result<void> checkNewName(const QString &name);

// Renames path to newName in the same folder and returns the new path. An existing entry of that
// name is never replaced (Conflict).
Result<QString> renameRemote(SftpClient &sftp, const QString &path, const QString &newName);

struct RemoteTreeCount
{
    bool isDir = false;
    qint64 files = 0;   // everything that is not a folder (links included), the top entry too
    qint64 folders = 0; // the top folder included
};

// What deleting path removes; a folder is counted on the host (find), cancellable.
Result<RemoteTreeCount> countRemoteTree(ssh::Session &session, SftpClient &sftp, const QString &path,
                                        const std::atomic_bool *cancel = nullptr);

// Deletes a file or link over SFTP; a folder only with recursive (rm -rf on the host, stopped by
// cancel), else a folder that is not empty is refused with the hint to confirm a recursive delete.
Result<void> removeRemote(ssh::Session &session, SftpClient &sftp, const QString &path, bool recursive,
                          const std::atomic_bool *cancel = nullptr);

} // namespace gantry::transfer
