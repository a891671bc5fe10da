#pragma once

#include "core/sync/syncplan.h"
#include "core/util/result.h"

#include <QDateTime>
#include <QString>

namespace gantry::sync {

// Sync manifests live in <configDir>/sync/, one JSON file per (host, local folder, remote folder),
// replaced atomically (write, then rename) so a crash leaves the old one or the new one.
QString manifestPath(const QString &configDir, const QString &host, const QString &localDir, const QString &remoteDir);
SyncManifest loadManifest(const QString &path);
Result<void> saveManifest(const QString &path, const SyncManifest &manifest, const QString &host, const QString &localDir,
                          const QString &remoteDir);

// The manifest's measure of SFTP's start-up, or -1 (not measured) once it is a day old: a host
// measured slow once (busy then, or its sshd since changed) gets SFTP tried, and measured, again.
qint64 trustedSftpStartMs(const SyncManifest &manifest, qint64 nowSecs = QDateTime::currentSecsSinceEpoch());
void setSftpStartMs(SyncManifest *manifest, qint64 ms, qint64 nowSecs = QDateTime::currentSecsSinceEpoch());

} // namespace gantry::sync
