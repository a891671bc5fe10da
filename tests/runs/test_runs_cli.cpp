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
        QVERIFY2(run.code == 0, QByteArray(run.out.right(700) + "\nstderr: " + run.err.right(4000)).constData()); // the tail (a crash's stack) says why
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

    // `run stop` from another process: the driving `run start` stops the job and terminates the
    // machine; a `run logs --follow` started meanwhile prints the new lines and ends with the run.
    void stopFromAnotherProcessAndFollow()
    {
        const QString spec = writeSpec("name: forever\nresources: {providers: [sandbox], gpu: any, spot: true}\n"
                                       "run: while true; do sleep 0.2; done\n");
        QProcess driver;
        test::startCli(driver, config(), {QStringLiteral("--json"), QStringLiteral("run"), QStringLiteral("start"), spec}, options());
        QByteArray seen;
        QVERIFY2(test::waitForOutput(driver, seen, "\"event\":\"running\"", 60000), seen.constData());

        QProcess follow;
        test::startCli(follow, config(), {QStringLiteral("run"), QStringLiteral("logs"), QStringLiteral("forever"), QStringLiteral("--follow")}, options());
        QByteArray followed;
        QVERIFY2(test::waitForOutput(follow, followed, "Run forever started."), followed.constData());
        QVERIFY(follow.state() == QProcess::Running); // still following a running run

        const test::CliRun stop = test::runCli(config(), {QStringLiteral("run"), QStringLiteral("stop"), QStringLiteral("forever"), QStringLiteral("--json")}, options());
        QVERIFY2(stop.code == 0, stop.err.constData());
        QCOMPARE(stop.json().value(QLatin1String("stop_requested")).toBool(), true);
        QCOMPARE(qint64(stop.json().value(QLatin1String("owner_pid")).toDouble()), driver.processId());

        QVERIFY(driver.waitForFinished(60000));
        QVERIFY(driver.exitCode() != 0); // stopped, not succeeded
        QVERIFY(follow.waitForFinished(10000));
        QCOMPARE(follow.exitCode(), 0);
        followed += follow.readAllStandardOutput();
        QVERIFY2(followed.contains("Run forever stopped."), followed.constData());

        const test::CliRun show = test::runCli(config(), {QStringLiteral("run"), QStringLiteral("show"), QStringLiteral("forever"), QStringLiteral("--json")});
        QCOMPARE(show.json().value(QLatin1String("state")).toString(), QStringLiteral("stopped"));
        const QJsonArray attempts = show.json().value(QLatin1String("attempts")).toArray();
        QCOMPARE(attempts.size(), 1);
        QCOMPARE(attempts.first().toObject().value(QLatin1String("end_reason")).toString(), QStringLiteral("stopped"));
        const test::CliRun instances = test::runCli(config(), {QStringLiteral("--json"), QStringLiteral("instances"), QStringLiteral("--provider"), QStringLiteral("sandbox")}, options());
        QVERIFY2(instances.json().value(QLatin1String("instances")).toArray().isEmpty(), instances.out.constData());

        // Following a run that has ended prints its log and ends.
        const test::CliRun after = test::runCli(config(), {QStringLiteral("run"), QStringLiteral("logs"), QStringLiteral("forever"), QStringLiteral("--follow")}, options());
        QCOMPARE(after.code, 0);
        QVERIFY(after.out.contains("Run forever stopped."));
    }

    // A spec's secrets reach the job's environment from the environment of `run start`, on the
    // session's stdin: while the job runs, no process on the machine has the value in its command
    // line, and the run's files and output never hold it.
    void secretsReachTheJobNotTheCommandLine()
    {
        const QByteArray secret = "hf_s3cr3t-" + QByteArray::number(QCoreApplication::applicationPid());
        const QString spec = writeSpec("name: secret\nresources: {providers: [sandbox], gpu: any, spot: true}\n"
                                       "secrets: [GANTRY_RUN_TEST_SECRET]\nresults: [outputs]\nrun: |\n"
                                       "  mkdir -p outputs; printf '%s\\n' \"$GANTRY_RUN_TEST_SECRET\" > outputs/secret.txt\n"
                                       "  for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < \"$f\" 2>/dev/null; echo; done"
                                       " | grep -c -F -f <(printf '%s\\n' \"$GANTRY_RUN_TEST_SECRET\") > outputs/argv.txt || true\n");
        test::RunOptions o = options();
        o.env.insert(QStringLiteral("GANTRY_RUN_TEST_SECRET"), QString::fromUtf8(secret));
        const test::CliRun run = test::runCli(config(), {QStringLiteral("--json"), QStringLiteral("run"), QStringLiteral("start"), spec}, o);
        QVERIFY2(run.code == 0, QByteArray(run.out.right(700) + "\nstderr: " + run.err.right(4000)).constData()); // the tail (a crash's stack) says why
        const QString home = m_dir.filePath(QStringLiteral("home/Gantry runs/secret/outputs/"));
        QFile value(home + QStringLiteral("secret.txt"));
        QVERIFY(value.open(QIODevice::ReadOnly));
        QCOMPARE(value.readAll(), secret + '\n');
        QFile argv(home + QStringLiteral("argv.txt"));
        QVERIFY(argv.open(QIODevice::ReadOnly));
        QCOMPARE(argv.readAll().trimmed(), QByteArray("0"));
        QVERIFY(!run.out.contains(secret) && !run.err.contains(secret));
        for (const QString &file : {QStringLiteral("run.json"), QStringLiteral("run.log")}) {
            QFile stored(config() + QStringLiteral("/runs/secret/") + file);
            QVERIFY(stored.open(QIODevice::ReadOnly));
            QVERIFY2(!stored.readAll().contains(secret), qPrintable(file));
        }

        // Missing: the run says which secret and where it looked, and nothing is left billing.
        const test::CliRun missing = test::runCli(config(), {QStringLiteral("--json"), QStringLiteral("run"), QStringLiteral("start"), spec,
                                                             QStringLiteral("--name"), QStringLiteral("nosecret")}, options());
        QVERIFY(missing.code != 0);
        QVERIFY2(missing.out.contains("GANTRY_RUN_TEST_SECRET"), missing.out.constData());
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
