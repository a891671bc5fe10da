#pragma once

#include <QString>

namespace gantry::paths {

// The config dir: the explicit one if given, else $GANTRY_CONFIG_DIR, else
// ~/.config/gantry (QStandardPaths::AppConfigLocation). Created on demand.
QString configDir(const QString &explicitDir = {});
// Cache dir (price tables, uploaded binaries' hashes…): <configDir>/cache.
QString cacheDir(const QString &configDir);
// Directory with bundled read-only data (spec tables…): next to the binary, else the source tree.
QString resourcesDir();
// ~/.ssh
QString userSshDir();
// Creates dir (and missing parents) when it is not there; the directory itself gets 0700, as
// OpenSSH and Gantry's secrets expect. An existing directory keeps its mode: Gantry only sets
// modes on what it creates (`--config-dir /tmp` must not lock up /tmp). False if it cannot be made.
bool makePrivateDir(const QString &dir);

} // namespace gantry::paths
