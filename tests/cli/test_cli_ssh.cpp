#include "clirun.h"
#include "sshdfixture.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace gantry;

class TestCliSsh : public QObject
{
    Q_OBJECT

    using Run = test::CliRun;

    Run cli(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
    {
        test::RunOptions options;
        options.env = env;
        options.timeoutMs = 60000;
        return test::runCli(m_config.path(), args, options);
    }

    QStringList connectArgs() const
    {
        return {QStringLiteral("-i"), m_sshd.clientKeyPath(), QStringLiteral("--known-hosts"), m_sshd.knownHostsPath()};
    }

    QString spec() const { return QStringLiteral("%1@127.0.0.1:%2").arg(m_sshd.user()).arg(m_sshd.port()); }

private slots:
    void initTestCase() { QVERIFY(m_sshd.start().isEmpty()); }

    void execStreamsAndReturnsRemoteStatus()
    {
        const Run run = cli(QStringList{QStringLiteral("exec"), spec()} + connectArgs()
                            + QStringList{QStringLiteral("--"), QStringLiteral("echo out; echo err >&2; exit 42")});
        QCOMPARE(run.code, 42);
        QCOMPARE(run.out, QByteArray("out\n"));
        QCOMPARE(run.err, QByteArray("err\n"));
        // Several words are quoted one by one.
        const Run words = cli(QStringList{QStringLiteral("exec"), spec()} + connectArgs()
                              + QStringList{QStringLiteral("--"), QStringLiteral("printf"), QStringLiteral("%s|"), QStringLiteral("a b"), QStringLiteral("c")});
        QCOMPARE(words.code, 0);
        QCOMPARE(words.out, QByteArray("a b|c|"));
    }

    void savedHostsRoundTrip()
    {
        Run add = cli(QStringList{QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("local"), spec(),
                                  QStringLiteral("-i"), m_sshd.clientKeyPath(), QStringLiteral("--price"), QStringLiteral("1.25")});
        QCOMPARE(add.code, 0);
        Run list = cli({QStringLiteral("--json"), QStringLiteral("hosts"), QStringLiteral("list")});
        QCOMPARE(list.code, 0);
        const QJsonArray hosts = QJsonDocument::fromJson(list.out).object().value(QStringLiteral("hosts")).toArray();
        QCOMPARE(hosts.size(), 1);
        QCOMPARE(hosts[0].toObject().value(QStringLiteral("port")).toInt(), m_sshd.port());
        QCOMPARE(hosts[0].toObject().value(QStringLiteral("hourly_price_usd")).toDouble(), 1.25);
        Run exec = cli({QStringLiteral("exec"), QStringLiteral("local"), QStringLiteral("--known-hosts"), m_sshd.knownHostsPath(),
                        QStringLiteral("--"), QStringLiteral("echo saved")});
        QCOMPARE(exec.code, 0);
        QCOMPARE(exec.out, QByteArray("saved\n"));
        Run dup = cli(QStringList{QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("local"), spec()});
        QCOMPARE(dup.code, 1);
        QVERIFY(dup.err.contains("exists already"));
        QCOMPARE(cli({QStringLiteral("hosts"), QStringLiteral("remove"), QStringLiteral("local")}).code, 0);
        QCOMPARE(cli({QStringLiteral("hosts"), QStringLiteral("remove"), QStringLiteral("local")}).code, 1);
    }

    // AutoDL bills in yuan: the price keeps its currency, listed as ¥, never as dollars.
    void savedHostPricedInYuan()
    {
        Run add = cli(QStringList{QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("autodl"), spec(),
                                  QStringLiteral("--price"), QStringLiteral("2.5"), QStringLiteral("--currency"), QStringLiteral("cny")});
        QCOMPARE(add.code, 0);
        Run list = cli({QStringLiteral("--json"), QStringLiteral("hosts"), QStringLiteral("list")});
        const QJsonObject host = QJsonDocument::fromJson(list.out).object().value(QStringLiteral("hosts")).toArray().at(0).toObject();
        QCOMPARE(host.value(QStringLiteral("hourly_price")).toDouble(), 2.5);
        QCOMPARE(host.value(QStringLiteral("currency")).toString(), QStringLiteral("CNY"));
        QCOMPARE(host.value(QStringLiteral("hourly_price_usd")).toDouble(), 0.0);
        QVERIFY2(cli({QStringLiteral("hosts"), QStringLiteral("list")}).out.contains("¥2.50/h"), "listed in yuan");
        Run bad = cli(QStringList{QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("other"), spec(),
                                  QStringLiteral("--price"), QStringLiteral("2.5"), QStringLiteral("--currency"), QStringLiteral("yuan")});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("three letters"), bad.err.constData());
        QCOMPARE(cli({QStringLiteral("hosts"), QStringLiteral("remove"), QStringLiteral("autodl")}).code, 0);
    }

