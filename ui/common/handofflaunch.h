// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/handoff/handoff.h"

#include <functional>

class QObject;

namespace gantry::ui {

// A machine tab's hand-off (Jobs' Terminal and VS Code, Files' "Open terminal here") through
// core/handoff, so it runs the command the Machine menu and `gantry-cli open HOST [--editor TOOL]
// [PATH]` run: the machine's ~/.ssh/config alias is read off the GUI thread (a file), then the
// program is started detached. `done` runs on the GUI thread with the launch made (or why none
// could be) and whether it started (not: the program is missing, and launch->commandLine is what
// to run instead); not at all once `context` is gone.
using HandoffDone = std::function<void(const Result<handoff::Launch> &launch, const Result<void> &started)>;
void startHandoff(QObject *context, handoff::Tool tool, const SavedHost &host, const QList<SavedHost> &allHosts,
                  const QString &configDir, const QString &remotePath, const handoff::Desktop &desktop, HandoffDone done);

} // namespace gantry::ui
