#pragma once

#include "core/ssh/target.h"
#include "core/util/result.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <optional>

namespace gantry::sshconfig {

// `ssh -p PORT -i KEY -J JUMP user@host` as arguments (first is "ssh").
QStringList sshCommandLine(const ssh::Target &target);
// The same, shell-quoted, for copy/paste.
QString sshCommandString(const ssh::Target &target);

struct TerminalLaunch
{
    QString program;
    QStringList arguments; // the ssh command line is already in here
};

// The user's terminal emulator with the ssh command: $TERMINAL, x-terminal-emulator,
// gnome-terminal, konsole, xfce4-terminal, alacritty, kitty, xterm… (first one found).
// findProgram defaults to QStandardPaths::findExecutable (tests inject one).
std::optional<TerminalLaunch> terminalLaunch(const ssh::Target &target, const QProcessEnvironment &env,
                                             const std::function<QString(const QString &)> &findProgram = {});
// The same terminal running any command (arguments, the program first): `ssh ALIAS`, an editor.
std::optional<TerminalLaunch> terminalLaunchFor(const QStringList &command, const QProcessEnvironment &env,
                                                const std::function<QString(const QString &)> &findProgram = {});
// Starts it detached; an error names the terminals tried.
Result<void> openTerminal(const ssh::Target &target);

// vscode://vscode-remote/ssh-remote+HOST/path: HOST is an ssh config alias (the managed block),
// else user@host (Remote-SSH reads a port only from ssh config).
QUrl vscodeUri(const QString &hostOrAlias, const QString &remotePath);
QString vscodeHost(const ssh::Target &target, const QString &aliasOrEmpty);

} // namespace gantry::sshconfig
