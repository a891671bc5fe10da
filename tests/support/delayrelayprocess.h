// SPDX-License-Identifier: Apache-2.0
#pragma once

// gantry-delayrelay (tests/support/delayrelay) as a child process: a TCP relay that holds every
// byte for --delay-ms each way, the long link the kernel here cannot emulate (no netem). Its
// path comes from GANTRY_RELAY_PATH, which a target that uses this header defines.

#include <QByteArray>
#include <QFile>
#include <QString>

#include <csignal>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace gantry::test {

class DelayRelay
{
public:
    DelayRelay() = default;
    DelayRelay(const DelayRelay &) = delete;
    DelayRelay &operator=(const DelayRelay &) = delete;
    ~DelayRelay() { stop(); }

    // Relays a new port to 127.0.0.1:target with delayMs each way; its port file and its stderr
    // (the byte counts) go into dir. False when it did not start within two seconds.
    bool start(int target, int delayMs, const QString &dir)
    {
        const QString portFile = dir + QStringLiteral("/relay-%1.port").arg(delayMs);
        QFile::remove(portFile);
        const QString errPath = dir + QStringLiteral("/relay-%1.err").arg(delayMs);
        QByteArray prog(GANTRY_RELAY_PATH);
        QByteArray t = QByteArray::number(target), d = QByteArray::number(delayMs), pf = portFile.toLocal8Bit();
        char a0[] = "--target", a1[] = "--delay-ms", a2[] = "--port-file";
        char *argv[] = {prog.data(), a0, t.data(), a1, d.data(), a2, pf.data(), nullptr};
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errPath.toLocal8Bit().constData(), O_WRONLY | O_CREAT | O_TRUNC,
                                         0644);
        const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        if (spawned != 0) return false;
        for (int i = 0; i < 100 && !QFile::exists(portFile); ++i) usleep(20000);
        QFile f(portFile);
        if (!f.open(QIODevice::ReadOnly)) return false;
        port = f.readAll().trimmed().toInt();
        m_errPath = errPath;
        return port > 0;
    }

    // Stops it; returns the bytes it carried client→server.
    quint64 stop()
    {
        if (pid <= 0) return 0;
        kill(pid, SIGTERM);
        int status = 0;
        waitpid(pid, &status, 0);
        pid = 0;
        QFile f(m_errPath);
        if (f.open(QIODevice::ReadOnly)) stats = f.readAll();
        const qsizetype at = stats.indexOf("up=");
        return at < 0 ? 0 : stats.mid(at + 3).split(' ').first().toULongLong();
    }

    pid_t pid = 0;
    int port = 0;
    QByteArray stats;

private:
    QString m_errPath;
};

} // namespace gantry::test
