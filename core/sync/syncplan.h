#pragma once

#include "core/sync/synctypes.h"

#include <QHash>
#include <QSet>

#include <functional>

namespace gantry::sync {

// What earlier syncs of one (host, local folder, remote folder) pair sent: only these may ever be
// deleted remotely, so run outputs on the machine (checkpoints, wandb/) are never touched.
struct SyncManifest
{
    QSet<QByteArray> files; // files and links
    QSet<QByteArray> dirs;
    // What the last listing through a login shell found: how long that shell took to start (-1:
    // not measured), and whether the host runs tar and a batch runner. A re-sync to a host whose
    // shell starts slowly (conda or pyenv init) lists over SFTP instead, trusting the last two.
    qint64 shellStartMs = -1;
    bool haveTar = false;
    bool haveRunner = false;
    // SFTP failed to list while the link was up (no sftp-server there): the shell lists from then on.
    bool sftpRefused = false;
    // How long SFTP took to start beyond its round trips (-1: not measured). Where sshd runs an
    // sftp-server program (Debian's and Ubuntu's default) it starts through the login shell and
    // pays the same start-up; only internal-sftp starts at once.
    qint64 sftpStartMs = -1;
    qint64 sftpMeasuredAt = 0; // when, in seconds since the epoch (see trustedSftpStartMs)
};

struct PlanOptions
{
    bool deleteGone = false;
    bool checksum = false;
    // With checksum: SHA-256 of files present on both sides with the same size.
    QHash<QByteArray, QByteArray> localSums;
    QHash<QByteArray, QByteArray> remoteSums;
    // Whether a path still exists locally (an ignored file is not "gone", as with rsync's excludes).
    std::function<bool(const QByteArray &)> existsLocally;
};

struct SyncPlan
{
    QList<SyncEntry> dirs;       // folders to create
    QList<SyncEntry> send;       // files and links, new or changed
    QSet<QByteArray> changed;    // which of send replace something on the host
    QList<QByteArray> removeFiles;
    QList<QByteArray> removeDirs;
    QList<QByteArray> conflicts; // a local file where the host has a folder (or the reverse)
    quint64 sendBytes = 0;
    int unchanged = 0;

    int newCount() const { return int(send.size() - changed.size()); }
    bool isEmpty() const { return dirs.isEmpty() && send.isEmpty() && removeFiles.isEmpty() && removeDirs.isEmpty(); }
};

// Whether a local file differs from what the host has (size and mtime, or content with checksum).
bool differs(const SyncEntry &local, const SyncEntry &remote, const PlanOptions &options);
// Paths present on both sides with the same size: what a --checksum sync must hash.
QList<QByteArray> checksumCandidates(const LocalScan &local, const RemoteListing &remote);

SyncPlan planSync(const LocalScan &local, const RemoteListing &remote, const SyncManifest &manifest, const PlanOptions &options);

} // namespace gantry::sync
