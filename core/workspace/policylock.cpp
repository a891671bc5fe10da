#include "core/workspace/policylock.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QProcess>

#include <signal.h>
#include <unistd.h>

namespace gantry::workspace {

PolicyLock::PolicyLock(const QString &configDir)
    : m_path(path(configDir))
    , m_file(m_path)
{
    m_file.setStaleLockTime(0); // held for days by a watcher: only a dead owner makes it stale
}

PolicyLock::~PolicyLock()
{
    release();
}

QString PolicyLock::path(const QString &configDir)
{
    return QDir(configDir).filePath(QStringLiteral("policy.lock"));
}

qint64 PolicyLock::livePid(const QString &configDir)
{
    QLockFile file(path(configDir));
    qint64 pid = 0;
    QString host, program;
    if (!file.getLockInfo(&pid, &host, &program) || pid <= 0)
        return 0;
    return ::kill(pid_t(pid), 0) == 0 ? pid : 0;
}

bool PolicyLock::tryAcquire()
{
    if (!m_owned) {
        QDir().mkpath(QFileInfo(m_path).absolutePath());
        m_owned = m_file.tryLock(0);
    }
    return m_owned;
}

QString PolicyLock::holder() const
{
    qint64 pid = 0;
    QString hostName;
    QString application;
    if (!m_file.getLockInfo(&pid, &hostName, &application))
        return {};
    return QStringLiteral("%1 (pid %2 on %3)").arg(application.isEmpty() ? QStringLiteral("?") : application).arg(pid).arg(hostName);
}

void PolicyLock::release()
{
    if (m_owned)
        m_file.unlock();
    m_owned = false;
}

// The user's systemd manager answers and outlives the user's sessions (lingering enabled:
// `loginctl enable-linger`); without it a scope would end at logout.
bool PolicyLock::userManagerRuns()
{
    // The user's systemd answers on its private socket; asking costs a process, once per hand-off.
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (runtime.isEmpty() || !QFileInfo::exists(runtime + QStringLiteral("/systemd/private")))
        return false;
    QProcess probe;
    probe.start(QStringLiteral("systemctl"), {QStringLiteral("--user"), QStringLiteral("--quiet"), QStringLiteral("is-active"),
                                              QStringLiteral("default.target")});
    if (!probe.waitForFinished(3000) || probe.exitStatus() != QProcess::NormalExit || probe.exitCode() != 0)
        return false;
    // Without lingering the user's systemd stops when the last session ends — a desktop logout,
    // the end of an SSH login — and takes its scopes with it, where a detached process lives on
    // (Debian's default KillUserProcesses=no). So the scope only where the user lingers.
    QProcess linger;
    linger.start(QStringLiteral("loginctl"), {QStringLiteral("show-user"), QString::number(getuid()), QStringLiteral("--property=Linger"),
                                              QStringLiteral("--value")});
    return linger.waitForFinished(3000) && linger.exitCode() == 0 && linger.readAllStandardOutput().trimmed() == "yes";
}

QStringList PolicyLock::watcherCommand(const QString &configDir, const QString &cliProgram, bool userManager)
{
    const QStringList watch{cliProgram, QStringLiteral("--config-dir"), configDir, QStringLiteral("watch")};
    if (!userManager)
        return watch;
    // A scope of the user's systemd: the watcher keeps this process's environment (provider keys
    // and run secrets from the environment stay in memory, never in a unit file), leaves the
    // terminal's or the desktop session's group, and is listed and stopped by name
    // (`systemctl --user stop gantry-watch-…`).
    const QString unit = QStringLiteral("gantry-watch-%1")
                             .arg(QString::fromLatin1(QCryptographicHash::hash(QDir(configDir).absolutePath().toUtf8(),
                                                                               QCryptographicHash::Sha256).toHex().left(12)));
    return QStringList{QStringLiteral("systemd-run"), QStringLiteral("--user"), QStringLiteral("--scope"), QStringLiteral("--quiet"),
                       QStringLiteral("--collect"), QStringLiteral("--unit=") + unit, QStringLiteral("--description=Gantry watcher for ") + configDir,
                       QStringLiteral("--")} + watch;
}

Result<qint64> PolicyLock::ensureWatcher(const QString &configDir, const QString &cliProgram)
{
    const qint64 owner = livePid(configDir);
    if (owner != 0 && owner != QCoreApplication::applicationPid())
        return qint64(0);
    const QStringList command = watcherCommand(configDir, cliProgram, userManagerRuns());
    QProcess watcher;
    watcher.setProgram(command.first());
    watcher.setArguments(command.mid(1));
    watcher.setStandardInputFile(QProcess::nullDevice());
    watcher.setStandardOutputFile(QDir(configDir).filePath(QStringLiteral("watch.log")), QIODevice::Append);
    watcher.setStandardErrorFile(QDir(configDir).filePath(QStringLiteral("watch.log")), QIODevice::Append);
    qint64 pid = 0; // systemd-run --scope execs the watcher itself: the pid is the watcher's
    if (!watcher.startDetached(&pid))
        return Error{ErrorCode::Io, tr("Cannot start %1 watch: %2. Start `gantry-cli watch` yourself, or its runs wait "
                                                "for the next Gantry window.").arg(cliProgram, watcher.errorString())};
    return pid;
}

} // namespace gantry::workspace
