// SPDX-License-Identifier: Apache-2.0
#include "core/handoff/handoff.h"
#include "core/handoff/handofftext.h"

#include "core/ssh/session.h"
#include "core/sshconfig/sshconfigfile.h"
#include "core/sshconfig/terminal.h"
#include "core/util/printable.h"

#include <QDir>
#include <QProcess>
#include <QStandardPaths>

namespace gantry::handoff {

namespace {

bool hasControl(const QString &text)
{
    for (const QChar c : text) {
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format || c == QChar::LineSeparator ||
            c == QChar::ParagraphSeparator)
            return true;
    }
    return false;
}

QString quotedLine(const QStringList &arguments)
{
    QStringList quoted;
    for (const QString &arg : arguments)
        quoted << ssh::shellQuote(arg);
    return quoted.join(u' ');
}

} // namespace

std::optional<Tool> toolNamed(const QString &name)
{
    if (name == u"code" || name == u"vscode")
        return Tool::VsCode;
    if (name == u"cursor")
        return Tool::Cursor;
    if (name == u"terminal")
        return Tool::Terminal;
    return std::nullopt;
}

QString toolName(Tool tool)
{
    switch (tool) {
    case Tool::VsCode: return QStringLiteral("code");
    case Tool::Cursor: return QStringLiteral("cursor");
    case Tool::Terminal: return QStringLiteral("terminal");
    }
    return {};
}

QString toolTitle(Tool tool)
{
    switch (tool) {
    case Tool::VsCode: return QStringLiteral("VS Code");
    case Tool::Cursor: return QStringLiteral("Cursor");
    case Tool::Terminal: return HandoffText::tr("a terminal");
    }
    return {};
}

QString Desktop::findProgram(const QString &name) const
{
    if (find)
        return find(name);
    // The environment's own PATH, so a test's (or the CLI caller's) PATH decides, not this process's.
    const QStringList dirs = env.value(QStringLiteral("PATH")).split(QDir::listSeparator(), Qt::SkipEmptyParts);
    return QStandardPaths::findExecutable(name, dirs);
}

bool Desktop::startDetached(const QString &program, const QStringList &arguments) const
{
    return start ? start(program, arguments) : QProcess::startDetached(program, arguments);
}

Result<void> checkAlias(const QString &alias)
{
    if (alias.isEmpty())
        return makeError(ErrorCode::Usage, HandoffText::tr("The machine has no ssh name."));
    if (hasControl(alias) || alias.contains(u' ') || alias.contains(u'\t'))
        return makeError(ErrorCode::Usage, HandoffText::tr("\"%1\" cannot be an ssh host name: it contains a space or a control "
                                                           "character.").arg(text::printable(alias)));
    if (alias.startsWith(u'-'))
        return makeError(ErrorCode::Usage,
                         HandoffText::tr("\"%1\" cannot be an ssh host name: it starts with '-'.").arg(text::printable(alias)));
    return {};
}

Result<void> checkRemotePath(const QString &path)
{
    if (path.isEmpty())
        return {};
    if (hasControl(path))
        return makeError(ErrorCode::Usage,
                         HandoffText::tr("The path \"%1\" contains a control character.").arg(text::printable(path)));
    if (!path.startsWith(u'/'))
        return makeError(ErrorCode::Usage, HandoffText::tr("The path \"%1\" is not absolute; give the full path, starting with "
                                                           "'/'.").arg(text::printable(path)));
    return {};
}

std::optional<QString> sshAlias(const SavedHost &host, const QList<SavedHost> &allHosts, const QString &configDir,
                                const QString &sshConfigPath)
{
    // Imported from ~/.ssh/config: its name is the user's own Host entry.
    if (host.source == u"ssh-config")
        return checkAlias(host.name) ? std::optional<QString>(host.name) : std::nullopt;
    if (!sshconfig::isSyncEnabled(configDir))
        return std::nullopt;
    const sshconfig::HostEntry mine = sshconfig::entryFor(host);
    // Two names can map to one alias; the block holds the first, which must be this host's.
    bool ours = false;
    for (const sshconfig::HostEntry &entry : sshconfig::entriesFor(allHosts)) {
        if (entry.alias == mine.alias)
            ours = entry == mine;
    }
    const auto written = sshconfig::SshConfigFile(sshConfigPath).aliases();
    if (!ours || !written || !written->contains(mine.alias))
        return std::nullopt;
    return mine.alias;
}

