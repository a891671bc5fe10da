#include "core/hosts/machinefacts.h"
#include "core/hosts/sshconfigimport.h"
#include "core/ssh/knownhosts.h"
#include "core/ssh/session.h"
#include "core/ssh/target.h"
#include "core/util/printable.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;

class TestHostsUnits : public QObject
{
    Q_OBJECT

private slots:
    void importsSshConfig()
    {
        QTemporaryDir dir;
        QFile included(dir.path() + QStringLiteral("/extra.conf"));
        QVERIFY(included.open(QIODevice::WriteOnly));
        included.write("Host runpod-a\n  HostName 194.68.245.10\n  Port 22078\n  User root\n");
        included.close();
        QFile config(dir.path() + QStringLiteral("/config"));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QStringLiteral("# my hosts\n"
                                    "Host *\n  ServerAliveInterval 30\n"
                                    "Host lambda-h100 h100\n  HostName 129.146.1.2\n  User ubuntu\n  IdentityFile ~/.ssh/lambda\n"
                                    "Host autodl\n  HostName connect.westb.seetacloud.com\n  Port=23456\n  User root\n"
                                    "Host behind\n  HostName 10.1.2.3\n  ProxyJump jump@bastion:2222\n"
                                    "Include %1/extra.conf\n")
                         .arg(dir.path())
                         .toUtf8());
        config.close();
        const QList<SavedHost> hosts = importSshConfig(config.fileName());
        QCOMPARE(hosts.size(), 5);
        QCOMPARE(hosts[0].name, QStringLiteral("lambda-h100"));
        QCOMPARE(hosts[0].target.host, QStringLiteral("129.146.1.2"));
        QCOMPARE(hosts[0].target.user, QStringLiteral("ubuntu"));
        QCOMPARE(hosts[0].target.identityFiles, QStringList{QDir::homePath() + QStringLiteral("/.ssh/lambda")});
        QCOMPARE(hosts[1].name, QStringLiteral("h100"));
        QCOMPARE(hosts[2].target.port, 23456);
        QCOMPARE(hosts[3].target.proxyJump, QStringLiteral("jump@bastion:2222"));
        QCOMPARE(hosts[4].name, QStringLiteral("runpod-a"));
        QCOMPARE(hosts[4].target.port, 22078);
        for (const SavedHost &h : hosts)
            QCOMPARE(h.source, QStringLiteral("ssh-config"));
    }

    // A config that includes itself 8 times used to take minutes (8^16 reads); now each file is read once.
    void includeLoopEndsAtOnce()
    {
        QTemporaryDir dir;
        QFile config(dir.filePath(QStringLiteral("config")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        QByteArray text = "Host loop\n  HostName 10.0.0.9\n";
        for (int i = 0; i < 8; ++i)
            text += "Include " + QFile::encodeName(config.fileName()) + '\n';
        config.write(text);
        config.close();
        QElapsedTimer timer;
        timer.start();
        QStringList warnings;
        const QList<SavedHost> hosts = importSshConfig(config.fileName(), &warnings);
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(hosts.size(), 1);
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings.first().contains(QStringLiteral("more than once")), qPrintable(warnings.first()));
        QVERIFY(warnings.first().contains(QStringLiteral("Remove the repeated Include")));
    }

    void importLeavesOutHostileValues()
    {
        QTemporaryDir dir;
        QFile config(dir.filePath(QStringLiteral("config")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("Host fine\n  HostName 10.0.0.1\n"
                     "Host spaced\n  HostName 10.0.0.2 ProxyCommand=touch /tmp/pwned\n"
                     "Host quoted\n  HostName 10.0.0.3\n  User \"ro\"ot\"\n");
        config.close();
        QStringList warnings;
        const QList<SavedHost> hosts = importSshConfig(config.fileName(), &warnings);
        QCOMPARE(hosts.size(), 1);
        QCOMPARE(hosts.first().name, QStringLiteral("fine"));
        QCOMPARE(warnings.size(), 2);
        QVERIFY2(warnings.first().contains(QStringLiteral("spaced")), qPrintable(warnings.first()));
    }

    void targetsAreChecked_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<bool>("valid");
        QTest::newRow("plain") << "root@1.2.3.4:2222" << true;
        QTest::newRow("dns") << "ubuntu@gpu-1.example.com" << true;
        QTest::newRow("ipv6") << "[fe80::1]:22" << true;
        QTest::newRow("newline directive") << "root@1.2.3.4\nProxyCommand=touch${IFS}~/pwned" << false;
        QTest::newRow("space") << "1.2.3.4 -oProxyCommand=x" << false;
        QTest::newRow("quote") << "\"1.2.3.4" << false;
        QTest::newRow("option") << "-oProxyCommand=x" << false;
        QTest::newRow("user with space") << "ro ot@1.2.3.4" << false;
        QTest::newRow("user with newline") << "root\nX@1.2.3.4" << false;
        QTest::newRow("escape") << "1.2.3.4\x1b]0;owned\x07" << false;
    }

    void targetsAreChecked()
    {
        QFETCH(QString, spec);
        QFETCH(bool, valid);
        ssh::Target target;
        QString error;
        QCOMPARE(ssh::parseTargetSpec(spec, &target, &error), valid);
        if (!valid) {
            // The message shows the bad character escaped and says what to do.
            QVERIFY2(!error.contains(u'\n') && !error.contains(u'\x1b'), qPrintable(error));
            QVERIFY2(error.contains(QStringLiteral("give the")), qPrintable(error));
        }
    }

    void keyPathsAndProxyJumpAreChecked()
    {
        ssh::Target target;
        target.host = QStringLiteral("10.0.0.1");
        target.identityFiles = {QStringLiteral("/home/me/my key")};
        QVERIFY(ssh::checkTarget(target));
        target.identityFiles = {QStringLiteral("/home/me/key\nProxyCommand x")};
        QVERIFY(!ssh::checkTarget(target));
        target.identityFiles.clear();
        target.proxyJump = QStringLiteral("jump@bastion\nProxyCommand x");
        QVERIFY(!ssh::checkTarget(target));
        target.proxyJump = QStringLiteral("jump@bastion:2222");
        QVERIFY(ssh::checkTarget(target));
    }

    // A hosts.json written before these checks: the session refuses the host before libssh sees it
    // (libssh 0.10.5 and older paste %h unquoted into the ProxyJump command).
    void sessionRefusesAHostileHost()
    {
        ssh::Target target;
        target.host = QStringLiteral("127.0.0.1;touch${IFS}/tmp/pwned");
        target.proxyJump = QStringLiteral("jump@127.0.0.1:1");
        ssh::Session session;
        Result<void> connected = session.connect(target, {});
        QVERIFY(!connected);
        QCOMPARE(connected.error().code, ErrorCode::Usage);
        QVERIFY2(connected.error().message.contains(QStringLiteral("not a host name")), qPrintable(connected.error().message));
    }

    void printableEscapesTerminalControls()
    {
        QCOMPARE(text::printable(QStringLiteral("a\x1b]0;x\x07" "b")), QStringLiteral("a\\x1b]0;x\\x07b"));
        QCOMPARE(text::printable(QStringLiteral("evil\u202Etxt.exe")), QStringLiteral("evil\\u202etxt.exe"));
        QCOMPARE(text::printable(QStringLiteral("ok \U0001F600 é")), QStringLiteral("ok \U0001F600 é"));
        QCOMPARE(text::printable(QStringLiteral("a\nb")), QStringLiteral("a\\x0ab"));
        QCOMPARE(text::printableLines(QStringLiteral("a\nb\x1b[2J")), QStringLiteral("a\nb\\x1b[2J"));
        QVERIFY(text::isPrintable(QStringLiteral("data-01.bin")));
    }

    void parsesFactsOfAGpuMachine()
    {
        const QByteArray out = "@@os\nUbuntu 22.04.3 LTS\n@@kernel\nLinux 5.15.0 x86_64\n@@cpu\n Intel(R) Xeon(R) Platinum 8480+\n208\n"
                               "@@mem\nMemTotal: 1979000000 kB\nMemAvailable: 1900000000 kB\n@@disk\n/dev/sda1 25000000000 1000 24000000000 1% /home\n"
                               "@@gpus\n0, NVIDIA H100 80GB HBM3, GPU-aaa, 81559, 535.161.08\n1, NVIDIA H100 80GB HBM3, GPU-bbb, 81559, 535.161.08\n"
                               "@@smi\n| NVIDIA-SMI 535.161.08             Driver Version: 535.161.08   CUDA Version: 12.2     |\n"
                               "@@python\n3.10.12\n@@torch\n2.2.1+cu121\n12.1\nTrue\n2\n@@end\n";
        const MachineFacts facts = parseMachineFacts(out);
        QCOMPARE(facts.gpus.size(), 2);
        QCOMPARE(facts.gpus[1].uuid, QStringLiteral("GPU-bbb"));
        QCOMPARE(facts.driverVersion, QStringLiteral("535.161.08"));
        QCOMPARE(facts.cudaVersion, QStringLiteral("12.2"));
        QCOMPARE(facts.cpuCores, 208);
        QCOMPARE(facts.torchCudaAvailable, std::optional<bool>(true));
        QVERIFY(facts.problems.isEmpty());
    }

    void driverMismatchIsAProblemWithAFix()
    {
        // Recorded verbatim output of a machine whose driver was upgraded without a reboot.
        QFile fixture(QStringLiteral(GANTRY_FIXTURES_DIR "/nvidia-smi/err-nvml-mismatch-driver470-popos18.txt"));
        QVERIFY2(fixture.open(QIODevice::ReadOnly), qPrintable(fixture.fileName() + QStringLiteral(" is missing")));
        QByteArray error;
        const QList<QByteArray> lines = fixture.readAll().split('\n');
        for (const QByteArray &line : lines) {
            if (line.contains("mismatch")) {
                error = line.trimmed();
                break;
            }
        }
        QVERIFY2(!error.isEmpty(), "the fixture has no version-mismatch line");
        const QByteArray out = "@@os\nPop!_OS 18.04\n@@gpus\n" + error + "\n@@smi\n" + error + "\n@@python\n@@torch\n@@end\n";
        const MachineFacts facts = parseMachineFacts(out);
        QVERIFY(facts.nvidiaSmiFound);
        QVERIFY(facts.gpus.isEmpty());
        QVERIFY(facts.nvidiaSmiError.contains(QStringLiteral("mismatch")));
        QCOMPARE(facts.problems.size(), 1);
        QVERIFY(facts.problems[0].fix.contains(QStringLiteral("reboot")));
    }

    void knownHostsFindsHashedEntries()
    {
        QTemporaryDir dir;
        const QString file = dir.path() + QStringLiteral("/known_hosts");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("example.org ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n");
        f.close();
        QProcess::execute(QStringLiteral("ssh-keygen"), {QStringLiteral("-H"), QStringLiteral("-f"), file});
        const ssh::KnownHostEntry entry = ssh::findKnownHost(file, QStringLiteral("example.org"), 22);
        QCOMPARE(entry.line, 1);
        QCOMPARE(entry.keyType, QStringLiteral("ssh-ed25519"));
        QVERIFY(entry.fingerprint.startsWith(QStringLiteral("SHA256:")));
        QCOMPARE(ssh::findKnownHost(file, QStringLiteral("other.org"), 22).line, 0);
    }
};

QTEST_GUILESS_MAIN(TestHostsUnits)
#include "test_hosts_units.moc"
