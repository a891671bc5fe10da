// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/sync/syncplan.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QString>

#include <functional>

namespace gantry::transfer {
class SftpClient;
}

// A small edit sent over SFTP, which starts no login shell (#33). A re-sync whose listing came
// over SFTP (the host's ~/.bashrc runs a conda or pyenv init, so every remote command waits a
// second or more) still waited for that shell to unpack a one-file tar batch: an edited file took
// the listing plus the whole start-up. Over SFTP it takes three round trips instead: the files are
// written to temporary names, read back and compared byte for byte with what was read here (as
// the host's sha256sum would check them), given their modes and times, and renamed over their
// destinations.
namespace gantry::sync {

// What goes over SFTP at most: reading back costs the bytes again, which pays only for a few
// small files (1 MiB takes 0.8 s more to read back over a 10 Mbit/s link).
inline constexpr int kSftpSendMaxFiles = 32;
inline constexpr quint64 kSftpSendMaxBytes = 1ull << 20;

// Whether the plan goes over SFTP: only regular files to send (no folders to make, nothing to
// delete), at most kSftpSendMaxFiles of kSftpSendMaxBytes in all, where the host's login shell
// took shellStartMs to start (an earlier listing measured it) and that is longer than the three
// round trips (of roundTripMs) that the SFTP way takes more than a runner already started.
bool sftpSendPays(const SyncPlan &plan, qint64 shellStartMs, qint64 roundTripMs);

struct SftpSendTarget
{
    QByteArray root;   // the local folder (raw bytes, as the scan has it)
    QString remoteDir; // the folder on the host
    bool verify = true; // read each file back before it is renamed into place
};

// Sends *files (what sftpSendPays accepted) over sftp: each file put in place is taken out of
// *files and told to sent(). Files left in *files go the caller's usual way: all of them where
// the host or a file made the SFTP way fail (a missing posix-rename, a file changed since the
// scan, a read-back that differs), those whose rename failed (a folder on another file system).
// An error only where the link dropped or the sync was cancelled. The temporary files are removed;
// those it could not remove (full paths on the host) are added to *strays, for the next round.
Result<void> sendOverSftp(transfer::SftpClient &sftp, const SftpSendTarget &target, QList<SyncEntry> *files,
                          const std::function<void(const SyncEntry &)> &sent, QStringList *strays);

} // namespace gantry::sync