QStringList sshArguments(const QString &alias, const QString &remotePath)
{
    if (remotePath.isEmpty())
        return {QStringLiteral("ssh"), alias};
    // A terminal for the shell though a command is given; the remote shell reads the folder quoted, after "--".
    return {QStringLiteral("ssh"), QStringLiteral("-t"), alias,
            QStringLiteral("cd -- %1 && exec \"$SHELL\" -l").arg(ssh::shellQuote(remotePath))};
}

Result<Launch> terminalFor(const QStringList &sshCommand, const Desktop &desktop)
{
    Launch launch;
    launch.tool = Tool::Terminal;
    launch.commandLine = quotedLine(sshCommand);
    const auto terminal = sshconfig::terminalLaunchFor(sshCommand, desktop.env, [&desktop](const QString &name) {
        return desktop.findProgram(name);
    });
    if (terminal) {
        launch.program = terminal->program;
        launch.arguments = terminal->arguments;
        launch.found = true;
    } else {
        launch.program = sshCommand.value(0);
        launch.arguments = sshCommand.mid(1);
    }
    return launch;
}

Result<Launch> launchFor(Tool tool, const QString &alias, const QString &remotePath, const Desktop &desktop)
{
    if (Result<void> ok = checkAlias(alias); !ok)
        return ok.error();
    if (Result<void> ok = checkRemotePath(remotePath); !ok)
        return ok.error();
    if (tool == Tool::Terminal)
        return terminalFor(sshArguments(alias, remotePath), desktop);
    Launch launch;
    launch.tool = tool;
    const QString name = toolName(tool);
    launch.arguments = {QStringLiteral("--remote"), QStringLiteral("ssh-remote+") + alias};
    if (!remotePath.isEmpty())
        launch.arguments << remotePath;
    const QString path = desktop.findProgram(name);
    launch.found = !path.isEmpty();
    launch.program = launch.found ? path : name;
    launch.commandLine = quotedLine(QStringList{name} + launch.arguments);
    return launch;
}

Result<Launch> launchForHost(Tool tool, const SavedHost &host, const std::optional<QString> &alias,
                             const QString &remotePath, const Desktop &desktop)
{
    if (alias)
        return launchFor(tool, *alias, remotePath, desktop);
    if (tool != Tool::Terminal)
        return noAliasError(tool, host);
    if (Result<void> ok = checkRemotePath(remotePath); !ok)
        return ok.error();
    QStringList ssh = sshconfig::sshCommandLine(host.target);
    if (!remotePath.isEmpty()) // "-t", the destination and the cd line, after the options
        ssh.append(sshArguments(ssh.takeLast(), remotePath).mid(1));
    return terminalFor(ssh, desktop);
}

Result<void> start(const Launch &launch, const Desktop &desktop)
{
    if (!launch.found) {
        if (launch.tool == Tool::Terminal)
            return makeError(ErrorCode::NotFound,
                             HandoffText::tr("No terminal program was found ($TERMINAL, x-terminal-emulator, gnome-terminal, "
                                             "konsole, xfce4-terminal, alacritty, kitty, xterm…). Run this in a terminal "
                                             "instead: %1").arg(launch.commandLine));
        return makeError(ErrorCode::NotFound, HandoffText::tr("%1 (%2) is not on PATH. Install it with its Remote - SSH "
                                                              "support, or run this where it is installed: %3")
                                                  .arg(toolTitle(launch.tool), toolName(launch.tool), launch.commandLine));
    }
    if (!desktop.startDetached(launch.program, launch.arguments))
        return makeError(ErrorCode::Generic, HandoffText::tr("Could not start %1. Run this instead: %2")
                                                 .arg(launch.program, launch.commandLine));
    return {};
}

Error noAliasError(Tool tool, const SavedHost &host)
{
    return Error{ErrorCode::NotFound,
                 HandoffText::tr("%1 reaches %2 only by its name in ~/.ssh/config, and it has none there yet. Let Gantry "
                                 "keep entries for its machines in ~/.ssh/config, then open it again.")
                     .arg(toolTitle(tool), host.name)};
}

} // namespace gantry::handoff
