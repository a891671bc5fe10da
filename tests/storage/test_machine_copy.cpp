// SPDX-License-Identifier: Apache-2.0
// Machine to machine copies (`gantry-cli cp -r A:PATH B:DIR/`): straight between two sandbox
// instances with a one-time key that is gone afterwards, and through this computer where the
// source cannot reach the target — each checked by both ends' SHA-256.
#include "testfiles.h"
#include "clirun.h"
#include "sshdfixture.h"

#include "core/ssh/session.h"
#include "core/storage/machinetomachine.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using gantry::test::readAll;
using gantry::test::writeFile;

class TestMachineCopy final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_config;
    QTemporaryDir m_home;

    test::RunOptions options() const
    {
        test::RunOptions o;
        o.env.insert(QStringLiteral("HOME"), m_home.path());
        o.env.insert(QStringLiteral("GANTRY_SANDBOX_BOOT_MS"), QStringLiteral("50"));
        o.env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"));
        o.timeoutMs = 120000;
        return o;
    }

    // A sandbox instance up and saved: {id, host}.
    QPair<QString, QString> launch(const QString &name)
    {
        const test::CliRun launched = test::runCli(m_config.path(), {QStringLiteral("--json"), QStringLiteral("launch"), QStringLiteral("--provider"),
                                                                     QStringLiteral("sandbox"), QStringLiteral("--type"), QStringLiteral("gpu_1x_sandbox"),
                                                                     QStringLiteral("--name"), name, QStringLiteral("--wait")},
                                                   options());
        if (launched.code != 0)
            return {};
        const QJsonObject instance = launched.lines().value(0);
        return {instance.value(QStringLiteral("id")).toString(), instance.value(QStringLiteral("host")).toString()};
    }

    QString homeOf(const QString &id) const { return m_config.filePath(QStringLiteral("sandbox/instances/%1/home").arg(id)); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_config.isValid() && m_home.isValid());
        if (!QFile::exists(QStringLiteral("/usr/sbin/sshd")))
            QSKIP("the sandbox needs OpenSSH's sshd");
    }

    // Two sandbox instances: the source sends to the target itself; the target's authorized_keys
    // holds no trace of the copy's key afterwards, and nothing of the key is left on the source.
    void straightBetweenTwoMachines()
    {
        const QPair<QString, QString> a = launch(QStringLiteral("copy-src"));
        const QPair<QString, QString> b = launch(QStringLiteral("copy-dst"));
        QVERIFY(!a.first.isEmpty() && !b.first.isEmpty());
        auto cleanup = qScopeGuard([&] {
            for (const QString &id : {a.first, b.first})
                (void)test::runCli(m_config.path(), {QStringLiteral("terminate"), id, QStringLiteral("--provider"), QStringLiteral("sandbox"),
                                                     QStringLiteral("--yes"), QStringLiteral("--without-results")},
                                   options());
        });
        const QByteArray big = QByteArray(3 * 1024 * 1024, 'g') + "end";
        writeFile(homeOf(a.first) + QStringLiteral("/data/a.txt"), "alpha\n");
        writeFile(homeOf(a.first) + QStringLiteral("/data/sub dir/big.bin"), big);
        // The user's own key, in a file without a final newline and readable by all (as some images
        // write it): it stays, whole, on its own line, with its mode.
        const QString authorized = homeOf(b.first) + QStringLiteral("/.ssh/authorized_keys");
        writeFile(authorized, "ssh-ed25519 AAAAthe-users-own-key user@laptop");
        QFile::setPermissions(authorized, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
        const test::CliRun copied = test::runCli(m_config.path(), {QStringLiteral("--json"), QStringLiteral("cp"), QStringLiteral("-r"),
                                                                   a.second + QStringLiteral(":data"), b.second + QStringLiteral(":dest/")},
                                                 options());
        QVERIFY2(copied.code == 0, copied.err.constData());
        const QJsonObject done = copied.json();
        QVERIFY2(done.value(QStringLiteral("direct")).toBool(), copied.err.constData());
        QCOMPARE(done.value(QStringLiteral("files")).toInt(), 2);
        QCOMPARE(readAll(homeOf(b.first) + QStringLiteral("/dest/data/a.txt")), QByteArray("alpha\n"));
        QCOMPARE(readAll(homeOf(b.first) + QStringLiteral("/dest/data/sub dir/big.bin")), big);
        // The user's own key stays; the copy's is gone.
        QCOMPARE(readAll(authorized), QByteArray("ssh-ed25519 AAAAthe-users-own-key user@laptop\n"));
        QCOMPARE(QFile::permissions(authorized), QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther
                                                     | QFile::ReadUser | QFile::WriteUser);
        QVERIFY(!copied.out.contains("PRIVATE KEY") && !copied.err.contains("PRIVATE KEY"));
    }

    // An sshd that honours no ~/.ssh/authorized_keys (the fixture's keys live elsewhere): the source
    // cannot log in to the target, so the copy goes through this computer, says why, and arrives
    // checked; the line it added is removed all the same.
    void throughThisComputerWhenTheSourceCannotReachTheTarget()
    {
        QTemporaryDir remoteHome;
        test::SshdFixture sshd;
        test::SshdFixture::Options o;
        // Its commands run in a home of the test's own (sshd's SetEnv cannot change HOME), so the
        // copy's authorized_keys line never touches this machine's real one.
        o.home = remoteHome.path();
        GANTRY_REQUIRE_SSHD(sshd.start(o));
        ssh::Session source, target;
        QVERIFY(source.connect(sshd.target(), sshd.connectOptions()));
        QVERIFY(target.connect(sshd.target(), sshd.connectOptions()));
        writeFile(remoteHome.filePath(QStringLiteral("from/run/weights.bin")), QByteArray(512 * 1024, 'w'));
        writeFile(remoteHome.filePath(QStringLiteral("from/run/log.txt")), "step 1\n");
        Result<int> counted = storage::machineFileCount(source, remoteHome.filePath(QStringLiteral("from/run")), {});
        QVERIFY(counted);
        QCOMPARE(*counted, 2);
        std::atomic<int> landed{0}; // the progress: files the target's tar names as they land
        Result<storage::MachineCopyOutcome> done = storage::copyBetweenMachines(
            source, target, sshd.target(), storage::MachineToMachine{remoteHome.filePath(QStringLiteral("from/run")), remoteHome.filePath(QStringLiteral("to"))}, {},
            &landed);
        QVERIFY2(done, qPrintable(done ? QString() : done.error().message));
        QCOMPARE(landed.load(), 2);
        QVERIFY(!done->direct);
        QVERIFY(!done->note.isEmpty());
        QCOMPARE(done->files, 2);
        QCOMPARE(readAll(remoteHome.filePath(QStringLiteral("to/run/weights.bin"))), QByteArray(512 * 1024, 'w'));
        QVERIFY(QFile::exists(remoteHome.filePath(QStringLiteral(".ssh/authorized_keys")))); // the line went there, then went
        QVERIFY(!readAll(remoteHome.filePath(QStringLiteral(".ssh/authorized_keys"))).contains("gantry-copy-"));
        QVERIFY2(done->note.contains(QLatin1String("Permission denied")), qPrintable(done->note));
    }
};

QTEST_GUILESS_MAIN(TestMachineCopy)
#include "test_machine_copy.moc"
