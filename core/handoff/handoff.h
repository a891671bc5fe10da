// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/hosts/hoststore.h"
#include "core/util/result.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace gantry::handoff {

// The hand-offs a machine manager offers: the machine in VS Code or Cursor (Remote-SSH through the
// machine's ~/.ssh/config alias) and a shell in the desktop's terminal. Each is a program and an
// argument list started detached — never a shell line — and the same command as one line the user
// can copy where the program is not installed. The GUI's machine menu and `gantry-cli open` build
// them here.

enum class Tool
{
    VsCode,
    Cursor,
    Terminal,
};

// "code", "cursor", "terminal" (the CLI's --editor values); nullopt for anything else.
std::optional<Tool> toolNamed(const QString &name);
QString toolName(Tool tool);
// "VS Code", "Cursor", "a terminal": for messages.
QString toolTitle(Tool tool);

// Where programs are looked up: the environment ($PATH, $TERMINAL) and a finder that defaults to
// QStandardPaths::findExecutable over that environment's PATH. Tests inject both, so nothing
// outside the test's PATH is ever started.
struct Desktop
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    std::function<QString(const QString &name)> find = {};
    // Starts a program detached; the default is QProcess::startDetached(program, arguments).
    std::function<bool(const QString &program, const QStringList &arguments)> start = {};

    QString findProgram(const QString &name) const;
    bool startDetached(const QString &program, const QStringList &arguments) const;
};

// Why `alias` cannot be given to ssh or an editor as a host: empty, a control character or a space,
// or a leading '-' (it would be read as an option). Ok when it can.
Result<void> checkAlias(const QString &alias);
// Why `path` cannot be opened on the host: not absolute (empty is allowed: the home folder), or a
// control character in it.
Result<void> checkRemotePath(const QString &path);

// The name `ssh` knows this machine by: an imported host's own Host name, or the entry of Gantry's
// managed block in sshConfigPath (default ~/.ssh/config) when that block is on and holds this
// host's entry (the alias of another host with a similar name does not count). nullopt otherwise.
// Reads the file: call it off the GUI thread.
std::optional<QString> sshAlias(const SavedHost &host, const QList<SavedHost> &allHosts, const QString &configDir,
                                const QString &sshConfigPath = {});

// What a hand-off runs. `program` is the absolute path when it was found; `found` false when not
// (then `program` is the bare name and `commandLine` is what the user copies).
struct Launch
{
    Tool tool = Tool::Terminal;
    QString program;
    QStringList arguments;
    bool found = false;
    QString commandLine; // the command the user would type (for a terminal: the ssh line inside it)
};

// `ssh ALIAS`, or `ssh -t ALIAS 'cd -- PATH && exec "$SHELL" -l'` for a folder: arguments, first "ssh".
QStringList sshArguments(const QString &alias, const QString &remotePath);
// The command for tool on `alias` (checked) and `remotePath` (checked; empty: the home folder):
//   VS Code  code --remote ssh-remote+ALIAS [PATH]
//   Cursor   cursor --remote ssh-remote+ALIAS [PATH]
//   Terminal $TERMINAL or the first of x-terminal-emulator, gnome-terminal, konsole, … running ssh ALIAS
Result<Launch> launchFor(Tool tool, const QString &alias, const QString &remotePath, const Desktop &desktop = {});
// The same for a terminal where the machine has no alias: its full ssh command line.
Result<Launch> terminalFor(const QStringList &sshCommand, const Desktop &desktop = {});

// For a saved host: launchFor its alias; without one, a terminal gets the machine's whole ssh
// command (port, key, jump host) and VS Code or Cursor noAliasError.
Result<Launch> launchForHost(Tool tool, const SavedHost &host, const std::optional<QString> &alias,
                             const QString &remotePath, const Desktop &desktop = {});

// Starts the launch detached. Not found or not started: an error that names the program and holds
// the command to run instead (NotFound when the program is not installed).
Result<void> start(const Launch &launch, const Desktop &desktop = {});

// The error for a machine VS Code or Cursor cannot reach by name (no alias): what to turn on.
Error noAliasError(Tool tool, const SavedHost &host);

} // namespace gantry::handoff
