// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/transfer/sftpclient.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <optional>

namespace gantry::transfer {

// The blocking steps of editing a remote file in a local editor (core/handoff's EditSession runs
// them through RemoteFiles, off the GUI thread): the file downloaded with what the host said about
// it, and each save uploaded only while the host still has what was downloaded (or last uploaded),
// so an edit never silently replaces someone else's change. Use on the session's own thread.

// What the host had when the file was read or last written.
struct EditStamp
{
    QString path;     // resolved on the host (a link's target): what is written back
    quint64 size = 0;
    quint32 mtime = 0;
    QByteArray sha256; // lower-case hex of the content
    std::optional<quint32> permissions;
};

// Files larger than this are not opened in an editor (download them instead).
inline constexpr quint64 kMaxEditBytes = 32ull * 1024 * 1024;

// Reads the regular file `path` into localFile (created 0600, replaced if there).
Result<EditStamp> fetchForEdit(SftpClient &sftp, const QString &path, const QString &localFile,
                               const std::atomic_bool *cancel = nullptr);

// Writes localFile over expected.path, unless the host's file changed since `expected` (size,
// mtime, or content for a file of up to kReadBackLimit): then a Conflict error and nothing written.
// The new content goes to a temporary name beside the file and is renamed over it (a dropped link
// never leaves half a file), keeping the file's permissions; where the folder is not writable, the
// file itself is rewritten. Returns the host's new stamp.
Result<EditStamp> storeEdited(SftpClient &sftp, const EditStamp &expected, const QString &localFile,
                              const std::atomic_bool *cancel = nullptr);

} // namespace gantry::transfer
