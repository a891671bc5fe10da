#include "sshdfixture.h"
// The local sandbox: instances are real sshd processes on 127.0.0.1 that outlive the provider.
#include "core/providers/await.h"
#include "core/providers/gantrykey.h"
#include "core/providers/sandboxprovider.h"
#include "core/providers/sandboxproviderhome.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <signal.h>
#include <sys/stat.h>

#include <algorithm>

using namespace gantry;
using namespace gantry::providers;

namespace {

Result<Instance> waitRunning(Provider &provider, const QString &id)
{
    QElapsedTimer timer;
    timer.start();
    for (;;) {
        Result<Instance> instance = await<Instance>([&](auto done) { provider.getInstance(id, done); });
        if (!instance || instance->state == InstanceState::Running || timer.elapsed() > 15000)
            return instance;
        QTest::qWait(100);
    }
}

QStringList sshOptions(const QString &key)
{
    return {QStringLiteral("-i"), key, QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
            QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=no"),
            QStringLiteral("-o"), QStringLiteral("UserKnownHostsFile=/dev/null"),
            QStringLiteral("-o"), QStringLiteral("LogLevel=ERROR")};
}

// Runs one command on the instance with the OpenSSH client; its stdout (empty on failure).
QByteArray sshRun(const QString &key, const Instance &instance, const QString &command)
{
    QProcess ssh;
    ssh.start(QStringLiteral("ssh"), sshOptions(key) + QStringList{QStringLiteral("-p"), QString::number(instance.sshPort),
                                                                    instance.sshUser + QStringLiteral("@127.0.0.1"), command});
    if (!ssh.waitForFinished(20000))
        return {};
    if (ssh.exitCode() != 0)
        qWarning("ssh %s: exit %d: %s", qPrintable(command), ssh.exitCode(), ssh.readAllStandardError().constData());
    return ssh.readAllStandardOutput();
}

// A process that runs (a zombie has ended: only its parent has not collected it yet).
bool alive(pid_t pid)
{
    if (::kill(pid, 0) != 0)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const qsizetype paren = line.lastIndexOf(')');
    return paren < 0 || line.mid(paren + 2, 1) != "Z";
}

bool sshLogin(const QString &key, const Instance &instance)
{
    return sshRun(key, instance, QStringLiteral("echo sandbox-ok")).contains("sandbox-ok");
}

// Uploads local to the instance's SFTP starting folder under the same name, with the sftp client.
bool sftpPut(const QString &key, const Instance &instance, const QString &local, const QString &batchDir)
{
    const QString batch = batchDir + QStringLiteral("/batch");
    QFile file(batch);
    if (!file.open(QIODevice::WriteOnly) || file.write("put " + local.toLocal8Bit() + "\n") <= 0)
        return false;
    file.close();
    QProcess sftp;
    sftp.start(QStringLiteral("sftp"), sshOptions(key) + QStringList{QStringLiteral("-P"), QString::number(instance.sshPort),
                                                                      QStringLiteral("-b"), batch,
                                                                      instance.sshUser + QStringLiteral("@127.0.0.1")});
    if (!sftp.waitForFinished(20000) || sftp.exitCode() != 0) {
        qWarning("sftp: %s", sftp.readAllStandardError().constData());
        return false;
    }
    return true;
}

SandboxOptions quickBoot()
{
    SandboxOptions options;
    options.bootDelayMs = 100;
    return options;
}

Result<Instance> launchRunning(SandboxProvider &sandbox, const QString &type, const QString &name)
{
    LaunchRequest request;
    request.typeName = type;
    request.region = QStringLiteral("local");
    request.name = name;
    Result<QString> launched = await<QString>([&](auto done) { sandbox.launch(request, done); });
    if (!launched)
        return launched.error();
    return waitRunning(sandbox, *launched);
}

} // namespace

