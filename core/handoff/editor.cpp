// SPDX-License-Identifier: Apache-2.0
#include "core/handoff/editor.h"

#include "core/sshconfig/terminal.h"

#include <QFileInfo>
#include <QProcess>

namespace gantry::handoff {

namespace {

// Editors that need a terminal: from the GUI they get a terminal window of their own.
bool isTerminalEditor(const QString &name)
{
    static const QStringList names = {QStringLiteral("vi"),    QStringLiteral("vim"),   QStringLiteral("nvim"),
                                      QStringLiteral("nano"),  QStringLiteral("pico"),  QStringLiteral("micro"),
                                      QStringLiteral("hx"),    QStringLiteral("helix"), QStringLiteral("kak"),
                                      QStringLiteral("joe"),   QStringLiteral("ne"),    QStringLiteral("mcedit"),
                                      QStringLiteral("jed"),   QStringLiteral("emacs"), QStringLiteral("sensible-editor"),
                                      QStringLiteral("editor"), QStringLiteral("ed"),   QStringLiteral("mg")};
    return names.contains(name);
}

// The option that makes an editor wait until the file is closed, where it would otherwise return at once.
QString waitOption(const QString &name)
{
    static const QStringList waits = {QStringLiteral("code"), QStringLiteral("code-insiders"), QStringLiteral("codium"),
                                      QStringLiteral("cursor"), QStringLiteral("subl"), QStringLiteral("zed"),
                                      QStringLiteral("gedit")};
    if (waits.contains(name))
        return QStringLiteral("--wait");
    if (name == u"kate")
        return QStringLiteral("--block");
    return {};
}

std::optional<EditorCommand> commandFrom(const QString &line, const Desktop &desktop)
{
    QStringList words = QProcess::splitCommand(line);
    if (words.isEmpty())
        return std::nullopt;
    const QString program = desktop.findProgram(words.takeFirst());
    if (program.isEmpty())
        return std::nullopt;
    const QString name = QFileInfo(program).fileName();
    EditorCommand editor{program, words, isTerminalEditor(name)};
    // emacs in a window unless told -nw; the rest of the table as it reads.
    if (name == u"emacs")
        editor.terminal = words.contains(QStringLiteral("-nw")) || words.contains(QStringLiteral("--no-window-system"));
    const QString wait = waitOption(name);
    if (!wait.isEmpty() && !words.contains(wait) && !(wait == u"--wait" && words.contains(QStringLiteral("-w"))) &&
        !(wait == u"--block" && words.contains(QStringLiteral("-b"))))
        editor.arguments.append(wait);
    return editor;
}

} // namespace

std::optional<EditorCommand> editorFromEnvironment(const Desktop &desktop)
{
    for (const char *variable : {"VISUAL", "EDITOR"}) {
        const QString line = desktop.env.value(QString::fromLatin1(variable)).trimmed();
        if (line.isEmpty())
            continue;
        if (auto editor = commandFrom(line, desktop))
            return editor;
    }
    return std::nullopt;
}

std::optional<EditorCommand> fallbackTerminalEditor(const Desktop &desktop)
{
    for (const char *name : {"sensible-editor", "editor", "nano", "vi"}) {
        if (auto editor = commandFrom(QString::fromLatin1(name), desktop))
            return editor;
    }
    return std::nullopt;
}

std::optional<EditorCommand> windowedEditor(const EditorCommand &editor, const QString &file, const Desktop &desktop)
{
    const QStringList command = QStringList{editor.program} + editor.arguments + QStringList{file};
    if (!editor.terminal)
        return EditorCommand{editor.program, command.mid(1), false};
    const auto terminal = sshconfig::terminalLaunchFor(command, desktop.env, [&desktop](const QString &name) {
        return desktop.findProgram(name);
    });
    if (!terminal)
        return std::nullopt;
    return EditorCommand{terminal->program, terminal->arguments, false};
}

} // namespace gantry::handoff
