#include "clirun.h"
#include "core/hosts/hoststore.h"
#include "core/providers/await.h"
#include "core/providers/instancehosts.h"
#include "core/providers/vastprovider.h"
#include "core/verify/reputation.h"
#include "tests/support/sshdfixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry::verify;

class TestReputation final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QProcess m_vast;
    QString m_vastUrl;

    using Run = gantry::test::CliRun;

    Run cli(const QStringList &args)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GANTRY_VAST_API_KEY"), QStringLiteral("test-key"));
        env.insert(QStringLiteral("GANTRY_VAST_ENDPOINT"), m_vastUrl);
        for (const char *name : {"GANTRY_LAMBDA_API_KEY", "GANTRY_RUNPOD_API_KEY", "GANTRY_SHADEFORM_API_KEY", "DBUS_SESSION_BUS_ADDRESS"})
            env.remove(QString::fromLatin1(name));
        return gantry::test::runProgram(QStringLiteral(GANTRY_CLI_PATH), gantry::test::cliArguments(m_dir.path(), args), env);
    }

    static MachineRun failed(const QString &machineId)
    {
        MachineRun run;
        run.provider = QStringLiteral("vast");
        run.machineId = machineId;
        run.host = QStringLiteral("vast-a");
        run.verdict = Verdict::Fail;
        run.problem = QStringLiteral("memory bandwidth 1200 of 3350 GB/s");
        run.time = QDateTime::currentDateTimeUtc();
        run.bandwidthGbs = 1200;
        run.specBandwidthGbs = 3350;
        return run;
    }

    QJsonArray offers()
    {
        const Run run = cli({QStringLiteral("types"), QStringLiteral("--provider"), QStringLiteral("vast"), QStringLiteral("--json"),
                             QStringLiteral("--include-bad")});
        return run.json().value(QStringLiteral("types")).toArray();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_vast.start(QStringLiteral(GANTRY_EMULATOR_PATH), {QStringLiteral("--provider"), QStringLiteral("vast")});
        QVERIFY(m_vast.waitForReadyRead(20000));
        const QByteArray line = m_vast.readLine().trimmed();
        QVERIFY(line.startsWith("listening on "));
        m_vastUrl = QString::fromLatin1(line.mid(int(qstrlen("listening on "))));
    }

    void cleanupTestCase()
    {
        m_vast.kill();
        m_vast.waitForFinished();
    }

    void storeCountsAndKeepsFigures()
    {
        QTemporaryDir dir;
        ReputationStore store(dir.path());
        QVERIFY(store.record(failed(QStringLiteral("m1"))));
        MachineRun pass = failed(QStringLiteral("m1"));
        pass.verdict = Verdict::Pass;
        pass.bandwidthGbs.reset(); // measured nothing new: the last figure stays
        QVERIFY(store.record(pass));
        ReputationStore reread(dir.path());
        QVERIFY(reread.load());
        QCOMPARE(reread.machines().size(), 1);
        const MachineRecord &m = reread.machines().first();
        QCOMPARE(m.passes, 1);
        QCOMPARE(m.fails, 1);
        QVERIFY(!m.bad()); // the later pass clears it
        QCOMPARE(m.bandwidthGbs, std::optional<double>(1200));
        QCOMPARE(m.key(), QStringLiteral("vast:m1"));
        QVERIFY(!QFile::exists(store.filePath() + QStringLiteral(".tmp"))); // QSaveFile leaves nothing behind
    }

    void newerSchemaIsReadButNeverRewritten()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("machines.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        const QByteArray newer = R"({"schema": 9, "machines": [{"provider": "vast", "machine_id": "m9", "fails": 2, "last_verdict": "fail"}]})";
        file.write(newer);
        file.close();
        ReputationStore store(dir.path());
        QVERIFY(!store.load());
        QVERIFY(store.badMachine(QStringLiteral("vast"), QStringLiteral("m9")));
        QVERIFY(!store.record(failed(QStringLiteral("m1"))));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), newer);
    }

    void damagedFileIsKeptAsideByTheNextSave()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("machines.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{not json");
        file.close();
        ReputationStore store(dir.path());
        QVERIFY(!store.load());
        QVERIFY(store.record(failed(QStringLiteral("m2"))));
        QCOMPARE(QDir(dir.path()).entryList({QStringLiteral("machines.json.damaged-*")}, QDir::Files).size(), 1);
        QVERIFY(store.load());
        QVERIFY(store.badMachine(QStringLiteral("vast"), QStringLiteral("m2")));
    }

    // A machine that failed Verify drops out of `types --provider vast`; --include-bad flags it,
    // verify-history shows its record, and --forget clears it.
    void badMachineIsHiddenFromSearches()
    {
        const QJsonArray all = offers();
        QVERIFY(all.size() >= 2);
        const QJsonObject victim = all.first().toObject();
        const QString machineId = victim.value(QStringLiteral("machine_id")).toString();
        QVERIFY(!machineId.isEmpty());
        QVERIFY(ReputationStore(m_dir.path()).record(failed(machineId)));

        const Run hidden = cli({QStringLiteral("types"), QStringLiteral("--provider"), QStringLiteral("vast"), QStringLiteral("--json")});
        QCOMPARE(hidden.code, 0);
        for (const QJsonValue &offer : hidden.json().value(QStringLiteral("types")).toArray())
            QVERIFY(offer.toObject().value(QStringLiteral("machine_id")).toString() != machineId);
        const Run text = cli({QStringLiteral("types"), QStringLiteral("--provider"), QStringLiteral("vast")});
        QVERIFY2(text.err.contains("--include-bad"), text.err.constData());

        bool flagged = false;
        for (const QJsonValue &offer : offers()) {
            if (offer.toObject().value(QStringLiteral("machine_id")).toString() == machineId)
                flagged = offer.toObject().value(QStringLiteral("bad_machine")).toObject().value(QStringLiteral("problem")).toString().contains(QStringLiteral("bandwidth"));
        }
        QVERIFY(flagged);

        const Run history = cli({QStringLiteral("verify-history"), QStringLiteral("--machine"), machineId, QStringLiteral("--json")});
        QCOMPARE(history.code, 0);
        const QJsonArray machines = history.json().value(QStringLiteral("machines")).toArray();
        QCOMPARE(machines.size(), 1);
        QCOMPARE(machines.first().toObject().value(QStringLiteral("fails")).toInt(), 1);
        QCOMPARE(machines.first().toObject().value(QStringLiteral("bad")).toBool(), true);
        QCOMPARE(machines.first().toObject().value(QStringLiteral("spec_bandwidth_gbs")).toDouble(), 3350.0);

        QCOMPARE(cli({QStringLiteral("verify-history"), QStringLiteral("--forget"), QStringLiteral("vast:") + machineId}).code, 0);
        QCOMPARE(offers().size(), all.size());
        const Run again = cli({QStringLiteral("types"), QStringLiteral("--provider"), QStringLiteral("vast"), QStringLiteral("--json")});
        QCOMPARE(again.json().value(QStringLiteral("types")).toArray().size(), all.size());
    }

    // Lambda has no machine-scoped key and no billing stop on power-off: the guard refuses and
    // names the watcher, before connecting anywhere.
    void guardRefusesProvidersWithoutSelfStop()
    {
        const Run run = cli({QStringLiteral("guard"), QStringLiteral("install"), QStringLiteral("ubuntu@192.0.2.1"),
                             QStringLiteral("--provider"), QStringLiteral("lambda"), QStringLiteral("--json")});
        QCOMPARE(run.code, 2);
        QVERIFY2(run.json().value(QStringLiteral("error")).toString().contains(QStringLiteral("gantry-cli watch")), run.out.constData());
    }

    // The whole path without the user typing a machine id: an instance rented on Vast is saved as a
    // host with its machine_id (from the instance the API returns), Doctor fails on it (the test
    // sshd has no NVIDIA driver), and the next `types --provider vast` hides that machine's offers.
    void failedDoctorOnAVastInstanceHidesItsMachine()
    {
        gantry::test::SshdFixture sshd;
        GANTRY_REQUIRE_SSHD(sshd.start());
        gantry::providers::RestConfig config;
        config.baseUrl = QUrl(m_vastUrl);
        config.apiKey = QStringLiteral("test-key");
        gantry::providers::VastProvider vast(config);
        QFile pub(sshd.clientKeyPath() + QStringLiteral(".pub"));
        QVERIFY(pub.open(QIODevice::ReadOnly));
        const QString publicKey = QString::fromUtf8(pub.readAll()).trimmed();
        QVERIFY(gantry::providers::await<gantry::providers::SshKey>(
            [&](auto done) { vast.addSshKey(QStringLiteral("test"), publicKey, std::move(done)); }));
        gantry::providers::LaunchRequest request;
        request.typeName = QStringLiteral("H100 SXMx1");
        request.name = QStringLiteral("vast-doctor");
        auto id = gantry::providers::await<QString>([&](auto done) { vast.launch(request, std::move(done)); });
        QVERIFY2(id, qPrintable(id ? QString() : id.error().message));
        auto instance = gantry::providers::await<gantry::providers::Instance>([&](auto done) { vast.getInstance(*id, std::move(done)); });
        QVERIFY(instance);
        QVERIFY(!instance->machineId.isEmpty());

        gantry::HostStore hosts(m_dir.path());
        QVERIFY(hosts.load());
        instance->state = gantry::providers::InstanceState::Running;
        instance->sshHost = sshd.host(); // the rented machine is this test's sshd
        instance->sshPort = sshd.port();
        instance->sshUser = sshd.user();
        auto name = gantry::providers::rememberInstanceHost(hosts, *instance, m_dir.path());
        QVERIFY2(name, qPrintable(name ? QString() : name.error().message));
        gantry::SavedHost saved = *hosts.find(*name);
        QCOMPARE(saved.machineId, instance->machineId);
        saved.target.identityFiles = {sshd.clientKeyPath()};
        QVERIFY(hosts.update(saved));

        const Run doctor = cli({QStringLiteral("doctor"), *name, QStringLiteral("--known-hosts"), sshd.knownHostsPath()});
        QVERIFY2(doctor.code == 1, doctor.err.constData());
        const Run hidden = cli({QStringLiteral("types"), QStringLiteral("--provider"), QStringLiteral("vast"), QStringLiteral("--json")});
        QCOMPARE(hidden.code, 0);
        const QJsonArray shown = hidden.json().value(QStringLiteral("types")).toArray();
        QVERIFY(!shown.isEmpty());
        for (const QJsonValue &offer : shown)
            QVERIFY(offer.toObject().value(QStringLiteral("machine_id")).toString() != instance->machineId);
        bool flagged = false;
        for (const QJsonValue &offer : offers())
            flagged = flagged || offer.toObject().value(QStringLiteral("machine_id")).toString() == instance->machineId;
        QVERIFY(flagged); // still rentable, only hidden
        const Run history = cli({QStringLiteral("verify-history"), QStringLiteral("--machine"), instance->machineId, QStringLiteral("--json")});
        const QJsonObject machine = history.json().value(QStringLiteral("machines")).toArray().first().toObject();
        QCOMPARE(machine.value(QStringLiteral("provider")).toString(), QStringLiteral("vast"));
        QVERIFY(machine.value(QStringLiteral("last_problem")).toString().contains(QStringLiteral("doctor")));
        QCOMPARE(cli({QStringLiteral("verify-history"), QStringLiteral("--forget"), QStringLiteral("vast:") + instance->machineId}).code, 0);
    }
};

QTEST_GUILESS_MAIN(TestReputation)
#include "test_reputation.moc"
