#include "core/guard/guard.h"
#include "core/guard/guardtext.h"

#include "core/providers/providerregistry.h"

#include <QCoreApplication>

namespace gantry::guard {
namespace {

// "d=DIR" for the remote shell; the default is expanded there, a given folder is quoted.
QString dirAssignment(const QString &remoteDir)
{
    return QStringLiteral("d=")
        + (remoteDir.isEmpty() ? QStringLiteral("\"$HOME/.gantry/guard\"") : ssh::shellQuote(remoteDir)) + u'\n';
}

// Stops a running guard: its process group (setsid made it the leader), else the process.
// A pid file that holds no process id of the guard (1 would signal every process of the user, 0
// this shell's own group) is removed without signalling anything.
const QString kStopRunning = QStringLiteral(
    "if [ -f \"$d/pid\" ]; then p=$(cat \"$d/pid\"); case \"$p\" in ''|*[!0-9]*|0|1) ;; *) kill -TERM -- \"-$p\" 2>/dev/null "
    "|| kill -TERM \"$p\" 2>/dev/null;; esac; rm -f \"$d/pid\"; fi\n");

Error remoteError(const QString &what, const ssh::ExecOutput &output)
{
    const QString detail = QString::fromUtf8(output.err.isEmpty() ? output.out : output.err).trimmed().left(300);
    return Error::make(ErrorCode::RemoteFailed,
                       GuardText::tr("%1 failed on the machine (exit %2): %3. Check that it has a POSIX sh and "
                                     "that its home directory is writable.")
                           .arg(what)
                           .arg(output.exitStatus)
                           .arg(detail));
}

// Runs one guard command; its stdout, or the error that names what failed.
Result<QByteArray> runGuardCommand(ssh::Session &session, const QString &command, const QString &what)
{
    auto output = session.run(command, 30000);
    if (!output)
        return output.error();
    if (output->exitStatus != 0)
        return remoteError(what, *output);
    return output->out;
}

} // namespace

providers::SelfStop selfStopFor(const QString &providerId)
{
    // Only a cloud can stop its machine; the local sandbox's "instances" are this computer's
    // processes, and a power-off there would shut the user's own machine down.
    if (!providers::cloudProviderIds().contains(providerId))
        return providers::SelfStop::None;
    providers::ProviderSettings settings;
    settings.apiKeyOverride = QStringLiteral("unused"); // info() is static: nothing is called
    auto provider = providers::createProvider(providerId, settings);
    return provider ? (*provider)->info().selfStop : providers::SelfStop::None;
}

QString noSelfStopReason(const QString &providerId)
{
    if (providerId.isEmpty())
        return GuardText::tr("This host was not launched through a provider, so Gantry does not know how it could "
                             "stop itself. Use `gantry-cli watch` on a machine that stays awake instead.");
    return GuardText::tr("%1 gives a machine no credentials that can stop only itself, and powering off does not "
                         "stop its billing. Use `gantry-cli watch` on a machine that stays awake instead.")
        .arg(providers::providerDisplayName(providerId));
}

Result<void> installGuard(ssh::Session &session, const GuardOptions &options, const QString &remoteDir)
{
    if (options.method == providers::SelfStop::None)
        return Error::make(ErrorCode::Usage, GuardText::tr("There is no way for this machine to stop itself; use "
                                                           "`gantry-cli watch` instead."));
    const QString marker = QStringLiteral("GANTRY_GUARD_EOF");
    const QString script = guardScript(options);
    // The script holds the machine's scoped key: its folder and every file in it are the user's
    // alone from the moment they exist (umask), not after a chmod.
    QString command = QStringLiteral("set -e\numask 077\n") + dirAssignment(remoteDir)
        + QStringLiteral("mkdir -p \"$d\"\nchmod 700 \"$d\"\n") + kStopRunning;
    command += QStringLiteral("cat >\"$d/guard.sh.tmp\" <<'") + marker + QStringLiteral("'\n") + script;
    command += marker + QStringLiteral("\nchmod 700 \"$d/guard.sh.tmp\"\nmv -f \"$d/guard.sh.tmp\" \"$d/guard.sh\"\n"
                                       "rm -f \"$d/status\"\n");
    // Detached from this session (new session, no inherited descriptors) so it outlives the login.
    command += QStringLiteral("if command -v setsid >/dev/null 2>&1; then s=setsid; else s=; fi\n"
                              "nohup $s sh \"$d/guard.sh\" >\"$d/guard.log\" 2>&1 </dev/null &\n"
                              // Written here too, so a status right after the install sees it running.
                              "echo $! >\"$d/pid\"\n");
    auto output = runGuardCommand(session, command, GuardText::tr("Installing the idle guard"));
    if (!output)
        return output.error();
    return {};
}

Result<GuardStatus> guardStatus(ssh::Session &session, const QString &remoteDir)
{
    const QString command = dirAssignment(remoteDir)
        + QStringLiteral("[ -f \"$d/guard.sh\" ] && echo installed=1\n"
                         "[ -f \"$d/pid\" ] && kill -0 \"$(cat \"$d/pid\")\" 2>/dev/null && echo running=1\n"
                         "[ -f \"$d/status\" ] && cat \"$d/status\"\nexit 0\n");
    auto output = runGuardCommand(session, command, GuardText::tr("Reading the idle guard's status"));
    if (!output)
        return output.error();
    return parseGuardStatus(*output);
}

Result<void> removeGuard(ssh::Session &session, const QString &remoteDir)
{
    const QString command = dirAssignment(remoteDir) + kStopRunning + QStringLiteral("rm -rf \"$d\"\n");
    auto output = runGuardCommand(session, command, GuardText::tr("Removing the idle guard"));
    if (!output)
        return output.error();
    return {};
}

GuardStatus parseGuardStatus(const QByteArray &text)
{
    GuardStatus status;
    for (const QByteArray &line : text.split('\n')) {
        const qsizetype eq = line.indexOf('=');
        if (eq <= 0)
            continue;
        const QByteArray key = line.left(eq);
        const QString value = QString::fromUtf8(line.mid(eq + 1)).trimmed();
        if (key == "installed")
            status.installed = value == QLatin1StringView("1");
        else if (key == "running")
            status.running = value == QLatin1StringView("1");
        else if (key == "state")
            status.state = value;
        else if (key == "reason")
            status.reason = value;
        else if (key == "idle_seconds")
            status.idleSeconds = value.toInt();
        else if (key == "threshold_seconds")
            status.thresholdSeconds = value.toInt();
        else if (key == "method")
            status.method = value;
        else if (key == "action")
            status.action = value;
        else if (key == "error")
            status.error = value;
    }
    return status;
}

} // namespace gantry::guard
