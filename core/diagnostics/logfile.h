#pragma once

#include <QString>

namespace gantry::diagnostics {

// <configDir>/logs/gantry.log: the GUI's Qt messages (warnings and up, plus qInfo), kept under
// 1 MiB by moving a full log to gantry.log.1. The diagnostic report includes both.
QString logDir(const QString &configDir);
// Installs a message handler (any thread; writes are serialised) that appends to the log and
// still prints to stderr. Safe to call once per process.
void installLogFile(const QString &configDir);

} // namespace gantry::diagnostics
