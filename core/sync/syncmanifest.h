#pragma once

#include "core/sync/syncplan.h"
#include "core/util/result.h"

#include <QString>

namespace gantry::sync {

// Sync manifests live in <configDir>/sync/, one JSON file per (host, local folder, remote folder),
// replaced atomically (write, then rename) so a crash leaves the old one or the new one.
QString manifestPath(const QString &configDir, const QString &host, const QString &localDir, const QString &remoteDir);
SyncManifest loadManifest(const QString &path);
Result<void> saveManifest(const QString &path, const SyncManifest &manifest, const QString &host, const QString &localDir,
                          const QString &remoteDir);

} // namespace gantry::sync
