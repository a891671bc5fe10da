// gantry-cli with Vast.ai and Shadeform: offers, launch by GPUxN, watch-capacity with auto-launch,
// end to end against gantry-provider-emulator processes.
#include "clirun.h"

#include "core/ssh/keygen.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QDir>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Run = gantry::test::CliRun;

QString startEmulator(QProcess &process, const QStringList &args)
{
    process.start(QStringLiteral(GANTRY_EMULATOR_PATH), args);
    if (!process.waitForReadyRead(20000))
        return {};
    const QByteArray line = process.readLine().trimmed();
    return line.startsWith("listening on ") ? QString::fromLatin1(line.mid(int(qstrlen("listening on ")))) : QString();
}

} // namespace

class TestCliMarket final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_keyDir;
    QTemporaryDir m_home; // the CLI's ~/.ssh: no key of the machine running the tests
    QProcess m_vast;
    QProcess m_shade;
    QString m_vastUrl;
    QString m_shadeUrl;

    Run cli(const QStringList &args, const QString &vastUrl = {})
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("GANTRY_VAST_API_KEY"), QStringLiteral("test-key"));
        env.insert(QStringLiteral("GANTRY_VAST_ENDPOINT"), vastUrl.isEmpty() ? m_vastUrl : vastUrl);
        env.insert(QStringLiteral("GANTRY_SHADEFORM_API_KEY"), QStringLiteral("test-key"));
        env.insert(QStringLiteral("GANTRY_SHADEFORM_ENDPOINT"), m_shadeUrl);
        for (const char *name : {"GANTRY_LAMBDA_API_KEY", "GANTRY_RUNPOD_API_KEY", "DBUS_SESSION_BUS_ADDRESS"})
            env.remove(QString::fromLatin1(name));
        return gantry::test::runProgram(QStringLiteral(GANTRY_CLI_PATH), gantry::test::cliArguments(m_dir.path(), args), env);
    }

