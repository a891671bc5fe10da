#pragma once

#include <QIcon>

namespace gantry::ui {

// The app icon: the desktop theme's (installed under hicolor by the package), else the PNGs
// compiled into the binary, so a build-tree or tarball run has an icon too.
QIcon appIcon();

// Desktop file name (the application id) and window icon, once, right after QApplication exists.
void applyAppIdentity();

} // namespace gantry::ui
