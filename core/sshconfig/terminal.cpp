#include "core/sshconfig/terminal.h"
#include "core/sshconfig/sshconfigtext.h"

#include "core/ssh/session.h"

#include <QObject>
#include <QProcess>
#include <QStandardPaths>

namespace gantry::sshconfig {

QStringList sshCommandLine(const ssh::Target &target)
{
    QStringList args{QStringLiteral("ssh")};
    if (target.port != 22)
        args << QStringLiteral("-p") << QString::number(target.port);
    for (const QString &key : target.identityFiles)
        args << QStringLiteral("-i") << key;
    if (!target.proxyJump.isEmpty())
        args << QStringLiteral("-J") << target.proxyJump;
    args << (target.user.isEmpty() ? target.host : target.user + u'@' + target.host);
    return args;
}

QString sshCommandString(const ssh::Target &target)
{
    QStringList quoted;
    for (const QString &arg : sshCommandLine(target))
        quoted << ssh::shellQuote(arg);
    return quoted.join(u' ');
}

std::optional<TerminalLaunch> terminalLaunch(const ssh::Target &target, const QProcessEnvironment &env,
                                             const std::function<QString(const QString &)> &findProgram)
{
    return terminalLaunchFor(sshCommandLine(target), env, findProgram);
}

std::optional<TerminalLaunch> terminalLaunchFor(const QStringList &command, const QProcessEnvironment &env,
                                                const std::function<QString(const QString &)> &findProgram)
{
    const auto find = findProgram ? findProgram : [](const QString &name) { return QStandardPaths::findExecutable(name); };
    const QStringList &ssh = command;
    // How each terminal takes a command: most accept "-e prog args…", some want "--".
    struct Known
    {
        const char *name;
        QStringList prefix;
    };
    const QList<Known> known = {
        {"x-terminal-emulator", {QStringLiteral("-e")}},
        {"gnome-terminal", {QStringLiteral("--")}},
        {"konsole", {QStringLiteral("-e")}},
        {"xfce4-terminal", {QStringLiteral("-x")}},
        {"kitty", {}},
        {"alacritty", {QStringLiteral("-e")}},
        {"wezterm", {QStringLiteral("start"), QStringLiteral("--")}},
        {"foot", {}},
        {"tilix", {QStringLiteral("-e")}},
        {"terminator", {QStringLiteral("-x")}},
        {"xterm", {QStringLiteral("-e")}},
    };
    const QString preferred = env.value(QStringLiteral("TERMINAL")).trimmed();
    if (!preferred.isEmpty()) {
        const QString path = find(preferred);
        if (!path.isEmpty()) {
            QStringList prefix{QStringLiteral("-e")};
            for (const Known &k : known) {
                if (preferred.endsWith(QString::fromLatin1(k.name)))
                    prefix = k.prefix;
            }
            return TerminalLaunch{path, prefix + ssh};
        }
    }
    for (const Known &k : known) {
        const QString path = find(QString::fromLatin1(k.name));
        if (!path.isEmpty())
            return TerminalLaunch{path, k.prefix + ssh};
    }
    return std::nullopt;
}

Result<void> openTerminal(const ssh::Target &target)
{
    const auto launch = terminalLaunch(target, QProcessEnvironment::systemEnvironment());
    if (!launch)
        return makeError(ErrorCode::NotFound,
                         SshconfigText::tr("No terminal emulator found (tried $TERMINAL, x-terminal-emulator, gnome-terminal, "
                                     "konsole, xterm…). Run this in a terminal instead: %1")
                             .arg(sshCommandString(target)));
    if (!QProcess::startDetached(launch->program, launch->arguments))
        return makeError(ErrorCode::Generic,
                         SshconfigText::tr("Could not start %1. Run this in a terminal instead: %2").arg(launch->program, sshCommandString(target)));
    return {};
}

QString vscodeHost(const ssh::Target &target, const QString &aliasOrEmpty)
{
    if (!aliasOrEmpty.isEmpty())
        return aliasOrEmpty;
    return target.user.isEmpty() ? target.host : target.user + u'@' + target.host;
}

QUrl vscodeUri(const QString &hostOrAlias, const QString &remotePath)
{
    QString path = remotePath.isEmpty() ? QStringLiteral("/") : remotePath;
    if (!path.startsWith(u'/'))
        path.prepend(u'/');
    QUrl url;
    url.setScheme(QStringLiteral("vscode"));
    url.setHost(QStringLiteral("vscode-remote"));
    url.setPath(QStringLiteral("/ssh-remote+") + hostOrAlias + path);
    return url;
}

} // namespace gantry::sshconfig