    void factsAsJson()
    {
        const Run run = cli(QStringList{QStringLiteral("facts"), spec(), QStringLiteral("--json")} + connectArgs());
        QCOMPARE(run.code, 0);
        const QJsonObject facts = QJsonDocument::fromJson(run.out).object();
        QVERIFY(facts.value(QStringLiteral("kernel")).toString().startsWith(QStringLiteral("Linux")));
        QVERIFY(facts.value(QStringLiteral("cpu_cores")).toInt() >= 1);
        QVERIFY(facts.value(QStringLiteral("mem_total_mib")).toDouble() > 0);
        QCOMPARE(facts.value(QStringLiteral("nvidia_smi_found")).toBool(), false);
        const QJsonArray problems = facts.value(QStringLiteral("problems")).toArray();
        QVERIFY(!problems.isEmpty());
        QVERIFY(problems[0].toObject().value(QStringLiteral("message")).toString().contains(QStringLiteral("no NVIDIA driver")));
        QVERIFY(!problems[0].toObject().value(QStringLiteral("fix")).toString().isEmpty());
    }

    void exitCodes()
    {
        // 4: unknown host key, not accepted; the fingerprint and the flag are named.
        const QString empty = m_sshd.emptyKnownHostsPath();
        Run unknown = cli({QStringLiteral("exec"), spec(), QStringLiteral("-i"), m_sshd.clientKeyPath(), QStringLiteral("--known-hosts"),
                           empty, QStringLiteral("--"), QStringLiteral("true")});
        QCOMPARE(unknown.code, 4);
        QVERIFY(unknown.err.contains(m_sshd.hostKeyFingerprint().toUtf8()));
        QCOMPARE(unknown.err.count('\n'), 1);
        Run accepted = cli({QStringLiteral("exec"), spec(), QStringLiteral("-i"), m_sshd.clientKeyPath(), QStringLiteral("--known-hosts"),
                            empty, QStringLiteral("--accept-new-host-key"), QStringLiteral("--"), QStringLiteral("true")});
        QCOMPARE(accepted.code, 0);
        // 3: nothing listens there.
        Run refused = cli({QStringLiteral("exec"), QStringLiteral("127.0.0.1:%1").arg(test::SshdFixture::freePort()),
                           QStringLiteral("--"), QStringLiteral("true")});
        QCOMPARE(refused.code, 3);
        // 3: wrong password from the environment, and the password never shows up in the message.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GANTRY_TEST_PW"), QStringLiteral("hunter2-secret"));
        env.remove(QStringLiteral("SSH_AUTH_SOCK"));
        Run wrong = cli({QStringLiteral("exec"), QStringLiteral("nobody-here@127.0.0.1:%1").arg(m_sshd.port()), QStringLiteral("--known-hosts"),
                         m_sshd.knownHostsPath(), QStringLiteral("--password-env"), QStringLiteral("GANTRY_TEST_PW"),
                         QStringLiteral("--"), QStringLiteral("true")}, env);
        QCOMPARE(wrong.code, 3);
        QVERIFY(!wrong.err.contains("hunter2"));
        // 2: usage.
        QCOMPARE(cli({QStringLiteral("exec")}).code, 2);
        QCOMPARE(cli({QStringLiteral("no-such-command")}).code, 2);
    }

    // Every command answers --help (and `help COMMAND`) with its own usage and exit 0; a --help
    // after "--" belongs to the remote command, not to gantry-cli.
    void everyCommandAnswersHelp()
    {
        const Run all = cli({QStringLiteral("--help")});
        QCOMPARE(all.code, 0);
        QStringList names;
        const QByteArray commands = all.out.mid(all.out.indexOf("\nCommands:\n"));
        for (const QByteArray &line : commands.split('\n')) {
            if (line.startsWith("  "))
                names << QString::fromUtf8(line.trimmed()).section(QLatin1Char(' '), 0, 0);
        }
        QVERIFY2(names.size() >= 30, qPrintable(names.join(QLatin1Char(' '))));
        for (const QString &name : std::as_const(names)) {
            const Run help = cli({name, QStringLiteral("--help")});
            QVERIFY2(help.code == 0, qPrintable(name + QLatin1Char(' ') + QString::fromUtf8(help.err)));
            QVERIFY2(help.out.startsWith(QByteArray("Usage: gantry-cli [--config-dir DIR] [--json] ").append(name.toUtf8())), help.out.constData());
            QCOMPARE(cli({QStringLiteral("help"), name}).out, help.out);
        }
        QCOMPARE(cli({QStringLiteral("help"), QStringLiteral("no-such-command")}).code, 2);
        const Run remote = cli({QStringLiteral("exec"), QStringLiteral("127.0.0.1:%1").arg(m_sshd.port()), QStringLiteral("--known-hosts"),
                                m_sshd.knownHostsPath(), QStringLiteral("-i"), m_sshd.clientKeyPath(), QStringLiteral("--"),
                                QStringLiteral("echo"), QStringLiteral("--help")});
        QVERIFY2(remote.code == 0, remote.err.constData());
        QCOMPARE(remote.out.trimmed(), QByteArray("--help"));
    }

