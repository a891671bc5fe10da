#include "core/providers/sandboxproviderhome.h"
#include "core/providers/providerstext.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSaveFile>
#include <QThread>

#include <sys/stat.h>
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

namespace gantry::providers::sandbox {
namespace {

QString shQuote(const QString &text)
{
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

Result<void> write(const QString &path, const QByteArray &data, bool executable = false)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit())
        return Error{ErrorCode::Io, ProvidersText::tr("Cannot write %1: %2").arg(path, file.errorString())};
    if (executable)
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return {};
}

Result<void> writeResource(const QString &resource, const QString &path)
{
    QFile source(resource);
    if (!source.open(QIODevice::ReadOnly))
        return Error{ErrorCode::Generic, ProvidersText::tr("The simulated GPU's script %1 is missing from this build.").arg(resource)};
    return write(path, source.readAll(), true);
}

} // namespace

QString gpuProfileName(GpuProfile profile)
{
    switch (profile) {
    case GpuProfile::None: return {};
    case GpuProfile::Idle: return QStringLiteral("idle");
    case GpuProfile::Training: return QStringLiteral("training");
    }
    return {};
}

GpuProfile gpuProfileFromName(const QString &name)
{
    if (name == QLatin1StringView("idle"))
        return GpuProfile::Idle;
    if (name == QLatin1StringView("training"))
        return GpuProfile::Training;
    return GpuProfile::None;
}

InstanceHome::InstanceHome(QString dir, QString id)
    : m_dir(std::move(dir))
    , m_id(std::move(id))
{
}

QString InstanceHome::home() const
{
    return m_dir + QStringLiteral("/home");
}

QString InstanceHome::binDir() const
{
    return m_dir + QStringLiteral("/bin");
}

QString InstanceHome::tmuxDir() const
{
    // tmux's socket path (TMUX_TMPDIR/tmux-UID/default) must fit a sockaddr_un (108 bytes); a deep
    // config dir falls back to a short per-instance directory in /tmp, removed by stopSessions().
    const QString inHome = home() + QStringLiteral("/.tmux");
    const qsizetype socketLength = inHome.toLocal8Bit().size() + QStringLiteral("/tmux-%1/default").arg(getuid()).size();
    return socketLength < 100 ? inHome : QStringLiteral("/tmp/gantry-sandbox-") + m_id.left(16);
}

namespace {

// The tmux fallback lives in /tmp under a name anyone can guess: a folder another user made there
// first (or a link to one) would hold the instance's tmux socket. Only a real folder of ours that
// no one else can enter is used.
Result<void> ensurePrivateDir(const QString &path)
{
    struct stat st {};
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()
        || (st.st_mode & 077) != 0) {
        return Error{ErrorCode::Io, ProvidersText::tr("Local sandbox: %1 is not a private folder of this user (another user or a link "
                                                      "made it); remove it and launch again.")
                                        .arg(path)};
    }
    return {};
}

} // namespace

Result<void> InstanceHome::prepare(GpuProfile profile, const QString &sftpServer) const
{
    if (sftpServer.isEmpty()) {
        return Error{ErrorCode::Provider, ProvidersText::tr("Local sandbox: OpenSSH's sftp-server was not found next to sshd; "
                                                       "install openssh-sftp-server (or openssh-server).")};
    }
    for (const QString &path : {home(), tmuxDir()}) {
        if (!QDir().mkpath(path))
            return Error{ErrorCode::Io, ProvidersText::tr("Cannot create %1.").arg(path)};
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        if (Result<void> own = ensurePrivateDir(path); !own)
            return own.error();
    }
    // The marker every process of the instance inherits, so a terminate finds them all (endProcesses()).
    QString env = QStringLiteral("# Gantry sandbox instance %1: its own home and tmux server.\n"
                                 "HOME=%2; export HOME\nTMUX_TMPDIR=%3; export TMUX_TMPDIR\nunset TMUX\n"
                                 "%4=%1; export %4\n")
                      .arg(m_id, shQuote(home()), shQuote(tmuxDir()), QLatin1StringView(kInstanceMarker));
    QDir(binDir()).removeRecursively();
    if (profile != GpuProfile::None) {
        // Prepended again after /etc/profile (login shells, tmux) resets PATH: the dotfiles below source this.
        env += QStringLiteral("case \":$PATH:\" in *:%1:*) ;; *) PATH=%1:\"$PATH\"; export PATH;; esac\n").arg(shQuote(binDir()));
        if (!QDir().mkpath(binDir()))
            return Error{ErrorCode::Io, ProvidersText::tr("Cannot create %1.").arg(binDir())};
        if (Result<void> r = writeResource(QStringLiteral(":/gantry/sandbox/nvidia-smi.py"), binDir() + QStringLiteral("/nvidia-smi.py")); !r)
            return r;
        const QByteArray shim = "#!/bin/sh\n# Gantry simulated GPU (sandbox): a stand-in for nvidia-smi; there is no real GPU.\n"
                                "if ! command -v python3 >/dev/null 2>&1; then\n"
                                "  echo \"NVIDIA-SMI has failed because the Gantry simulated GPU needs python3 on this machine.\"; exit 9\n"
                                "fi\nexec python3 -S \"${0%/*}/nvidia-smi.py\" \"$@\"\n";
        if (Result<void> r = write(binDir() + QStringLiteral("/nvidia-smi"), shim, true); !r)
            return r;
        // The marker Gantry's facts, Doctor and Verify look for next to nvidia-smi.
        const QString uuid = QStringLiteral("GPU-%1-%2-4%3-8%4-%5")
                                 .arg(m_id.mid(0, 8), m_id.mid(8, 4), m_id.mid(12, 3), m_id.mid(15, 3), m_id.mid(18, 12));
        if (Result<void> r = write(binDir() + QStringLiteral("/gantry-simulated-gpu"),
                                   QStringLiteral("profile=%1\nuuid=%2\n").arg(gpuProfileName(profile), uuid).toUtf8());
            !r)
            return r;
    }
    if (Result<void> r = write(m_dir + QStringLiteral("/env.sh"), env.toUtf8()); !r)
        return r;
    const QByteArray source = ". " + shQuote(m_dir + QStringLiteral("/env.sh")).toLocal8Bit() + "\n";
    for (const char *dotfile : {"/.profile", "/.bashrc", "/.zshenv"}) {
        if (!QFileInfo::exists(home() + QLatin1StringView(dotfile))) {
            if (Result<void> r = write(home() + QLatin1StringView(dotfile), source); !r)
                return r;
        }
    }
    const QString login = QStringLiteral(
        "#!/bin/sh\n# sshd's ForceCommand: shells, commands and SFTP of this instance start in its own home.\n"
        ". %1\ncd \"$HOME\" || exit 1\n"
        "if [ -z \"${SSH_ORIGINAL_COMMAND+set}\" ]; then exec \"${SHELL:-/bin/sh}\" -l; fi\n"
        "exec \"${SHELL:-/bin/sh}\" -c \"$SSH_ORIGINAL_COMMAND\"\n").arg(shQuote(m_dir + QStringLiteral("/env.sh")));
    if (Result<void> r = write(m_dir + QStringLiteral("/login"), login.toUtf8(), true); !r)
        return r;
    return write(m_dir + QStringLiteral("/sftp"), QStringLiteral("#!/bin/sh\nexec %1 -d \"$HOME\"\n").arg(shQuote(sftpServer)).toUtf8(), true);
}