private slots:
    void initTestCase()
    {
        m_vastUrl = startEmulator(m_vast, {QStringLiteral("--provider"), QStringLiteral("vast"), QStringLiteral("--boot-ms"),
                                           QStringLiteral("300"), QStringLiteral("--config"), QStringLiteral("{\"hiddenSearches\": 3}")});
        QVERIFY(!m_vastUrl.isEmpty());
        m_shadeUrl = startEmulator(m_shade, {QStringLiteral("--provider"), QStringLiteral("shadeform"), QStringLiteral("--boot-ms"),
                                             QStringLiteral("300")});
        QVERIFY(!m_shadeUrl.isEmpty());
        QFile key(m_keyDir.filePath(QStringLiteral("laptop.pub")));
        QVERIFY(key.open(QIODevice::WriteOnly));
        key.write("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG laptop\n");
    }

    void cleanupTestCase()
    {
        for (QProcess *process : {&m_vast, &m_shade}) {
            process->kill();
            process->waitForFinished();
        }
    }

    void watchThenLaunchOnVast()
    {
        Run key = cli({QStringLiteral("keys"), QStringLiteral("add"), QStringLiteral("--provider"), QStringLiteral("vast"),
                       QStringLiteral("laptop"), m_keyDir.filePath(QStringLiteral("laptop.pub"))});
        QVERIFY2(key.code == 0, key.err.constData());
        // The H100 offers appear on the fourth search; the watcher launches the cheapest H100 SXM.
        Run watch = cli({QStringLiteral("--json"), QStringLiteral("watch-capacity"), QStringLiteral("--gpu"), QStringLiteral("H100 SXM"),
                         QStringLiteral("--count"), QStringLiteral("1"), QStringLiteral("--max-price"), QStringLiteral("3"),
                         QStringLiteral("--providers"), QStringLiteral("vast"), QStringLiteral("--poll"), QStringLiteral("0.2"),
                         QStringLiteral("--launch"), QStringLiteral("--ssh-key"), QStringLiteral("laptop"), QStringLiteral("--name"),
                         QStringLiteral("grab"), QStringLiteral("--timeout"), QStringLiteral("60")});
        QVERIFY2(watch.code == 0, watch.err.constData());
        QStringList events;
        for (const QJsonObject &line : watch.lines())
            events.append(line.value(QLatin1String("event")).toString());
        QVERIFY2(events.contains(QStringLiteral("match")) && events.contains(QStringLiteral("launched")), qPrintable(events.join(u',')));
        QCOMPARE(events.constLast(), QStringLiteral("running"));
        QCOMPARE(events.count(QStringLiteral("launched")), 1);
        for (const QJsonObject &line : watch.lines()) {
            if (line.value(QLatin1String("event")) == QJsonValue(QStringLiteral("launched"))) {
                QCOMPARE(line.value(QLatin1String("type")).toString(), QStringLiteral("4100302")); // the $1.95 SXM, not the PCIe
                QCOMPARE(line.value(QLatin1String("gpu_model")).toString(), QStringLiteral("H100 SXM"));
            }
        }
        QVERIFY(!watch.json().value(QLatin1String("host")).toString().isEmpty());
        Run hosts = cli({QStringLiteral("--json"), QStringLiteral("instances"), QStringLiteral("--provider"), QStringLiteral("vast")});
        QCOMPARE(hosts.code, 0);
        QVERIFY2(hosts.out.contains("grab"), hosts.out.constData());
    }

    void offersAndLaunchByGpu()
    {
        Run types = cli({QStringLiteral("--json"), QStringLiteral("types"), QStringLiteral("--provider"), QStringLiteral("vast")});
        QCOMPARE(types.code, 0);
        const QJsonArray offers = types.json().value(QLatin1String("types")).toArray();
        QVERIFY(offers.size() >= 5);
        for (const QJsonValue &offer : offers) {
            if (offer.toObject().value(QLatin1String("name")) == QJsonValue(QStringLiteral("4100201")))
                QCOMPARE(offer.toObject().value(QLatin1String("vram_gb")).toInt(), 24); // MB in the API
        }
        Run launch = cli({QStringLiteral("--json"), QStringLiteral("launch"), QStringLiteral("--provider"), QStringLiteral("vast"),
                          QStringLiteral("--type"), QStringLiteral("RTX 4090x1"), QStringLiteral("--region"), QStringLiteral("CA")});
        QVERIFY2(launch.code == 0, launch.err.constData());
        QCOMPARE(launch.json().value(QLatin1String("price_per_hour")).toDouble(), 0.29);
        Run none = cli({QStringLiteral("launch"), QStringLiteral("--provider"), QStringLiteral("vast"), QStringLiteral("--type"),
                        QStringLiteral("B200x8")});
        QCOMPARE(none.code, 5);
        QVERIFY2(none.err.contains("watch-capacity"), none.err.constData());
    }

    void shadeformTypesAndNoStop()
    {
        Run types = cli({QStringLiteral("--json"), QStringLiteral("types"), QStringLiteral("--provider"), QStringLiteral("shadeform")});
        QCOMPARE(types.code, 0);
        QVERIFY(types.out.contains("massedcompute/A6000"));
        Run key = cli({QStringLiteral("keys"), QStringLiteral("add"), QStringLiteral("--provider"), QStringLiteral("shadeform"),
                       QStringLiteral("laptop"), m_keyDir.filePath(QStringLiteral("laptop.pub"))});
        QVERIFY2(key.code == 0, key.err.constData());
        Run launch = cli({QStringLiteral("--json"), QStringLiteral("launch"), QStringLiteral("--provider"), QStringLiteral("shadeform"),
                          QStringLiteral("--type"), QStringLiteral("massedcompute/A6000"), QStringLiteral("--region"),
                          QStringLiteral("kansascity-usa-1"), QStringLiteral("--ssh-key"), QStringLiteral("laptop"), QStringLiteral("--wait")});
        QVERIFY2(launch.code == 0, launch.err.constData());
        QCOMPARE(launch.json().value(QLatin1String("ssh_port")).toInt(), 22);
        const QString id = launch.json().value(QLatin1String("id")).toString();
        Run stop = cli({QStringLiteral("stop"), QStringLiteral("--provider"), QStringLiteral("shadeform"), id});
        QVERIFY(stop.code != 0);
        QVERIFY2(stop.err.contains("cannot stop"), stop.err.constData());
        Run terminate = cli({QStringLiteral("terminate"), QStringLiteral("--provider"), QStringLiteral("shadeform"), id, QStringLiteral("--yes")});
        QVERIFY2(terminate.code == 0, terminate.err.constData());
    }

    // Shadeform needs a key: without --ssh-key the CLI takes the account key whose private half
    // is here (as the Launch dialog preselects it), refuses when there is none, and warns when the
    // named key's private half is elsewhere.
    void launchChoosesAKeyWithItsPrivateHalfHere()
    {
        const QString args = QStringLiteral("--json launch --provider shadeform --type massedcompute/A6000 --region kansascity-usa-1");
        Run refused = cli(args.split(u' '));
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.err.contains("none of Shadeform's SSH keys has its private half on this computer"), refused.err.constData());

        QVERIFY(QDir().mkpath(m_home.filePath(QStringLiteral(".ssh"))));
        QVERIFY(gantry::ssh::generateEd25519Key(m_home.filePath(QStringLiteral(".ssh/id_ed25519")), QStringLiteral("me")));
        Run added = cli({QStringLiteral("keys"), QStringLiteral("add"), QStringLiteral("--provider"), QStringLiteral("shadeform"),
                         QStringLiteral("mine"), m_home.filePath(QStringLiteral(".ssh/id_ed25519.pub"))});
        QVERIFY2(added.code == 0, added.err.constData());
        Run chosen = cli(args.split(u' '));
        QVERIFY2(chosen.code == 0, chosen.err.constData());
        QVERIFY2(chosen.err.contains("using SSH key \"mine\""), chosen.err.constData());

        Run named = cli(args.split(u' ') + QStringList{QStringLiteral("--ssh-key"), QStringLiteral("laptop")});
        QVERIFY2(named.code == 0, named.err.constData());
        QVERIFY2(named.err.contains("SSH key \"laptop\" has no private half on this computer"), named.err.constData());
        for (const Run &launched : {chosen, named}) {
            Run terminate = cli({QStringLiteral("terminate"), QStringLiteral("--provider"), QStringLiteral("shadeform"),
                                 launched.json().value(QLatin1String("id")).toString(), QStringLiteral("--yes")});
            QVERIFY2(terminate.code == 0, terminate.err.constData());
        }
    }

    // Someone rents the cheapest H100 SXM first: the error lists the equivalent offers (text and
    // --json), cheapest first, not the taken one; launching one of them works.
    void takenOfferListsTheEquivalentOnes()
    {
        QProcess raced;
        const QString url = startEmulator(raced, {QStringLiteral("--provider"), QStringLiteral("vast"), QStringLiteral("--config"),
                                                  QStringLiteral("{\"rentRaces\": 2, \"extraOffers\": [{\"id\": 4100305, \"gpu\": "
                                                                 "\"H100 SXM\", \"count\": 1, \"dph\": 2.10, \"where\": \"Bavaria, DE\"}]}")});
        QVERIFY(!url.isEmpty());
        const auto stop = qScopeGuard([&] {
            raced.kill();
            raced.waitForFinished();
        });
        Run key = cli({QStringLiteral("keys"), QStringLiteral("add"), QStringLiteral("--provider"), QStringLiteral("vast"),
                       QStringLiteral("mine"), m_keyDir.filePath(QStringLiteral("laptop.pub"))}, url);
        QVERIFY2(key.code == 0, key.err.constData());
        const QStringList launch{QStringLiteral("launch"), QStringLiteral("--provider"), QStringLiteral("vast"),
                                 QStringLiteral("--type"), QStringLiteral("H100 SXMx1")};
        Run taken = cli(QStringList{QStringLiteral("--json")} + launch, url);
        QCOMPARE(taken.code, 5);
        const QJsonArray alternatives = taken.json().value(QLatin1String("alternatives")).toArray();
        QCOMPARE(alternatives.size(), 2);
        QCOMPARE(alternatives.at(0).toObject().value(QLatin1String("type")).toString(), QStringLiteral("4100305"));
        QCOMPARE(alternatives.at(0).toObject().value(QLatin1String("price_per_hour")).toDouble(), 2.10);
        QCOMPARE(alternatives.at(1).toObject().value(QLatin1String("type")).toString(), QStringLiteral("4100301"));
        QVERIFY(taken.json().value(QLatin1String("error")).toString().contains(QStringLiteral("out of capacity")));
        Run text = cli(launch, url);
        QCOMPARE(text.code, 5);
        QVERIFY2(text.err.contains("Equivalent offers (same GPU and count, cheapest first):\n  4100305  1x H100 SXM  $2.10/h  Bavaria, DE"),
                 text.err.constData());
        Run picked = cli({QStringLiteral("--json"), QStringLiteral("launch"), QStringLiteral("--provider"), QStringLiteral("vast"),
                          QStringLiteral("--type"), QStringLiteral("4100305")}, url);
        QVERIFY2(picked.code == 0, picked.err.constData());
        QCOMPARE(picked.json().value(QLatin1String("price_per_hour")).toDouble(), 2.10);
    }
};

QTEST_GUILESS_MAIN(TestCliMarket)
#include "test_cli_market.moc"
