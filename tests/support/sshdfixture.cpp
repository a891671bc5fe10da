#include "sshdfixture.h"

#include <QDir>
#include <QtTest>
#include <QRandomGenerator>
#include <QFileInfo>
#include <QElapsedTimer>
#include <QFile>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <unistd.h>

namespace gantry::test {

QByteArray runProgram(const QString &program, const QStringList &args, int timeoutMs)
{
    QProcess process;
    process.start(program, args);
    if (!process.waitForFinished(timeoutMs) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return {};
    return process.readAllStandardOutput();
}

bool writeScript(const QString &path, const QString &body)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    file.write(body.toUtf8());
    file.close();
    return file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup
                               | QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
}

void writeRandom(const QString &path, qint64 size, quint32 seed)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QRandomGenerator gen(seed);
    QByteArray block(1 << 20, Qt::Uninitialized);
    for (qint64 left = size; left > 0;) {
        gen.fillRange(reinterpret_cast<quint32 *>(block.data()), block.size() / 4);
        const qint64 n = std::min<qint64>(left, block.size());
        f.write(block.constData(), n);
        left -= n;
    }
}

SshdFixture::SshdFixture() = default;

bool SshdFixture::maySkipWithoutSshd()
{
    return !QFile::exists(QStringLiteral("/usr/sbin/sshd")) && qEnvironmentVariable("CI").isEmpty();
}

SshdFixture::~SshdFixture()
{
    stop();
}

int SshdFixture::freePort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost, 0);
    return server.serverPort();
}

QString SshdFixture::user() const
{
    ssh::Target t;
    return t.effectiveUser();
}

QString SshdFixture::clientKeyPath() const
{
    return dir() + QStringLiteral("/client_ed25519");
}

QString SshdFixture::knownHostsPath() const
{
    return dir() + QStringLiteral("/known_hosts");
}

QString SshdFixture::emptyKnownHostsPath() const
{
    const QString path = dir() + QStringLiteral("/known_hosts_empty_") + QString::number(QDateTime::currentMSecsSinceEpoch());
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    return path;
}

QString SshdFixture::hostKeyFingerprint() const
{
    const QByteArray out = runProgram(QStringLiteral("ssh-keygen"), {QStringLiteral("-lf"), dir() + QStringLiteral("/host_ed25519.pub")});
    const QList<QByteArray> parts = out.split(' ');
    return parts.size() > 1 ? QString::fromLatin1(parts[1]) : QString();
}

ssh::Target SshdFixture::target() const
{
    ssh::Target t;
    t.host = host();
    t.port = m_port;
    t.user = user();
    t.identityFiles = {clientKeyPath()};
    t.auth = ssh::AuthMethod::Key;
    return t;
}

ssh::ConnectOptions SshdFixture::connectOptions() const
{
    ssh::ConnectOptions options;
    options.knownHostsFile = knownHostsPath();
    options.connectTimeoutMs = 10000;
    return options;
}