    // issue 12 item 1: a newline in the address must not become a ProxyCommand in ~/.ssh/config.
    void hostileAddressIsRefused()
    {
        Run add = cli({QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("inj"),
                       QStringLiteral("root@1.2.3.4\nProxyCommand=touch${IFS}~/pwned")});
        QCOMPARE(add.code, 2);
        QVERIFY2(add.err.contains("is not a host name or IP address"), add.err.constData());
        QCOMPARE(add.err.count('\n'), 1); // the newline is shown escaped, not printed
        QVERIFY(!cli({QStringLiteral("--json"), QStringLiteral("hosts"), QStringLiteral("list")}).out.contains("inj"));
        QTemporaryDir home;
        const QString sshConfig = home.filePath(QStringLiteral("config"));
        QCOMPARE(cli({QStringLiteral("ssh-config"), QStringLiteral("sync"), QStringLiteral("--file"), sshConfig}).code, 0);
        QFile written(sshConfig);
        QVERIFY(!written.open(QIODevice::ReadOnly) || !written.readAll().contains("ProxyCommand"));
    }

    // issue 12 items 5 and 9: modes only on what Gantry creates; a first host key makes ~/.ssh 0700.
    void modesOnlyOnWhatGantryCreates()
    {
        QTemporaryDir dir;
        const QByteArray shared = QFile::encodeName(dir.filePath(QStringLiteral("shared")));
        QVERIFY(::mkdir(shared.constData(), 0755) == 0 && ::chmod(shared.constData(), 01777) == 0);
        auto modeOf = [](const QByteArray &path) {
            struct stat st {};
            return ::stat(path.constData(), &st) == 0 ? int(st.st_mode & 07777) : -1;
        };
        QCOMPARE(test::runCli(QString::fromUtf8(shared), {QStringLiteral("hosts"), QStringLiteral("list")}).code, 0);
        QCOMPARE(modeOf(shared), 01777);
        QCOMPARE(cli({QStringLiteral("ssh-config"), QStringLiteral("sync"), QStringLiteral("--file"),
                      QString::fromUtf8(shared) + QStringLiteral("/config")}).code, 0);
        QCOMPARE(modeOf(shared), 01777);

        const QString knownHosts = dir.filePath(QStringLiteral("home/.ssh/known_hosts"));
        Run accepted = cli({QStringLiteral("exec"), spec(), QStringLiteral("-i"), m_sshd.clientKeyPath(), QStringLiteral("--known-hosts"),
                            knownHosts, QStringLiteral("--accept-new-host-key"), QStringLiteral("--"), QStringLiteral("true")});
        QVERIFY2(accepted.code == 0, accepted.err.constData());
        QCOMPARE(modeOf(QFile::encodeName(dir.filePath(QStringLiteral("home/.ssh")))), 0700);
        QVERIFY(QFileInfo::exists(knownHosts));
    }

    void keygenWritesPrivateKey0600()
    {
        QTemporaryDir dir;
        const QString path = dir.path() + QStringLiteral("/sub/id_gantry");
        const Run run = cli({QStringLiteral("--json"), QStringLiteral("keygen"), path});
        QCOMPARE(run.code, 0);
        QCOMPARE(QFileInfo(path).permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther),
                 QFileDevice::Permissions());
        const QJsonObject json = QJsonDocument::fromJson(run.out).object();
        QVERIFY(json.value(QStringLiteral("public_key")).toString().startsWith(QStringLiteral("ssh-ed25519 ")));
        // The key is usable: ssh-keygen reads it and prints the same fingerprint.
        const QByteArray fp = test::runProgram(QStringLiteral("ssh-keygen"), {QStringLiteral("-lf"), path});
        QVERIFY(fp.contains(json.value(QStringLiteral("fingerprint")).toString().toUtf8()));
        QCOMPARE(cli({QStringLiteral("keygen"), path}).code, 1); // never overwrites
    }

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_config;
};

QTEST_GUILESS_MAIN(TestCliSsh)
#include "test_cli_ssh.moc"
