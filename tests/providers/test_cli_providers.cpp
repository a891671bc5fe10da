#include "clirun.h"
#include "sshdfixture.h"
// gantry-cli provider commands end to end against gantry-provider-emulator and the sandbox.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Run = gantry::test::CliRun;

} // namespace

class TestCliProviders final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QProcess m_emulator;
    QString m_url;

    Run cli(const QStringList &args, const QString &key = QStringLiteral("test-key"), const QString &endpoint = {})
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GANTRY_LAMBDA_API_KEY"), key);
        env.insert(QStringLiteral("GANTRY_LAMBDA_ENDPOINT"), endpoint.isEmpty() ? m_url : endpoint);
        env.insert(QStringLiteral("GANTRY_SANDBOX_BOOT_MS"), QStringLiteral("200"));
        env.remove(QStringLiteral("GANTRY_RUNPOD_API_KEY"));
        env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS")); // no keychain prompts in tests
        return gantry::test::runProgram(QStringLiteral(GANTRY_CLI_PATH), gantry::test::cliArguments(m_dir.path(), args), env);
    }

private slots:
    void initTestCase()
    {
        m_emulator.start(QStringLiteral(GANTRY_EMULATOR_PATH),
                         {QStringLiteral("--provider"), QStringLiteral("lambda"), QStringLiteral("--boot-ms"), QStringLiteral("300")});
        QVERIFY(m_emulator.waitForReadyRead(20000));
        const QByteArray line = m_emulator.readLine().trimmed();
        QVERIFY2(line.startsWith("listening on "), line.constData());
        m_url = QString::fromLatin1(line.mid(int(qstrlen("listening on "))));
    }

    void cleanupTestCase()
    {
        m_emulator.kill();
        m_emulator.waitForFinished();
    }

    // No keyring on this desktop (no session bus here): provider-key set says so at once with the
    // next step, and stores the key in a private file only with --store file.
    void providerKeyWithoutAKeyring()
    {
        QTemporaryDir dir;
        auto setKey = [&dir](const QStringList &extra) {
            gantry::test::RunOptions options;
            options.env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("unix:path=/nonexistent/gantry-test-bus"));
            options.env.remove(QStringLiteral("GANTRY_LAMBDA_API_KEY"));
            options.input = QByteArray("typed-key\n");
            options.timeoutMs = 30000;
            return gantry::test::runCli(dir.path(), QStringList{QStringLiteral("provider-key"), QStringLiteral("set"), QStringLiteral("lambda")} + extra,
                                        options);
        };
        const Run refused = setKey({});
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.contains("No keyring found on this desktop") && refused.err.contains("--store file"), refused.err.constData());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("secrets.json"))));
        const Run stored = setKey({QStringLiteral("--store"), QStringLiteral("file")});
        QVERIFY2(stored.code == 0, stored.err.constData());
        QVERIFY2(stored.out.contains("readable only by you"), stored.out.constData());
        QCOMPARE(QFile::permissions(dir.filePath(QStringLiteral("secrets.json"))), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser | QFileDevice::WriteUser);
        QVERIFY(!stored.out.contains("typed-key") && !stored.err.contains("typed-key"));
    }

    void typesFiltersAndJson()
    {
        Run all = cli({QStringLiteral("--json"), QStringLiteral("types"), QStringLiteral("--provider"), QStringLiteral("lambda")});
        QCOMPARE(all.code, 0);
        QCOMPARE(all.json().value(QLatin1String("types")).toArray().size(), 4);
        Run cheap = cli({QStringLiteral("types"), QStringLiteral("--provider"), QStringLiteral("lambda"), QStringLiteral("--available"),
                         QStringLiteral("--min-vram"), QStringLiteral("20"), QStringLiteral("--max-price"), QStringLiteral("1"), QStringLiteral("--json")});
        QCOMPARE(cheap.code, 0);
        const QJsonArray types = cheap.json().value(QLatin1String("types")).toArray();
        QCOMPARE(types.size(), 1);
        QCOMPARE(types.first().toObject().value(QLatin1String("name")).toString(), QStringLiteral("gpu_1x_a10"));
        Run text = cli({QStringLiteral("types"), QStringLiteral("--provider"), QStringLiteral("lambda"), QStringLiteral("--gpu"), QStringLiteral("h100")});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.contains("gpu_1x_h100_sxm5"));
        QVERIFY(text.out.contains("3.29"));
    }

    void launchWaitTerminateCost()
    {
        Run launch = cli({QStringLiteral("--json"), QStringLiteral("launch"), QStringLiteral("--provider"), QStringLiteral("lambda"),
                          QStringLiteral("--type"), QStringLiteral("gpu_1x_a10"), QStringLiteral("--region"), QStringLiteral("us-east-1"),
                          QStringLiteral("--ssh-key"), QStringLiteral("laptop"), QStringLiteral("--name"), QStringLiteral("cli-box"),
                          QStringLiteral("--wait")});
        QVERIFY2(launch.code == 0, launch.err.constData());
        const QJsonObject up = launch.json();
        QCOMPARE(up.value(QLatin1String("state")).toString(), QStringLiteral("running"));
        QCOMPARE(up.value(QLatin1String("ssh_user")).toString(), QStringLiteral("ubuntu"));
        QCOMPARE(up.value(QLatin1String("host")).toString(), QStringLiteral("cli-box"));
        const QString id = up.value(QLatin1String("id")).toString();

        Run hosts = cli({QStringLiteral("--json"), QStringLiteral("hosts"), QStringLiteral("list")});
        QVERIFY(hosts.out.contains("cli-box"));

        Run instances = cli({QStringLiteral("--json"), QStringLiteral("instances"), QStringLiteral("--provider"), QStringLiteral("lambda")});
        QCOMPARE(instances.code, 0);
        QCOMPARE(instances.json().value(QLatin1String("instances")).toArray().size(), 1);

        Run refused = cli({QStringLiteral("terminate"), id});
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.err.contains("local disk"), refused.err.constData());
        QVERIFY(refused.err.contains("--yes"));

        Run terminated = cli({QStringLiteral("terminate"), id, QStringLiteral("--yes")}); // provider from the ledger
        QVERIFY2(terminated.code == 0, terminated.err.constData());

        Run cost = cli({QStringLiteral("--json"), QStringLiteral("cost"), QStringLiteral("--csv"), m_dir.filePath(QStringLiteral("cost.csv"))});
        QCOMPARE(cost.code, 0);
        const QJsonArray entries = cost.json().value(QLatin1String("entries")).toArray();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.first().toObject().value(QLatin1String("state")).toString(), QStringLiteral("terminated"));
        QCOMPARE(entries.first().toObject().value(QLatin1String("price_per_hour")).toDouble(), 0.75);
        QVERIFY(QFileInfo::exists(m_dir.filePath(QStringLiteral("cost.csv"))));
        QVERIFY(!cli({QStringLiteral("--json"), QStringLiteral("hosts"), QStringLiteral("list")}).out.contains("cli-box"));
    }

    // A provider that names an instance with terminal escapes (OSC retitle, BEL) gets them
    // printed as visible text, never sent raw to the terminal.
    void hostileInstanceNamePrintsEscaped()
    {
        const QString hostile = QStringLiteral("\x1b]0;pwned\x07");
        Run launch = cli({QStringLiteral("--json"), QStringLiteral("launch"), QStringLiteral("--provider"), QStringLiteral("lambda"),
                          QStringLiteral("--type"), QStringLiteral("gpu_1x_a10"), QStringLiteral("--region"), QStringLiteral("us-east-1"),
                          QStringLiteral("--ssh-key"), QStringLiteral("laptop"), QStringLiteral("--name"), hostile});
        QVERIFY2(launch.code == 0, launch.err.constData());
        const QString id = launch.json().value(QLatin1String("id")).toString();
        QVERIFY2(!id.isEmpty(), launch.out.constData());

        Run list = cli({QStringLiteral("instances"), QStringLiteral("--provider"), QStringLiteral("lambda")});
        QVERIFY2(list.code == 0, list.err.constData());
        QVERIFY2(list.out.contains("\\x1b]0;pwned\\x07"), list.out.constData());
        QVERIFY2(!list.out.contains('\x1b') && !list.out.contains('\x07'), "a raw ESC or BEL reached stdout");

        Run cost = cli({QStringLiteral("cost")});
        QVERIFY2(!cost.out.contains('\x1b') && !cost.out.contains('\x07'), "a raw ESC or BEL reached stdout of cost");

        Run terminated = cli({QStringLiteral("terminate"), id, QStringLiteral("--yes")});
        QVERIFY2(terminated.code == 0, terminated.err.constData());
        QVERIFY2(!terminated.out.contains('\x1b') && !terminated.err.contains('\x1b'), "a raw ESC reached the terminal");
    }

    void providerErrorsExitFive()
    {
        Run badKey = cli({QStringLiteral("types"), QStringLiteral("--provider"), QStringLiteral("lambda")}, QStringLiteral("wrong-key"));
        QCOMPARE(badKey.code, 5);
        QVERIFY2(badKey.err.contains("API key was invalid"), badKey.err.constData());
        QVERIFY(!badKey.err.contains("wrong-key"));

        Run noCapacity = cli({QStringLiteral("launch"), QStringLiteral("--provider"), QStringLiteral("lambda"), QStringLiteral("--type"),
                              QStringLiteral("gpu_8x_a100"), QStringLiteral("--region"), QStringLiteral("us-east-1"),
                              QStringLiteral("--ssh-key"), QStringLiteral("laptop")});
        QCOMPARE(noCapacity.code, 5);
        QVERIFY(noCapacity.err.contains("Not enough capacity"));

        Run down = cli({QStringLiteral("types"), QStringLiteral("--provider"), QStringLiteral("lambda")}, QStringLiteral("test-key"),
                       QStringLiteral("http://127.0.0.1:1"));
        QCOMPARE(down.code, 3);
        QVERIFY(down.err.contains("connection refused"));

        Run plain = cli({QStringLiteral("types"), QStringLiteral("--provider"), QStringLiteral("lambda"), QStringLiteral("--endpoint"),
                         QStringLiteral("http://api.example.com")});
        QCOMPARE(plain.code, 2);
        QVERIFY(plain.err.contains("unencrypted"));
    }

    void providersNeverShowKeys()
    {
        Run run = cli({QStringLiteral("--json"), QStringLiteral("providers")}, QStringLiteral("secret-123"));
        QCOMPARE(run.code, 0);
        QVERIFY(!run.out.contains("secret-123"));
        const QJsonArray providers = run.json().value(QLatin1String("providers")).toArray();
        QCOMPARE(providers.size(), 5); // lambda, runpod, vast, shadeform, sandbox
        QCOMPARE(providers.at(0).toObject().value(QLatin1String("key_source")).toString(), QStringLiteral("GANTRY_LAMBDA_API_KEY"));
        QVERIFY(providers.at(0).toObject().value(QLatin1String("default")).toBool());
    }

    void sandboxRoundTripAndKeys()
    {
        if (!QFileInfo::exists(QStringLiteral("/usr/sbin/sshd")))
            GANTRY_REQUIRE_SSHD(QStringLiteral("openssh-server is not installed"));
        Run keys = cli({QStringLiteral("--json"), QStringLiteral("keys"), QStringLiteral("list"), QStringLiteral("--provider"), QStringLiteral("sandbox")});
        QCOMPARE(keys.code, 0);
        QCOMPARE(keys.json().value(QLatin1String("keys")).toArray().first().toObject().value(QLatin1String("name")).toString(), QStringLiteral("gantry"));
        Run launch = cli({QStringLiteral("--json"), QStringLiteral("launch"), QStringLiteral("--provider"), QStringLiteral("sandbox"),
                          QStringLiteral("--type"), QStringLiteral("sandbox-cpu"), QStringLiteral("--name"), QStringLiteral("sbx"), QStringLiteral("--wait")});
        QVERIFY2(launch.code == 0, launch.err.constData());
        const QString id = launch.json().value(QLatin1String("id")).toString();
        QVERIFY(launch.json().value(QLatin1String("ssh_port")).toInt() > 0);
        Run stop = cli({QStringLiteral("stop"), id, QStringLiteral("--provider"), QStringLiteral("sandbox")});
        QCOMPARE(stop.code, 2); // sandbox, like Lambda, cannot stop
        Run terminated = cli({QStringLiteral("terminate"), id, QStringLiteral("--yes"), QStringLiteral("--provider"), QStringLiteral("sandbox")});
        QVERIFY2(terminated.code == 0, terminated.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliProviders)
#include "test_cli_providers.moc"