class TestSandbox final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists(QStringLiteral("/usr/sbin/sshd")))
            GANTRY_REQUIRE_SSHD(QStringLiteral("openssh-server is not installed"));
    }

    void typesAndKeys()
    {
        QTemporaryDir dir;
        SandboxProvider sandbox(dir.path());
        const auto types = await<QList<InstanceType>>([&](auto done) { sandbox.listInstanceTypes(done); });
        QVERIFY(types);
        QCOMPARE(types->size(), 6);
        // Each type has a spot variant: a third of its price, reclaimed by gantry-cli preempt.
        for (int i : {0, 1, 2}) {
            QVERIFY(!types->at(i).spot);
            QVERIFY(types->at(i + 3).spot);
            QVERIFY(SandboxProvider::isSpotType(types->at(i + 3).name));
            QVERIFY(types->at(i + 3).name.startsWith(types->at(i).name));
            QCOMPARE(types->at(i + 3).pricePerHour, types->at(i).pricePerHour * 0.35);
            QCOMPARE(SandboxProvider::gpuProfileOf(types->at(i + 3).name), SandboxProvider::gpuProfileOf(types->at(i).name));
        }
        QCOMPARE(types->at(0).name, QStringLiteral("sandbox-cpu"));
        QCOMPARE(types->at(0).pricePerHour, 0.0);
        QCOMPARE(types->at(0).gpuCount, 0);
        QVERIFY(types->at(0).description.contains(QStringLiteral("no GPU")));
        // Both GPU types say, wherever they are listed, that the GPU is simulated.
        for (int i : {1, 2}) {
            QVERIFY(types->at(i).description.contains(QStringLiteral("simulated GPU")));
            QVERIFY(types->at(i).note.contains(QStringLiteral("Simulated GPU")));
            QCOMPARE(types->at(i).gpuCount, 1);
        }
        QVERIFY(types->at(1).description.contains(QStringLiteral("idle")));
        QVERIFY(types->at(2).description.contains(QStringLiteral("training")));

        const auto keys = await<QList<SshKey>>([&](auto done) { sandbox.listSshKeys(done); });
        QVERIFY(keys);
        QCOMPARE(keys->size(), 1);
        QCOMPARE(keys->first().name, QStringLiteral("gantry"));
        const QString keyPath = gantryKeyPath(dir.path());
        QVERIFY(QFileInfo::exists(keyPath));
        QCOMPARE(QFileInfo(keyPath).permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions());

        const auto generated = await<SshKey>([&](auto done) { sandbox.addSshKey(QStringLiteral("gen"), QString(), done); });
        QVERIFY(generated);
        QVERIFY(generated->privateKey.contains(QStringLiteral("PRIVATE KEY")));
        const auto duplicate = await<SshKey>([&](auto done) { sandbox.addSshKey(QStringLiteral("gen"), QStringLiteral("ssh-ed25519 AAAA"), done); });
        QVERIFY(!duplicate);
        QVERIFY(await<void>([&](auto done) { sandbox.deleteSshKey(QStringLiteral("gen"), done); }));
        QCOMPARE(await<QList<SshKey>>([&](auto done) { sandbox.listSshKeys(done); })->size(), 1);
    }

    void launchConnectSurviveRestartTerminate()
    {
        QTemporaryDir dir;
        SandboxOptions options;
        options.bootDelayMs = 200;
        QString id;
        Instance first;
        {
            SandboxProvider sandbox(dir.path(), options);
            LaunchRequest bad;
            bad.typeName = QStringLiteral("sandbox-cpu");
            bad.region = QStringLiteral("us-east-1");
            Result<QString> noCapacity = await<QString>([&](auto done) { sandbox.launch(bad, done); });
            QVERIFY(!noCapacity);
            QVERIFY(noCapacity.error().message.contains(QStringLiteral("Not enough capacity")));
            bad.region = QStringLiteral("local");
            bad.sshKeyName = QStringLiteral("missing");
            QVERIFY(!await<QString>([&](auto done) { sandbox.launch(bad, done); }));

            LaunchRequest request;
            request.typeName = QStringLiteral("sandbox-cpu");
            request.region = QStringLiteral("local");
            request.name = QStringLiteral("box");
            Result<QString> launched = await<QString>([&](auto done) { sandbox.launch(request, done); });
            QVERIFY2(launched, launched ? "" : qPrintable(launched.error().message));
            id = *launched;
            Result<Instance> booting = await<Instance>([&](auto done) { sandbox.getInstance(id, done); });
            QVERIFY(booting);
            QCOMPARE(booting->state, InstanceState::Booting);
            QCOMPARE(booting->name, QStringLiteral("box"));

            Result<Instance> up = waitRunning(sandbox, id);
            QVERIFY2(up, up ? "" : qPrintable(up.error().message));
            QCOMPARE(up->state, InstanceState::Running);
            QCOMPARE(up->sshHost, QStringLiteral("127.0.0.1"));
            QVERIFY(up->sshPort > 0);
            first = *up;
            QVERIFY(sshLogin(gantryKeyPath(dir.path()), first));
        }
        // The provider is gone (app quit); sshd is still there. Then the machine "reboots".
        QTcpSocket probe;
        probe.connectToHost(QHostAddress::LocalHost, quint16(first.sshPort));
        QVERIFY(probe.waitForConnected(2000));
        probe.abort();
        QFile pidFile(dir.path() + QStringLiteral("/sandbox/instances/") + id + QStringLiteral("/sshd.pid"));
        QVERIFY(pidFile.open(QIODevice::ReadOnly));
        ::kill(pid_t(pidFile.readAll().trimmed().toInt()), SIGTERM);
        QTest::qWait(300);

        SandboxProvider again(dir.path(), options);
        Result<QList<Instance>> list = await<QList<Instance>>([&](auto done) { again.listInstances(done); });
        QVERIFY(list);
        QCOMPARE(list->size(), 1);
        QCOMPARE(list->first().state, InstanceState::Running);
        QVERIFY(sshLogin(gantryKeyPath(dir.path()), list->first()));

        QVERIFY(await<void>([&](auto done) { again.restart(id, done); }));
        QVERIFY(await<void>([&](auto done) { again.terminate(id, done); }));
        QVERIFY(!QFileInfo::exists(dir.path() + QStringLiteral("/sandbox/instances/") + id));
        Result<Instance> gone = await<Instance>([&](auto done) { again.getInstance(id, done); });
        QVERIFY(!gone);
        QVERIFY(gone.error().message.contains(QStringLiteral("does not exist")));
        QCOMPARE(await<QList<Instance>>([&](auto done) { again.listInstances(done); })->size(), 0);
    }

    // Two instances of one account on one machine: each has its own home (shells, commands, SFTP),
    // its own tmux server and, for GPU types, the simulated nvidia-smi; terminate removes the home.
    void instancesHaveHomesOfTheirOwn()
    {
        QTemporaryDir dir;
        SandboxProvider sandbox(dir.path(), quickBoot());
        const Result<Instance> a = launchRunning(sandbox, QStringLiteral("gpu_1x_sandbox"), QStringLiteral("a"));
        QVERIFY2(a, a ? "" : qPrintable(a.error().message));
        const Result<Instance> b = launchRunning(sandbox, QStringLiteral("gpu_1x_sandbox_training"), QStringLiteral("b"));
        QVERIFY2(b, b ? "" : qPrintable(b.error().message));
        const QString key = gantryKeyPath(dir.path());
        const QString homeA = QString::fromUtf8(sshRun(key, *a, QStringLiteral("echo $HOME; pwd")));
        const QString homeB = QString::fromUtf8(sshRun(key, *b, QStringLiteral("echo $HOME; pwd")));
        const QString instances = QFileInfo(dir.path()).canonicalFilePath() + QStringLiteral("/sandbox/instances/");
        QCOMPARE(homeA.split(QLatin1Char('\n')).value(0), homeA.split(QLatin1Char('\n')).value(1)); // starts there
        QVERIFY2(homeA.startsWith(instances) || homeA.startsWith(dir.path()), qPrintable(homeA));
        QVERIFY(homeA != homeB);

        // A job of the same name on each: jobs are tmux sessions, and each instance has its own server.
        const QString jobState = QStringLiteral("mkdir -p ~/.gantry/jobs/train && echo %1 > ~/.gantry/jobs/train/state && ");
        if (QFileInfo::exists(QStringLiteral("/usr/bin/tmux"))) {
            for (const Instance *instance : {&*a, &*b}) {
                sshRun(key, *instance, jobState.arg(instance->name)
                                           + QStringLiteral("tmux new-session -d -s gantry-train 'sleep 600'"));
                QCOMPARE(sshRun(key, *instance, QStringLiteral("tmux ls -F '#S'")).trimmed(), QByteArray("gantry-train"));
            }
        } else {
            for (const Instance *instance : {&*a, &*b})
                sshRun(key, *instance, jobState.arg(instance->name) + QStringLiteral("true"));
        }
        QCOMPARE(sshRun(key, *a, QStringLiteral("cat ~/.gantry/jobs/train/state")).trimmed(), QByteArray("a"));
        QCOMPARE(sshRun(key, *b, QStringLiteral("cat ~/.gantry/jobs/train/state")).trimmed(), QByteArray("b"));

        // The same file name uploaded over SFTP to each lands in that instance's home only.
        QTemporaryDir local;
        for (const Instance *instance : {&*a, &*b}) {
            QFile upload(local.filePath(QStringLiteral("data.txt")));
            QVERIFY(upload.open(QIODevice::WriteOnly));
            upload.write(instance->name.toUtf8());
            upload.close();
            QVERIFY(sftpPut(key, *instance, upload.fileName(), local.path()));
        }
        QCOMPARE(sshRun(key, *a, QStringLiteral("cat data.txt")), QByteArray("a"));
        QCOMPARE(sshRun(key, *b, QStringLiteral("cat data.txt")), QByteArray("b"));

        // The GPU types see the simulated H100 (in a login shell too, whose /etc/profile resets PATH);
        // the stand-in runs on python3, which install-deps.sh provides.
        if (!QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty()) {
            QVERIFY(sshRun(key, *a, QStringLiteral("nvidia-smi -L")).startsWith("GPU 0: NVIDIA H100 80GB HBM3"));
            QVERIFY(sshRun(key, *b, QStringLiteral("sh -lc 'nvidia-smi --query-compute-apps=pid --format=csv,noheader'"))
                        .trimmed() == "4194304");
            QCOMPARE(sshRun(key, *a, QStringLiteral("nvidia-smi --query-compute-apps=pid --format=csv,noheader")), QByteArray());
        }

        const QString homeDir = homeA.split(QLatin1Char('\n')).value(0);
        QVERIFY(QFileInfo(homeDir).isDir());
        QVERIFY(await<void>([&](auto done) { sandbox.terminate(a->id, done); }));
        QVERIFY(!QFileInfo::exists(homeDir));
        // b is untouched: its job and its file are still there.
        QCOMPARE(sshRun(key, *b, QStringLiteral("cat data.txt")), QByteArray("b"));
        if (QFileInfo::exists(QStringLiteral("/usr/bin/tmux")))
            QCOMPARE(sshRun(key, *b, QStringLiteral("tmux ls -F '#S'")).trimmed(), QByteArray("gantry-train"));
        QVERIFY(await<void>([&](auto done) { sandbox.terminate(b->id, done); }));
    }

    // Terminate ends everything the instance started, as a cloud machine going away would: a
    // server under nohup (the walkthrough's `python3 -m http.server`), a setsid daemon that left
    // the session, a tmux job that ignores SIGHUP. Another instance's processes stay.
    void terminateEndsEveryProcessOfTheInstance()
    {
        QTemporaryDir dir;
        SandboxProvider sandbox(dir.path(), quickBoot());
        const Result<Instance> a = launchRunning(sandbox, QStringLiteral("sandbox-cpu"), QStringLiteral("a"));
        QVERIFY2(a, a ? "" : qPrintable(a.error().message));
        const Result<Instance> b = launchRunning(sandbox, QStringLiteral("sandbox-cpu"), QStringLiteral("b"));
        QVERIFY2(b, b ? "" : qPrintable(b.error().message));
        const QString key = gantryKeyPath(dir.path());
        const bool python = !QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty();
        const QString server = python ? QStringLiteral("nohup python3 -m http.server 0 --bind 127.0.0.1") : QStringLiteral("nohup sleep 600");
        QList<pid_t> started;
        const QStringList commands{QString(server + QStringLiteral(" >/dev/null 2>&1 </dev/null & echo $!")),
                                   QStringLiteral("setsid sleep 600 >/dev/null 2>&1 </dev/null & echo $!")};
        for (const QString &command : commands) {
            const pid_t pid = pid_t(sshRun(key, *a, command).trimmed().toInt());
            QVERIFY2(pid > 0 && alive(pid), qPrintable(command));
            started << pid;
        }
        if (QFileInfo::exists(QStringLiteral("/usr/bin/tmux"))) {
            sshRun(key, *a, QStringLiteral("tmux new-session -d -s gantry-serve \"trap '' HUP; sleep 600\""));
            const pid_t pane = pid_t(sshRun(key, *a, QStringLiteral("tmux list-panes -t gantry-serve -F '#{pane_pid}'")).trimmed().toInt());
            QVERIFY(pane > 0 && alive(pane));
            started << pane;
        }
        const pid_t other = pid_t(sshRun(key, *b, QStringLiteral("nohup sleep 600 >/dev/null 2>&1 </dev/null & echo $!")).trimmed().toInt());
        QVERIFY(other > 0 && alive(other));

        QVERIFY(await<void>([&](auto done) { sandbox.terminate(a->id, done); }));
        // The terminate returns once they are ended; the deadline only bounds a slow machine.
        QDeadlineTimer deadline(10000);
        auto anyAlive = [&started] { return std::any_of(started.cbegin(), started.cend(), alive); };
        while (anyAlive() && !deadline.hasExpired())
            QTest::qWait(20);
        for (pid_t pid : std::as_const(started))
            QVERIFY2(!alive(pid), qPrintable(QStringLiteral("process %1 of the terminated instance is alive").arg(pid)));
        QVERIFY2(alive(other), "the other instance's process was ended too");
        QVERIFY(await<void>([&](auto done) { sandbox.terminate(b->id, done); }));
        QDeadlineTimer otherDeadline(10000);
        while (alive(other) && !otherDeadline.hasExpired())
            QTest::qWait(20);
        QVERIFY(!alive(other));
    }

    // The CPU type stays GPU-less: no stand-in on its PATH.
    // A config folder too deep for tmux's socket path puts the instance's tmux folder in /tmp
    // under a guessable name: a link planted there first is refused (naming the folder), and the
    // folder Gantry makes itself is private.
    void aPlantedTmuxFolderInTmpIsRefused()
    {
        QTemporaryDir base;
        const QString deep = base.filePath(QString(90, QLatin1Char('d')));
        const QString id = QStringLiteral("t%1abcdefghijklmnop").arg(QCoreApplication::applicationPid());
        const providers::sandbox::InstanceHome home(deep, id);
        const QString tmux = home.tmuxDir();
        QVERIFY2(tmux.startsWith(QStringLiteral("/tmp/")), qPrintable(tmux));
        QTemporaryDir elsewhere;
        QVERIFY(QFile::link(elsewhere.path(), tmux));
        auto removeTmux = qScopeGuard([&tmux] {
            QFile::remove(tmux);
            QDir(tmux).removeRecursively();
        });
        const QString sftp = QStringLiteral("/usr/lib/openssh/sftp-server");
        Result<void> planted = home.prepare(providers::sandbox::GpuProfile::None, sftp);
        QVERIFY(!planted);
        QVERIFY2(planted.error().message.contains(tmux), qPrintable(planted.error().message));
        QVERIFY(QFile::remove(tmux));
        QVERIFY2(home.prepare(providers::sandbox::GpuProfile::None, sftp), "a folder of its own is used");
        struct stat st {};
        QCOMPARE(::lstat(QFile::encodeName(tmux).constData(), &st), 0);
        QVERIFY(S_ISDIR(st.st_mode));
        QCOMPARE(int(st.st_mode & 0777), 0700);
    }

    void cpuTypeHasNoGpu()
    {
        QTemporaryDir dir;
        SandboxProvider sandbox(dir.path(), quickBoot());
        const Result<Instance> cpu = launchRunning(sandbox, QStringLiteral("sandbox-cpu"), QStringLiteral("cpu"));
        QVERIFY2(cpu, cpu ? "" : qPrintable(cpu.error().message));
        const QByteArray where = sshRun(gantryKeyPath(dir.path()), *cpu, QStringLiteral("command -v nvidia-smi; echo end"));
        QVERIFY(where.endsWith("end\n"));
        QVERIFY2(!where.contains("/sandbox/instances/"), where.constData());
        QVERIFY(await<void>([&](auto done) { sandbox.terminate(cpu->id, done); }));
    }
};

QTEST_GUILESS_MAIN(TestSandbox)
#include "test_sandbox.moc"
