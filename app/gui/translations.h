#pragma once

#include <QString>

namespace gantry::app {

// Installs the GUI's translation (embedded .qm) and Qt's own (qtbase_*.qm, where the system has it)
// for the language chosen in settings, else the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG),
// else the system locale. Call before any widget is created. Returns the translation loaded
// ("zh_CN"), or "" for English.
QString installTranslators(const QString &configDir);

} // namespace gantry::app
