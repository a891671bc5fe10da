// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/ssh/session.h"
#include "core/sync/synctypes.h"
#include "core/util/result.h"

#include <QString>

namespace gantry::transfer {
class SftpClient;
}

// A sync's remote listing read over SFTP, which starts no login shell (#33): on GPU images a conda
// or pyenv init in ~/.bashrc makes every remote command wait a second or more, and a re-sync with
// nothing to send needs no command at all. The folders are read breadth-first with many requests
// in flight, so the listing takes about two round trips per level of the tree, not per folder.
namespace gantry::sync {

// What listingCommand() reports, but for tar and the batch runner, which SFTP cannot see (they are
// left false): whether remoteDir is a folder, and every entry below it (files, folders, links
// with their targets; pipes and sockets are left out, as there). A folder that cannot be read is
// listed without its content, as find does. Bounded by the session's limits (entries, memory).
Result<RemoteListing> listOverSftp(transfer::SftpClient &sftp, const ssh::OutputLimits &limits, const QString &host,
                                   const QString &remoteDir);

// Whether listing over SFTP is likely to be faster than through a login shell that took
// shellStartMs to start (an earlier listing measured it), on a link of roundTripMs, for a tree
// with these folders (relative paths, "" the top one: the local scan's), where SFTP itself took
// sftpStartMs to start (-1: not measured yet).
bool sftpListingPays(qint64 shellStartMs, qint64 roundTripMs, const QList<QByteArray> &folders, qint64 sftpStartMs = -1);

} // namespace gantry::sync
