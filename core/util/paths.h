#pragma once

#include <QString>

namespace gantry::paths {

// The config dir: the explicit one if given, else $GANTRY_CONFIG_DIR, else
// ~/.config/gantry (QStandardPaths::AppConfigLocation). Created on demand.
QString configDir(const QString &explicitDir = {});
// Cache dir (price tables, uploaded binaries' hashes…): <configDir>/cache.
QString cacheDir(const QString &configDir);

// Run-time lookups are relative to the executable, so one binary works from /usr, /usr/local,
// a tarball unpacked anywhere, an AppImage or a Flatpak (/app) without compiled-in paths.
// Installed: <bindir>/../share/gantry and <bindir>/../libexec/gantry (GNUInstallDirs, computed at
// configure time as relative paths). Build tree: the binaries live in <build>/app, and configure
// mirrors the data into <build>/share/gantry, so the same relative rule finds it.

// Read-only data (kernels/ sources, spec tables, remote scripts, translations); empty when neither
// an install nor a build tree is found around the executable.
QString resourcesDir();
// Helper programs (gantry-verify); <bindir>/../libexec/gantry, whether or not it exists.
QString libexecDir();
// Compiled translations (.qm): <resourcesDir>/translations; empty with resourcesDir.
QString translationsDir();
// ~/.ssh
QString userSshDir();
// Creates dir (and missing parents) when it is not there; the directory itself gets 0700, as
// OpenSSH and Gantry's secrets expect. An existing directory keeps its mode: Gantry only sets
// modes on what it creates (`--config-dir /tmp` must not lock up /tmp). False if it cannot be made.
bool makePrivateDir(const QString &dir);

} // namespace gantry::paths
