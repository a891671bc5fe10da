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

} // namespace gantry::paths
