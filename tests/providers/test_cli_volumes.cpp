// SPDX-License-Identifier: Apache-2.0
// gantry-cli volumes list|create|delete and launch --volume end to end against
// gantry-provider-emulator (Lambda filesystems).
#include "clirun.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {
using Run = gantry::test::CliRun;
} // namespace

class TestCliVolumes final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QProcess m_emulator;
    QString m_url;

    Run cli(const QStringList &args)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GANTRY_LAMBDA_API_KEY"), QStringLiteral("test-key"));
        env.insert(QStringLiteral("GANTRY_LAMBDA_ENDPOINT"), m_url);
        env.remove(QStringLiteral("GANTRY_RUNPOD_API_KEY"));
        env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS")); // no keychain prompts in tests
        return gantry::test::runProgram(QStringLiteral(GANTRY_CLI_PATH), gantry::test::cliArguments(m_dir.path(), args), env);
    }

    QJsonObject volumeNamed(const QString &name)
    {
        const Run list = cli({QStringLiteral("--json"), QStringLiteral("volumes"), QStringLiteral("list"), QStringLiteral("--provider"), QStringLiteral("lambda")});
        for (const QJsonValue &value : list.json().value(QLatin1String("volumes")).toArray()) {
            if (value.toObject().value(QLatin1String("name")).toString() == name)
                return value.toObject();
        }
        return {};
    }

private slots:
    void initTestCase()
    {
        m_emulator.start(QStringLiteral(GANTRY_EMULATOR_PATH), {QStringLiteral("--provider"), QStringLiteral("lambda"), QStringLiteral("--boot-ms"), QStringLiteral("100")});
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

    void listCreateAttachDelete()
    {
        const Run table = cli({QStringLiteral("volumes"), QStringLiteral("list"), QStringLiteral("--provider"), QStringLiteral("lambda")});
        QVERIFY2(table.code == 0, table.err.constData());
        QVERIFY2(table.out.contains("shared-fs") && table.out.contains("us-east-1") && table.out.contains("grows with use"), table.out.constData());

        const Run made = cli({QStringLiteral("volumes"), QStringLiteral("create"), QStringLiteral("data"), QStringLiteral("--region"),
                              QStringLiteral("us-east-1"), QStringLiteral("--provider"), QStringLiteral("lambda")});
        QVERIFY2(made.code == 0, made.err.constData());
        QVERIFY2(made.out.contains("bills $0.200/GB-month until you delete it"), made.out.constData());
        QCOMPARE(volumeNamed(QStringLiteral("data")).value(QLatin1String("price_per_gb_month")).toDouble(), 0.2);
        // The ledger bills it from now on, beside the filesystem the listing found.
        const Run cost = cli({QStringLiteral("--json"), QStringLiteral("cost")});
        QVERIFY2(cost.code == 0, cost.err.constData());
        QStringList billed;
        for (const QJsonValue &value : cost.json().value(QLatin1String("volumes")).toArray())
            billed.append(value.toObject().value(QLatin1String("name")).toString());
        QCOMPARE(billed, (QStringList{QStringLiteral("shared-fs"), QStringLiteral("data")}));

        const Run launch = cli({QStringLiteral("--json"), QStringLiteral("launch"), QStringLiteral("--provider"), QStringLiteral("lambda"),
                                QStringLiteral("--type"), QStringLiteral("gpu_1x_a10"), QStringLiteral("--region"), QStringLiteral("us-east-1"),
                                QStringLiteral("--ssh-key"), QStringLiteral("laptop"), QStringLiteral("--volume"), QStringLiteral("data")});
        QVERIFY2(launch.code == 0, launch.err.constData());
        const QString id = launch.json().value(QLatin1String("id")).toString();
        QVERIFY(volumeNamed(QStringLiteral("data")).value(QLatin1String("in_use")).toBool());

        // Nobody to answer (stdin is not a terminal): nothing is deleted, and the error says what would be lost.
        const Run unasked = cli({QStringLiteral("volumes"), QStringLiteral("delete"), QStringLiteral("data"), QStringLiteral("--provider"), QStringLiteral("lambda")});
        QVERIFY(unasked.code != 0);
        QVERIFY2(unasked.err.contains("erases every file on it") && unasked.err.contains("--yes"), unasked.err.constData());
        const Run attached = cli({QStringLiteral("volumes"), QStringLiteral("delete"), QStringLiteral("data"), QStringLiteral("--yes"),
                                  QStringLiteral("--provider"), QStringLiteral("lambda")});
        QVERIFY(attached.code != 0);
        QVERIFY2(attached.err.contains("Terminate that instance first"), attached.err.constData());

        QCOMPARE(cli({QStringLiteral("terminate"), id, QStringLiteral("--yes"), QStringLiteral("--without-results"), QStringLiteral("--provider"),
                      QStringLiteral("lambda")}).code, 0);
        const Run deleted = cli({QStringLiteral("volumes"), QStringLiteral("delete"), QStringLiteral("data"), QStringLiteral("--yes"),
                                 QStringLiteral("--provider"), QStringLiteral("lambda")});
        QVERIFY2(deleted.code == 0, deleted.err.constData());
        QVERIFY2(deleted.out.contains("no longer bills"), deleted.out.constData());
        QVERIFY(volumeNamed(QStringLiteral("data")).isEmpty());
    }

    void providerWithoutVolumesApi()
    {
        const Run sandbox = cli({QStringLiteral("volumes"), QStringLiteral("list"), QStringLiteral("--provider"), QStringLiteral("sandbox")});
        QVERIFY(sandbox.code != 0);
        QVERIFY2(sandbox.err.contains("has no volumes API"), sandbox.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliVolumes)
#include "test_cli_volumes.moc"