QByteArray SshdFixture::log() const
{
    QFile f(dir() + QStringLiteral("/sshd.log"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void SshdFixture::rotateHostKey()
{
    QFile::remove(dir() + QStringLiteral("/host_ed25519"));
    QFile::remove(dir() + QStringLiteral("/host_ed25519.pub"));
    runProgram(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                              QStringLiteral("-N"), QString(), QStringLiteral("-f"),
                                              dir() + QStringLiteral("/host_ed25519")});
}

QString SshdFixture::writeConfig()
{
    QString config;
    config += QStringLiteral("Port %1\nListenAddress 127.0.0.1\n").arg(m_port);
    config += QStringLiteral("HostKey %1/host_ed25519\nPidFile %1/sshd.pid\nAuthorizedKeysFile %1/authorized_keys\n").arg(dir());
    config += QStringLiteral("UsePAM no\nStrictModes no\nPubkeyAuthentication yes\n");
    config += m_options.passwordAuth ? QStringLiteral("PasswordAuthentication yes\nKbdInteractiveAuthentication yes\nPermitRootLogin yes\n")
                                     : QStringLiteral("PasswordAuthentication no\nKbdInteractiveAuthentication no\n");
    // sshd refuses a second Subsystem line for sftp, so a replacement server is an option, not extraConfig.
    config += QStringLiteral("Subsystem sftp %1\n").arg(m_options.sftpServer.isEmpty() ? QStringLiteral("internal-sftp") : m_options.sftpServer);
    config += QStringLiteral("MaxSessions %1\nMaxStartups %2\nAllowTcpForwarding yes\n").arg(m_options.maxSessions).arg(m_options.maxStartups);
    config += m_options.debugLog ? QStringLiteral("LogLevel DEBUG%1\n").arg(m_options.debugLevel) : QStringLiteral("LogLevel ERROR\n");
    // A controlled PATH: the test's own programs, then the fixture's tools, then the system's.
    QString path = writeToolsDir() + QStringLiteral(":/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin");
    if (!m_options.binDir.isEmpty())
        path = m_options.binDir + QLatin1Char(':') + path;
    // SHLVL=1: bash then skips ~/.bashrc for ssh commands (a pyenv/conda init there costs seconds each).
    QString env = QStringLiteral("SHLVL=1 PATH=%1").arg(path);
    if (m_options.shellStartupMs > 0) {
        const QString startup = dir() + QStringLiteral("/shell-startup.sh");
        QFile s(startup);
        if (!s.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
        const QString sleep = QStringLiteral("sleep %1").arg(double(m_options.shellStartupMs) / 1000.0, 0, 'f', 3);
        s.write((m_options.sftpServerStartsAtOnce && !m_options.sftpServer.isEmpty()
                     ? QStringLiteral("case \"$BASH_EXECUTION_STRING\" in %1*) ;; *) %2 ;; esac\n")
                           .arg(m_options.sftpServer.section(QLatin1Char(' '), 0, 0), sleep)
                     : sleep + QLatin1Char('\n'))
                    .toUtf8());
        env += QStringLiteral(" BASH_ENV=") + startup;
    }
    config += QStringLiteral("SetEnv %1\n").arg(env);
    config += m_options.extraConfig + QLatin1Char('\n');
    if (!m_options.home.isEmpty())
        config += QStringLiteral("ForceCommand HOME=%1 exec bash -c \"$SSH_ORIGINAL_COMMAND\"\n").arg(m_options.home);
    const QString file = dir() + QStringLiteral("/sshd_config");
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(config.toUtf8());
    return file;
}

QString SshdFixture::writeToolsDir()
{
    const QString tools = dir() + QStringLiteral("/tools");
    QDir().mkpath(tools);
    const QString python = tools + QStringLiteral("/python3");
    QFile::remove(python);
    if (!m_options.systemPythonPackages && QFile::exists(QStringLiteral("/usr/bin/python3")))
        writeScript(python, QStringLiteral("#!/bin/sh\n# Standard library only: no site-packages of this machine.\n"
                                           "exec /usr/bin/python3 -S \"$@\"\n"));
    return tools;
}

QString SshdFixture::start(const Options &options)
{
    m_options = options;
    if (!QFile::exists(QStringLiteral("/usr/sbin/sshd")))
        return QStringLiteral("/usr/sbin/sshd not found: install openssh-server");
    if (!m_dir.isValid())
        return QStringLiteral("cannot create a temporary directory");
    if (geteuid() == 0)
        QDir().mkpath(QStringLiteral("/run/sshd"));
    const QString keygen = QStringLiteral("ssh-keygen");
    if (!QFile::exists(dir() + QStringLiteral("/host_ed25519")))
        rotateHostKey();
    if (!QFile::exists(clientKeyPath())) {
        runProgram(keygen, {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                            QString(), QStringLiteral("-C"), QStringLiteral("gantry-test"), QStringLiteral("-f"), clientKeyPath()});
        QFile::copy(clientKeyPath() + QStringLiteral(".pub"), dir() + QStringLiteral("/authorized_keys"));
    }
    QFile::setPermissions(dir() + QStringLiteral("/host_ed25519"), QFile::ReadOwner | QFile::WriteOwner);
    QFile::setPermissions(clientKeyPath(), QFile::ReadOwner | QFile::WriteOwner);
    if (m_port == 0)
        m_port = freePort();
    {
        QFile hostPub(dir() + QStringLiteral("/host_ed25519.pub"));
        QFile known(knownHostsPath());
        if (!hostPub.open(QIODevice::ReadOnly) || !known.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return QStringLiteral("cannot write the test known_hosts file");
        const QList<QByteArray> fields = hostPub.readAll().trimmed().split(' ');
        known.write("[127.0.0.1]:" + QByteArray::number(m_port) + ' ' + fields.value(0) + ' ' + fields.value(1) + '\n');
    }
    const QString config = writeConfig();
    if (config.isEmpty())
        return QStringLiteral("cannot write sshd_config");

    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    const QStringList logTo = m_options.debugLog ? QStringList{QStringLiteral("-E"), dir() + QStringLiteral("/sshd.log")}
                                                 : QStringList{QStringLiteral("-e")};
    m_process->start(QStringLiteral("/usr/sbin/sshd"), QStringList{QStringLiteral("-D")} + logTo + QStringList{QStringLiteral("-f"), config});
    if (!m_process->waitForStarted(5000))
        return QStringLiteral("sshd did not start: ") + m_process->errorString();

    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 10000) {
        if (m_process->state() != QProcess::Running)
            return QStringLiteral("sshd exited at once (exit code %1); see its stderr above").arg(m_process->exitCode());
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, static_cast<quint16>(m_port));
        if (socket.waitForConnected(200) && socket.waitForReadyRead(1000) && socket.readAll().startsWith("SSH-"))
            return {};
        QThread::msleep(50);
    }
    stop();
    return QStringLiteral("sshd did not answer on port %1 within 10 s").arg(m_port);
}

void SshdFixture::stop()
{
    if (!m_process)
        return;
    // Per-connection sshd processes are children of the listener and outlive it; end them first so a
    // stopped fixture really drops every open connection (as a crashed or restarted server would).
    QProcess::execute(QStringLiteral("pkill"), {QStringLiteral("-KILL"), QStringLiteral("-P"),
                                                QString::number(m_process->processId())});
    m_process->kill();
    m_process->waitForFinished(5000);
    m_process.reset();
}

QString SshdFixture::restart()
{
    stop();
    return start(m_options);
}

bool SshdFixture::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

} // namespace gantry::test
