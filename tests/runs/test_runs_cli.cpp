// SPDX-License-Identifier: Apache-2.0
#include "clirun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;

// `gantry-cli run` as a user drives it on the local sandbox: start in the foreground with one JSON
// line per event, then show (the issue's object), list, logs and stop from another process; and
// `preempt`, which only the sandbox answers.
class TestRunsCli final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString config() const { return m_dir.filePath(QStringLiteral("config")); }
    test::RunOptions options() const
    {
        test::RunOptions o;
        o.env.insert(QStringLiteral("HOME"), m_dir.filePath(QStringLiteral("home")));
        o.env.insert(QStringLiteral("GANTRY_SANDBOX_BOOT_MS"), QStringLiteral("50"));
        o.env.insert(QStringLiteral("GANTRY_RUN_TICK_MS"), QStringLiteral("100"));
        o.timeoutMs = 240000;
        return o;
    }
    QString writeSpec(const QByteArray &yaml)
    {
        const QString dir = m_dir.filePath(QStringLiteral("work"));
        QDir().mkpath(dir);
        QFile file(dir + QStringLiteral("/run.yaml"));
        if (file.open(QIODevice::WriteOnly))
            file.write(yaml);
        return file.fileName();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QDir().mkpath(m_dir.filePath(QStringLiteral("home")));
        if (!QFile::exists(QStringLiteral("/usr/sbin/sshd")))
            QSKIP("the sandbox needs OpenSSH's sshd");
    }

    void startShowListLogsStop()
    {
        const QString spec = writeSpec("name: answer\nresources: {providers: [sandbox], gpu: any, spot: true}\n"
                                       "setup: mkdir -p outputs\nrun: echo \"42 $GANTRY_RUN_ATTEMPT\" > outputs/answer.txt\n"
                                       "results: [outputs]\n");
        const test::CliRun run = test::runCli(config(), {QStringLiteral("--json"), QStringLiteral("run"), QStringLiteral("start"), spec}, options());
        QVERIFY2(run.code == 0, run.out.constData());
        QStringList kinds;
        for (const QJsonObject &line : run.lines())
            kinds.append(line.value(QLatin1String("event")).toString());
        QVERIFY2(kinds.startsWith(QStringLiteral("started")) && kinds.contains(QStringLiteral("running")), qPrintable(kinds.join(u' ')));
        QCOMPARE(run.json().value(QLatin1String("event")).toString(), QStringLiteral("finished"));
        QCOMPARE(run.json().value(QLatin1String("state")).toString(), QStringLiteral("succeeded"));
        QFile answer(m_dir.filePath(QStringLiteral("home/Gantry runs/answer/outputs/answer.txt")));
        QVERIFY(answer.open(QIODevice::ReadOnly));
        QCOMPARE(answer.readAll(), QByteArray("42 1\n"));

        const test::CliRun show = test::runCli(config(), {QStringLiteral("run"), QStringLiteral("show"), QStringLiteral("answer"), QStringLiteral("--json")});
        QCOMPARE(show.code, 0);
        const QJsonObject object = show.json();
        QCOMPARE(object.value(QLatin1String("name")).toString(), QStringLiteral("answer"));
        QCOMPARE(object.value(QLatin1String("state")).toString(), QStringLiteral("succeeded"));
        const QJsonArray attempts = object.value(QLatin1String("attempts")).toArray();
        QCOMPARE(attempts.size(), 1);
        const QJsonObject attempt = attempts.first().toObject();
        QCOMPARE(attempt.value(QLatin1String("provider")).toString(), QStringLiteral("sandbox"));
        QCOMPARE(attempt.value(QLatin1String("type")).toString(), QStringLiteral("gpu_1x_sandbox_spot"));
        QCOMPARE(attempt.value(QLatin1String("end_reason")).toString(), QStringLiteral("succeeded"));
        QVERIFY(attempt.value(QLatin1String("ended")).isString());
        QVERIFY(object.value(QLatin1String("checkpoint")).isObject());
        QVERIFY(object.contains(QLatin1String("cost_so_far")));

        const test::CliRun list = test::runCli(config(), {QStringLiteral("run"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(list.json().value(QLatin1String("runs")).toArray().size(), 1);
        const test::CliRun logs = test::runCli(config(), {QStringLiteral("run"), QStringLiteral("logs"), QStringLiteral("answer")});
        QVERIFY2(logs.out.contains("Run answer succeeded"), logs.out.constData());
        const test::CliRun stop = test::runCli(config(), {QStringLiteral("run"), QStringLiteral("stop"), QStringLiteral("answer")});
        QCOMPARE(stop.code, 0);
        QVERIFY(stop.out.contains("already ended"));
        // Nothing of it runs or bills.
        const test::CliRun instances = test::runCli(config(), {QStringLiteral("--json"), QStringLiteral("instances"), QStringLiteral("--provider"), QStringLiteral("sandbox")}, options());
        QVERIFY2(instances.json().value(QLatin1String("instances")).toArray().isEmpty(), instances.out.constData());
    }

    void mistakesAndRefusals()
    {
        const QString spec = writeSpec("name: bad\nresources: {gpu: H1000}\nrun: t\n");
        const test::CliRun bad = test::runCli(config(), {QStringLiteral("run"), QStringLiteral("start"), spec}, options());
        QVERIFY(bad.code != 0);
        QVERIFY2(bad.err.contains("run.yaml line 2: resources.gpu"), bad.err.constData());
        const test::CliRun missing = test::runCli(config(), {QStringLiteral("run"), QStringLiteral("show"), QStringLiteral("nope")});
        QVERIFY(missing.code != 0);
        QVERIFY(missing.err.contains("gantry-cli run list"));
        const test::CliRun cloud = test::runCli(config(), {QStringLiteral("preempt"), QStringLiteral("i-1"), QStringLiteral("--provider"), QStringLiteral("lambda")});
        QCOMPARE(cloud.code, 2);
        QVERIFY2(cloud.err.contains("sandbox"), cloud.err.constData());
        const test::CliRun unknown = test::runCli(config(), {QStringLiteral("preempt"), QStringLiteral("nope"), QStringLiteral("--provider"), QStringLiteral("sandbox")}, options());
        QVERIFY(unknown.code != 0);
    }
};

QTEST_GUILESS_MAIN(TestRunsCli)
#include "test_runs_cli.moc"
