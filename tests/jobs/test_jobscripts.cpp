#include "core/jobs/jobinfo.h"
#include "core/jobs/jobscripts.h"
#include "core/jobs/jobspec.h"
#include "core/jobs/results.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <QProcess>
#include <QTest>

using namespace gantry::jobs;

class TestJobScripts final : public QObject
{
    Q_OBJECT

private slots:
    void names()
    {
        QVERIFY(validateJobName(QStringLiteral("train")).ok());
        QVERIFY(validateJobName(QStringLiteral("train-2.v_1")).ok());
        QVERIFY(!validateJobName(QString()).ok());
        QVERIFY(!validateJobName(QStringLiteral("-x")).ok());
        QVERIFY(!validateJobName(QStringLiteral("a/b")).ok());
        QVERIFY(!validateJobName(QStringLiteral("a..b")).ok());
        QVERIFY(!validateJobName(QStringLiteral("a b")).ok());
        QVERIFY(!validateJobName(QString(65, u'a')).ok());
        const QDateTime t(QDate(2026, 11, 30), QTime(16, 45, 0), Qt::UTC);
        QCOMPARE(defaultJobName(QStringLiteral("python -u train.py --lr 3"), t), QStringLiteral("train-20261130-164500"));
        QCOMPARE(defaultJobName(QStringLiteral("CUDA_VISIBLE_DEVICES=0 torchrun --nproc 8 ft.py"), t),
                 QStringLiteral("ft-20261130-164500"));
        QCOMPARE(defaultJobName(QStringLiteral("  "), t), QStringLiteral("job-20261130-164500"));
        // Inline code is named after its program, a module after the module (#32: "import-…").
        QCOMPARE(defaultJobName(QStringLiteral("python3 -c 'import torch; print(torch.cuda.is_available())'"), t),
                 QStringLiteral("python3-20261130-164500"));
        QCOMPARE(defaultJobName(QStringLiteral("python3 -m http.server 8888"), t), QStringLiteral("http-server-20261130-164500"));
        QCOMPARE(defaultJobName(QStringLiteral("bash -c 'for i in 1 2; do echo $i; done'"), t), QStringLiteral("bash-20261130-164500"));
        QVERIFY(validateJobName(defaultJobName(QStringLiteral("./run me.sh"), t)).ok());
    }

    void env()
    {
        auto ok = parseEnvAssignment(QStringLiteral("CUDA_VISIBLE_DEVICES=0,1"));
        QVERIFY(ok.ok());
        QCOMPARE(ok->first, QStringLiteral("CUDA_VISIBLE_DEVICES"));
        QCOMPARE(ok->second, QStringLiteral("0,1"));
        QVERIFY(parseEnvAssignment(QStringLiteral("A=")).ok());
        QVERIFY(!parseEnvAssignment(QStringLiteral("1A=x")).ok());
        QVERIFY(!parseEnvAssignment(QStringLiteral("NOEQUALS")).ok());
    }

    void commandScript()
    {
        JobSpec spec;
        spec.name = QStringLiteral("t");
        spec.command = QStringLiteral("python train.py 'a b'");
        spec.workingDir = QStringLiteral("~/proj x");
        spec.env = {{QStringLiteral("CUDA_VISIBLE_DEVICES"), QStringLiteral("1")}, {QStringLiteral("MSG"), QStringLiteral("it's")}};
        spec.venv = QStringLiteral("~/venv");
        const QString s = scripts::commandScript(spec);
        QVERIFY(s.contains(QStringLiteral("export CUDA_VISIBLE_DEVICES=1\n")));
        QVERIFY(s.contains(QStringLiteral("export MSG='it'\\''s'\n")));
        QVERIFY(s.contains(QStringLiteral("source \"$HOME\"/venv/bin/activate")));
        QVERIFY(s.contains(QStringLiteral("cd -- \"$HOME\"/'proj x'")));
        QVERIFY(s.endsWith(QStringLiteral("python train.py 'a b'\n")));
        spec.condaEnv = QStringLiteral("torch");
        QVERIFY(!validateSpec(spec).ok()); // venv and conda together
    }

    void parseStates()
    {
        const QByteArray out = "@@job a\npid=100\nalive=1\nstarted=1764521100\nsameboot=1\nmethod=tmux\nlogsize=12\n"
                               "cmd=" + QByteArray("sleep 100").toBase64() + "\ncwd=\n@@end\n"
                               "@@job b\npid=101\nalive=0\nstarted=1764521100\nexit=3 \nended=1764521200\nmethod=nohup\n@@end\n"
                               "@@job c\npid=102\nalive=0\nexit=130 INT\nstop=INT\n@@end\n"
                               "@@job d\npid=103\nalive=0\n@@end\n"
                               "@@job e\npid=104\nalive=1\nsameboot=0\n@@end\n"
                               "@@job f\n@@end\n"
                               "@@job g\npid=105\nalive=0\nexit=137 KILL\n@@end\n";
        const QList<JobInfo> jobs = parseJobList(out);
        QCOMPARE(jobs.size(), 7);
        QCOMPARE(jobs[0].state, JobState::Running);
        QCOMPARE(jobs[0].command, QStringLiteral("sleep 100"));
        QCOMPARE(jobs[0].method, QStringLiteral("tmux"));
        QCOMPARE(jobs[0].started, QDateTime::fromSecsSinceEpoch(1764521100, Qt::UTC));
        QCOMPARE(jobs[1].state, JobState::Exited);
        QCOMPARE(jobs[1].exitCode, std::optional<int>(3));
        QCOMPARE(jobs[1].statusText(), QStringLiteral("exited 3"));
        QCOMPARE(jobs[2].state, JobState::Killed);
        QCOMPARE(jobs[2].signal, QStringLiteral("INT"));
        QCOMPARE(jobs[2].stopSignal, QStringLiteral("INT"));
        QCOMPARE(jobs[3].state, JobState::Killed); // vanished without a status
        QCOMPARE(jobs[4].state, JobState::Killed); // pid alive, but after a reboot: not ours
        QCOMPARE(jobs[5].state, JobState::Starting);
        QCOMPARE(jobs[6].statusText(), QStringLiteral("killed (SIGKILL)"));
        QCOMPARE(jobStateName(JobState::Exited), QStringLiteral("exited"));
    }

