// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/handoff/handoff.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace gantry::handoff {

// The local editor a remote file is edited in: $VISUAL, else $EDITOR (words split as a shell
// would, but no shell runs), else the desktop's default application (the GUI) or a terminal
// editor (the CLI).
struct EditorCommand
{
    QString program; // found on PATH (absolute)
    QStringList arguments; // the file goes after these
    bool terminal = false; // vi, nano, …: needs a terminal (the GUI opens one around it)
};

// $VISUAL or $EDITOR, program found; nullopt when neither names a program that is there. Editors
// that hand a file to a window already open and return at once get their "wait" option (code,
// cursor, subl, zed and gedit --wait, kate --block), so the edit ends when the file is closed.
std::optional<EditorCommand> editorFromEnvironment(const Desktop &desktop);
// What the CLI runs when neither is set: sensible-editor, editor, nano, vi (the first found).
std::optional<EditorCommand> fallbackTerminalEditor(const Desktop &desktop);

// For the GUI: a terminal editor inside the desktop's terminal (nullopt when there is none);
// any other editor as it is. The file is the last argument.
std::optional<EditorCommand> windowedEditor(const EditorCommand &editor, const QString &file, const Desktop &desktop);

} // namespace gantry::handoff