QString InstanceHome::sshdConfig() const
{
    return QStringLiteral("ForceCommand %1/login\nSubsystem sftp %1/sftp\n").arg(m_dir);
}

void InstanceHome::stopSessions() const
{
    QProcess tmux;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TMUX_TMPDIR"), tmuxDir());
    env.remove(QStringLiteral("TMUX"));
    tmux.setProcessEnvironment(env);
    tmux.start(QStringLiteral("tmux"), {QStringLiteral("kill-server")});
    if (tmux.waitForStarted(2000))
        tmux.waitForFinished(5000);
    if (!tmuxDir().startsWith(m_dir))
        QDir(tmuxDir()).removeRecursively();
}

namespace {

// The processes of this user whose environment carries `entry` ("NAME=value"), this one excepted.
QList<pid_t> processesWith(const QByteArray &entry)
{
    QList<pid_t> found;
    const pid_t self = getpid();
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &name : pids) {
        bool number = false;
        const pid_t pid = pid_t(name.toInt(&number));
        if (!number || pid == self)
            continue;
        QFile environ(QStringLiteral("/proc/%1/environ").arg(pid));
        if (!environ.open(QIODevice::ReadOnly)) // another user's, or gone meanwhile
            continue;
        const QList<QByteArray> vars = environ.readAll().split('\0');
        if (vars.contains(entry))
            found << pid;
    }
    return found;
}

} // namespace

void InstanceHome::endProcesses(int graceMs) const
{
    const QByteArray entry = QByteArray(kInstanceMarker) + '=' + m_id.toLocal8Bit();
    QElapsedTimer elapsed;
    elapsed.start();
    // SIGTERM first (a server closes its socket, a training loop may save), SIGKILL after the grace;
    // listed again each round, since a process may fork while it is being ended.
    for (;;) {
        const QList<pid_t> left = processesWith(entry);
        if (left.isEmpty())
            return;
        const bool late = elapsed.elapsed() >= graceMs;
        if (late && elapsed.elapsed() >= graceMs + 5000)
            return; // a process in uninterruptible sleep: nothing more to do from here
        for (pid_t pid : left)
            ::kill(pid, late ? SIGKILL : SIGTERM);
        QThread::msleep(50);
    }
}

QString findSftpServer(const QString &sshdPath)
{
    const QString prefix = QFileInfo(QFileInfo(sshdPath).absolutePath()).absolutePath(); // /usr of /usr/sbin/sshd
    const QStringList candidates{prefix + QStringLiteral("/lib/openssh/sftp-server"),
                                 prefix + QStringLiteral("/libexec/openssh/sftp-server"),
                                 prefix + QStringLiteral("/lib/ssh/sftp-server"),
                                 prefix + QStringLiteral("/libexec/sftp-server"),
                                 QStringLiteral("/usr/lib/openssh/sftp-server"),
                                 QStringLiteral("/usr/libexec/openssh/sftp-server"),
                                 QStringLiteral("/usr/lib/ssh/sftp-server")};
    for (const QString &candidate : candidates) {
        if (QFileInfo(candidate).isExecutable())
            return candidate;
    }
    return {};
}

} // namespace gantry::providers::sandbox
