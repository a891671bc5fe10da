#pragma once

#include "core/ssh/session.h"
#include "core/sync/synctypes.h"
#include "core/util/result.h"

#include <QHash>
#include <QString>

#include <memory>

// The remote side of a sync, each step one remote command (one round trip; each pays for the
// login shell's start-up files): the listing, the checksums of files a --checksum sync compares,
// deleting, and the times and modes of files sent over SFTP. Names travel NUL-separated as
// "./NAME" after "--", so no name is ever read as an option or split by the shell.
namespace gantry::transfer { class BatchRunner; }

namespace gantry::sync {

// The command that lists remoteDir: whether it is a folder, whether tar is there, and every
// entry below it (type, size, mtime, mode, path, link target).
QString listingCommand(const QString &remoteDir);
// Parses its output (the login shell may have printed before the first marker).
Result<RemoteListing> parseListing(const QByteArray &out, const QString &host, const QString &remoteDir);
// With `runner`, the session's batch runner starts with the listing (both channels open in the
// same two round trips) and is handed back for the upload that may follow; the caller drops it
// (it exits on EOF) when nothing is sent or the host cannot run one. begunMs, when given, gets
// how long the listing's first marker took to come (two round trips and the login shell's start).
// Once `cancel` is set the listing stops at once, its login shell still starting or not.
Result<RemoteListing> listRemote(ssh::Session &session, const QString &host, const QString &remoteDir,
                                 std::unique_ptr<ssh::Channel> *runner = nullptr, qint64 *begunMs = nullptr,
                                 const std::atomic_bool *cancel = nullptr);
// The same listing through a batch runner that already runs on the session (kept from an earlier
// round of a sync that holds its connection: --watch, the window's folder pairs): one round trip
// and no login shell. An error leaves the runner unusable: drop it and list with listRemote().
Result<RemoteListing> listThroughRunner(const ssh::Session &session, transfer::BatchRunner &runner, const QString &host,
                                        const QString &remoteDir);

// SHA-256 (hex) of the given files below remoteDir, by the remote's openssl or sha256sum; stops
// at once when `cancel` is set.
Result<QHash<QByteArray, QByteArray>> remoteChecksums(ssh::Session &session, const QString &host, const QString &remoteDir,
                                                      const QList<QByteArray> &paths, const std::atomic_bool *cancel = nullptr);

// Removes files and links (then folders, only when empty) below remoteDir; an error names the
// first path the host refused.
Result<void> removeRemote(ssh::Session &session, const QString &host, const QString &remoteDir, const QList<QByteArray> &files,
                          const QList<QByteArray> &dirs);

// Sets mtime and mode of files below remoteDir (those sent over SFTP, which keeps neither).
Result<void> setRemoteTimes(ssh::Session &session, const QString &host, const QString &remoteDir, const QList<SyncEntry> &files);

// Runs command with input on its stdin; stdout, or an error naming what the host said. Once
// `abandon` is set the command is left at once (for read-only commands).
Result<QByteArray> runRemote(ssh::Session &session, const QString &command, const QByteArray &input, QByteArray *err,
                             const std::atomic_bool *abandon = nullptr);

} // namespace gantry::sync
