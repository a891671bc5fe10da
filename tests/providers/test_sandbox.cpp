#include "sshdfixture.h"
// The local sandbox: instances are real sshd processes on 127.0.0.1 that outlive the provider.
#include "providers/await.h"
#include "providers/gantrykey.h"
#include "providers/sandboxprovider.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <signal.h>

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

bool sshLogin(const QString &key, const Instance &instance)
{
    QProcess ssh;
    ssh.start(QStringLiteral("ssh"), {QStringLiteral("-i"), key, QStringLiteral("-p"), QString::number(instance.sshPort),
                                      QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
                                      QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=no"),
                                      QStringLiteral("-o"), QStringLiteral("UserKnownHostsFile=/dev/null"),
                                      QStringLiteral("-o"), QStringLiteral("LogLevel=ERROR"),
                                      instance.sshUser + QStringLiteral("@127.0.0.1"), QStringLiteral("echo sandbox-ok")});
    if (!ssh.waitForFinished(20000))
        return false;
    const QByteArray out = ssh.readAllStandardOutput();
    if (!out.contains("sandbox-ok"))
        qWarning("ssh failed: %s", ssh.readAllStandardError().constData());
    return out.contains("sandbox-ok");
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
        QCOMPARE(types->size(), 2);
        QCOMPARE(types->at(0).name, QStringLiteral("sandbox-cpu"));
        QCOMPARE(types->at(0).pricePerHour, 0.0);
        QVERIFY(types->at(1).note.contains(QStringLiteral("no GPU")));

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
};

QTEST_GUILESS_MAIN(TestSandbox)
#include "test_sandbox.moc"