    void scriptsAreBash()
    {
        // Every script goes through bash -n: a syntax error would only show up on an instance.
        JobSpec spec;
        spec.name = QStringLiteral("n");
        spec.command = QStringLiteral("echo \"$HOME\" | tr a b && exit 3");
        spec.condaEnv = QStringLiteral("base");
        const QString r = QStringLiteral("/tmp/x y");
        const QStringList all = {scripts::launch({}, spec, JobMethod::Auto), scripts::rerun(r, QStringLiteral("n"), JobMethod::Tmux),
                                 scripts::list(r, {}), scripts::list({}, QStringLiteral("n")), scripts::stop(r, QStringLiteral("n"), 1000, 1000, true),
                                 scripts::remove(r, QStringLiteral("n")), scripts::tailLines(r, QStringLiteral("n"), 5),
                                 scripts::readLog(r, QStringLiteral("n"), 10, true), scripts::readLog(r, QStringLiteral("n"), 0, false),
                                 scripts::commandScript(spec)};
        for (const QString &script : all) {
            QProcess bash;
            bash.start(QStringLiteral("bash"), {QStringLiteral("-n")});
            bash.write(script.toUtf8());
            bash.closeWriteChannel();
            QVERIFY(bash.waitForFinished(10000));
            QVERIFY2(bash.exitCode() == 0, qPrintable(QString::fromUtf8(bash.readAllStandardError()) + script));
        }
    }

    void resultPathsAndGuard()
    {
        QTemporaryDir config;
        ResultPathStore store(config.path());
        QVERIFY(store.patterns(QStringLiteral("a100")).isEmpty());
        QVERIFY(store.setPatterns(QStringLiteral("a100"), {QStringLiteral(" outputs/ "), QStringLiteral("*.pth"), QString(),
                                                            QStringLiteral("*.pth")}).ok());
        QCOMPARE(ResultPathStore(config.path()).patterns(QStringLiteral("a100")),
                 (QStringList{QStringLiteral("outputs/"), QStringLiteral("*.pth")}));
        QVERIFY(store.removeHost(QStringLiteral("a100")).ok());
        QVERIFY(store.patterns(QStringLiteral("a100")).isEmpty());

        TerminateGuard guard;
        QVERIFY(guard.canTerminate(QStringLiteral("a100")).ok());
        QVERIFY(guard.shouldOfferDownload(QStringLiteral("a100"), {QStringLiteral("outputs/")}));
        QVERIFY(!guard.shouldOfferDownload(QStringLiteral("a100"), {}));
        guard.setState(QStringLiteral("a100"), ResultsDownloadState::Running);
        QCOMPARE(guard.canTerminate(QStringLiteral("a100")).error().code, gantry::ErrorCode::Conflict);
        guard.setState(QStringLiteral("a100"), ResultsDownloadState::Failed, QStringLiteral("disk full"));
        QVERIFY(guard.canTerminate(QStringLiteral("a100")).error().message.contains(QStringLiteral("disk full")));
        guard.acknowledgeFailure(QStringLiteral("a100"));
        QVERIFY(guard.canTerminate(QStringLiteral("a100")).ok());
        guard.setState(QStringLiteral("a100"), ResultsDownloadState::Done);
        QVERIFY(!guard.shouldOfferDownload(QStringLiteral("a100"), {QStringLiteral("outputs/")}));
    }

    void resultExpansionLocally()
    {
        // The expansion script is plain bash: run it here on a made-up results tree.
        QTemporaryDir base;
        QDir(base.path()).mkpath(QStringLiteral("outputs/ckpt"));
        QDir(base.path()).mkpath(QStringLiteral("runs"));
        for (const char *name : {"outputs/ckpt/a.pth", "model.pth", "odd name.pth", "notes.txt"}) {
            QFile f(base.filePath(QString::fromLatin1(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("1234");
        }
        const QString script = scripts::expandResults({QStringLiteral("outputs/"), QStringLiteral("*.pth"), QStringLiteral("runs"),
                                                       QStringLiteral("outputs/ckpt/*.pth"), QStringLiteral("missing/*")},
                                                      base.path());
        QProcess bash;
        bash.start(QStringLiteral("bash"), {QStringLiteral("-c"), script});
        QVERIFY(bash.waitForFinished(20000));
        QCOMPARE(bash.exitCode(), 0);
        const QList<ResultDownload> items = parseResultExpansion(bash.readAllStandardOutput());
        QCOMPARE(items.size(), 4);
        QCOMPARE(items[0], (ResultDownload{base.filePath(QStringLiteral("outputs")), QStringLiteral("outputs"), true, -1}));
        QCOMPARE(items[1].localRelative, QStringLiteral("model.pth"));
        QCOMPARE(items[1].sizeBytes, 4);
        QCOMPARE(items[2].localRelative, QStringLiteral("odd name.pth"));
        QCOMPARE(items[3].localRelative, QStringLiteral("runs"));
    }
};

QTEST_GUILESS_MAIN(TestJobScripts)
#include "test_jobscripts.moc"
