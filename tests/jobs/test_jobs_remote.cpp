#include "sshdfixture.h"

#include "core/jobs/jobrunner.h"
#include "core/jobs/sessionworker.h"
#include "core/util/background.h"
#include "core/ssh/session.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QFile>
#include <QFileInfo>
#include <QSemaphore>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <memory>
#include <thread>

#include <sys/stat.h>

using namespace gantry;
using namespace gantry::jobs;

// Jobs against a real sshd on 127.0.0.1: the "instance" is this machine, and the jobs directory
// is a temp dir so nothing lands in the real ~/.gantry.
class TestJobsRemote final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ssh::Session> connect()
    {
        auto session = std::make_unique<ssh::Session>();
        auto ok = session->connect(m_sshd.target(), m_sshd.connectOptions());
        if (!ok)
            qWarning("%s", qPrintable(ok.error().message));
        return ok ? std::move(session) : nullptr;
    }

    static int modeOf(const QString &path)
    {
        struct stat st {};
        return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 07777) : -1;
    }

    QString name(const char *base) const
    {
        return QString::fromLatin1(base) + u'-' + QString::number(QCoreApplication::applicationPid());
    }

    // The "instance" is this machine: wait on its files directly instead of paying a round trip
    // (and the remote login shell's start-up) per poll.
    static bool waitForFile(const QString &path, int timeoutMs = 30000)
    {
        QElapsedTimer timer;
        timer.start();
        while (!QFile::exists(path) && timer.elapsed() < timeoutMs)
            QTest::qWait(50);
        return QFile::exists(path);
    }

    JobInfo waitEnded(JobRunner &runner, const QString &jobName)
    {
        if (!waitForFile(m_root.filePath(jobName + QStringLiteral("/exit_code"))))
            return {};
        auto status = runner.status(jobName);
        return status ? *status : JobInfo{};
    }

    // Jobs that wait for this file to exist, so no test depends on how slow the machine is.
    QString gate(const QString &jobName) const { return m_root.filePath(jobName + QStringLiteral(".go")); }
    void open(const QString &jobName) const
    {
        QFile file(gate(jobName));
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    QString waitGate(const QString &jobName) const
    {
        return QStringLiteral("while [ ! -e '%1' ]; do sleep 0.05; done").arg(gate(jobName));
    }

    ssh::Session *m_session = nullptr;
    std::unique_ptr<ssh::Session> m_owned;
    test::SshdFixture m_sshd;
    QTemporaryDir m_root;
    bool m_hasScreen = false;

private slots:
    void initTestCase()
    {
        const QString error = m_sshd.start();
        GANTRY_REQUIRE_SSHD(error);
        QVERIFY(m_root.isValid());
        if (qEnvironmentVariableIsSet("GANTRY_KEEP_JOBS")) {
            m_root.setAutoRemove(false);
            qInfo("jobs in %s", qPrintable(m_root.path()));
        }
        m_owned = connect();
        QVERIFY(m_owned);
        m_session = m_owned.get();
        m_hasScreen = !QStandardPaths::findExecutable(QStringLiteral("screen")).isEmpty();
    }

    void outlivesTheConnection()
    {
        const QString job = name("outlive");
        {
            auto first = connect();
            QVERIFY(first);
            JobRunner runner(*first, m_root.path());
            JobSpec spec{job, QStringLiteral("echo start; ") + waitGate(job) + QStringLiteral("; echo done; exit 7"), {}, {}, {}, {}};
            auto started = runner.start(spec);
            QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message));
            QCOMPARE(started->info.state, JobState::Running);
            first->disconnect();
        }
        // A new connection, as after a network drop or a restart of Gantry.
        auto second = connect();
        QVERIFY(second);
        JobRunner runner(*second, m_root.path());
        auto listed = runner.list();
        QVERIFY(listed.ok());
        const auto found = std::find_if(listed->cbegin(), listed->cend(), [&](const JobInfo &j) { return j.name == job; });
        QVERIFY(found != listed->cend());
        QCOMPARE(found->state, JobState::Running);
        QVERIFY(found->started.isValid());
        QVERIFY(found->command.startsWith(QStringLiteral("echo start; while")));

        open(job);
        const JobInfo ended = waitEnded(runner, job);
        QCOMPARE(ended.state, JobState::Exited);
        QCOMPARE(ended.exitCode, std::optional<int>(7));
        auto log = runner.readLog(job);
        QVERIFY(log.ok());
        QCOMPARE(*log, QByteArray("start\ndone\n"));
    }

    void logsResumeFromOffset()
    {
        JobRunner runner(*m_session, m_root.path());
        const QString job = name("logs");
        auto started = runner.start({job, QStringLiteral("echo line1; echo line2; ") + waitGate(job)
                                              + QStringLiteral("; for i in 3 4 5 6; do echo line$i; sleep 0.1; done"), {}, {}, {}, {}},
                                    JobMethod::Tmux);
        QVERIFY(started.ok());
        QVERIFY(waitForFile(m_root.filePath(job + QStringLiteral("/log"))));
        QTRY_VERIFY(QFileInfo(m_root.filePath(job + QStringLiteral("/log"))).size() == 12);
        auto head = runner.readLog(job);
        QVERIFY(head.ok());
        QVERIFY(head->startsWith("line1\n"));
        // The connection drops; a new one follows from where the last one stopped.
        auto other = connect();
        QVERIFY(other);
        JobRunner resumed(*other, m_root.path());
        QByteArray rest;
        open(job);
        auto end = resumed.followLog(job, head->size(), [&rest](const QByteArray &chunk) { rest += chunk; });
        QVERIFY2(end.ok(), end.ok() ? "" : qPrintable(end.error().message));
        QCOMPARE(*head + rest, QByteArray("line1\nline2\nline3\nline4\nline5\nline6\n"));
        QCOMPARE(*end, qint64(head->size() + rest.size()));
        // Reattaching later shows everything since the start.
        auto whole = resumed.readLog(job);
        QVERIFY(whole.ok());
        QCOMPARE(*whole, *head + rest);
    }

    void commandThatExitsAtOnce()
    {
        JobRunner runner(*m_session, m_root.path());
        auto started = runner.start({name("fails"), QStringLiteral("echo 'no such file: data.csv' >&2; exit 3"), {}, {}, {}, {}});
        QVERIFY(started.ok());
        QCOMPARE(started->info.state, JobState::Exited);
        QCOMPARE(started->info.exitCode, std::optional<int>(3));
        QVERIFY(started->tail.contains(QStringLiteral("no such file: data.csv")));
    }

    // A managed run's poll asks the job and the GPUs in one command: the job reads as status()
    // says, the other command's lines come apart, and a missing job is still an error.
    void statusThenRunsBothInOneCommand()
    {
        JobRunner runner(*m_session, m_root.path());
        const QString job = name("then");
        auto started = runner.start({job, QStringLiteral("exit 3"), {}, {}, {}, {}});
        QVERIFY(started.ok());
        const JobInfo ended = waitEnded(runner, job);
        QString then;
        auto both = runner.statusThen(job, QStringLiteral("echo '61.50, 7'; echo '62.25, 9'; exit 5"), &then);
        QVERIFY2(both.ok(), both.ok() ? "" : qPrintable(both.error().message));
        QCOMPARE(both->state, ended.state);
        QCOMPARE(both->exitCode, std::optional<int>(3));
        QCOMPARE(then, QStringLiteral("61.50, 7\n62.25, 9\n"));
        then.clear();
        auto missing = runner.statusThen(name("never-started"), QStringLiteral("echo after"), &then);
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
        QCOMPARE(then, QStringLiteral("after\n"));
    }

    void environmentAndWorkingDir()
    {
        QTemporaryDir work;
        JobRunner runner(*m_session, m_root.path());
        JobSpec spec;
        spec.name = name("env");
        spec.command = QStringLiteral("echo \"$CUDA_VISIBLE_DEVICES|$MSG\"; pwd");
        spec.workingDir = work.path();
        spec.env = {{QStringLiteral("CUDA_VISIBLE_DEVICES"), QStringLiteral("1")}, {QStringLiteral("MSG"), QStringLiteral("it's a b")}};
        auto started = runner.start(spec);
        QVERIFY(started.ok());
        waitEnded(runner, spec.name);
        auto log = runner.readLog(spec.name);
        QVERIFY(log.ok());
        QCOMPARE(*log, QByteArray("1|it's a b\n") + work.path().toUtf8() + '\n');
        // cmd.sh holds the --env values: the job's folder is 0700 and its files 0600.
        QCOMPARE(modeOf(m_root.filePath(spec.name)), 0700);
        QCOMPARE(modeOf(m_root.filePath(spec.name + QStringLiteral("/cmd.sh"))), 0600);
        QCOMPARE(modeOf(m_root.filePath(spec.name + QStringLiteral("/command"))), 0600);
    }

    // --env values (tokens) never show in ps on the machine while a job starts: the launch script
    // goes to bash on stdin. (As the argument of bash -c, every sample of a start caught it.)
    void envValuesStayOutOfPs()
    {
        JobRunner runner(*m_session, m_root.path());
        const QByteArray token = "hf_gantry_test_7f3a9c";
        std::atomic_bool sampling{true};
        std::atomic_int samples{0};
        std::atomic_bool seen{false};
        std::thread sampler([&] {
            while (sampling) {
                QProcess ps;
                ps.start(QStringLiteral("ps"), {QStringLiteral("-eo"), QStringLiteral("args")});
                ps.waitForFinished(5000);
                if (ps.readAllStandardOutput().contains(token))
                    seen = true;
                ++samples;
            }
        });
        for (int i = 0; i < 5; ++i) {
            JobSpec spec;
            spec.name = name("secret") + QString::number(i);
            spec.command = QStringLiteral("true");
            spec.env = {{QStringLiteral("HF_TOKEN"), QString::fromLatin1(token)}};
            QVERIFY(runner.start(spec).ok());
        }
        sampling = false;
        sampler.join();
        QVERIFY(samples > 0);
        QVERIFY(!seen);
    }

    void jobRunsWithTheLoginUmask()
    {
        // The 077 used for the job's own files does not leak into what the job creates.
        auto login = m_session->run(QStringLiteral("umask"));
        QVERIFY(login.ok());
        JobRunner runner(*m_session, m_root.path());
        auto started = runner.start({name("umask"), QStringLiteral("umask"), {}, {}, {}, {}});
        QVERIFY(started.ok());
        waitEnded(runner, name("umask"));
        auto log = runner.readLog(name("umask"));
        QVERIFY(log.ok());
        QCOMPARE(log->trimmed(), login->out.trimmed());
    }

    void nameInUseAndRerun()
    {
        JobRunner runner(*m_session, m_root.path());
        const QString job = name("dup");
        QVERIFY(runner.start({job, QStringLiteral("echo one; ") + waitGate(job), {}, {}, {}, {}}).ok());
        auto again = runner.start({job, QStringLiteral("echo two"), {}, {}, {}, {}});
        QVERIFY(!again.ok());
        QCOMPARE(again.error().code, ErrorCode::Conflict);
        QVERIFY(again.error().message.contains(job));
        auto whileRunning = runner.rerun(job);
        QVERIFY(!whileRunning.ok());
        QCOMPARE(whileRunning.error().code, ErrorCode::Conflict);
        open(job);
        QCOMPARE(waitEnded(runner, job).exitCode, std::optional<int>(0));
        auto rerun = runner.rerun(job);
        QVERIFY2(rerun.ok(), rerun.ok() ? "" : qPrintable(rerun.error().message));
        QCOMPARE(waitEnded(runner, job).exitCode, std::optional<int>(0));
        QCOMPARE(*runner.readLog(job), QByteArray("one\n"));
        QVERIFY(QFile::exists(m_root.filePath(job + QStringLiteral("/log.1"))));
        QVERIFY(runner.remove(job).ok());
        QCOMPARE(runner.status(job).error().code, ErrorCode::NotFound);
        QVERIFY(!runner.start({QStringLiteral("bad/name"), QStringLiteral("true"), {}, {}, {}, {}}).ok());
    }

    // A pid file that names no process group of the job (0 is the stopping shell's own group; a
    // word; 1 would be every process of the user) is refused before any signal: the job itself
    // keeps running and ends normally once its gate opens.
    void stopSignalsNothingForAPidFileThatNamesNoJob()
    {
        JobRunner runner(*m_session, m_root.path());
        const QString job = name("badpid");
        QVERIFY(runner.start({job, waitGate(job), {}, {}, {}, {}}).ok());
        QFile pidFile(m_root.filePath(job + QStringLiteral("/pid")));
        QVERIFY(pidFile.open(QIODevice::ReadOnly));
        const QByteArray realPid = pidFile.readAll();
        pidFile.close();
        for (const QByteArray &bad : {QByteArray("0\n"), QByteArray("abc\n"), QByteArray("\n")}) {
            QVERIFY(pidFile.open(QIODevice::WriteOnly | QIODevice::Truncate));
            pidFile.write(bad);
            pidFile.close();
            auto stopped = runner.stop(job, StopOptions{100, 100, true});
            QVERIFY2(!stopped.ok(), bad.constData());
            QVERIFY2(stopped.error().message.contains(QStringLiteral("nothing was signalled")), qPrintable(stopped.error().message));
        }
        QVERIFY(pidFile.open(QIODevice::WriteOnly | QIODevice::Truncate));
        pidFile.write(realPid);
        pidFile.close();
        QVERIFY(!QFile::exists(m_root.filePath(job + QStringLiteral("/exit_code")))); // still running: nothing reached it
        open(job);
        QCOMPARE(waitEnded(runner, job).exitCode, std::optional<int>(0));
    }

    void stopEscalates_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("endedBy");
        QTest::addColumn<QString>("lastSent");
        QTest::newRow("obeys SIGINT") << QStringLiteral("echo ready; sleep 30") << QStringLiteral("INT") << QStringLiteral("INT");
        QTest::newRow("ignores SIGINT") << QStringLiteral("trap '' INT; echo ready; sleep 30") << QStringLiteral("TERM")
                                        << QStringLiteral("TERM");
        QTest::newRow("ignores SIGINT and SIGTERM") << QStringLiteral("trap '' INT TERM; echo ready; sleep 30")
                                                    << QStringLiteral("KILL") << QStringLiteral("KILL");
    }

    void stopEscalates()
    {
        QFETCH(QString, command);
        QFETCH(QString, endedBy);
        QFETCH(QString, lastSent);
        JobRunner runner(*m_session, m_root.path());
        const QString job = name("stop") + u'-' + lastSent.toLower();
        auto started = runner.start({job, command, {}, {}, {}, {}});
        QVERIFY(started.ok());
        QCOMPARE(started->info.state, JobState::Running);
        QElapsedTimer timer;
        timer.start();
        // Graces long enough that a loaded CI machine does not escalate a signal that already worked.
        auto stopped = runner.stop(job, StopOptions{3000, 3000, true});
        QVERIFY2(stopped.ok(), stopped.ok() ? "" : qPrintable(stopped.error().message));
        QVERIFY(timer.elapsed() < 60000);
        QCOMPARE(stopped->state, JobState::Killed);
        QCOMPARE(stopped->stopSignal, lastSent);
        QCOMPARE(stopped->signal, endedBy);
    }

    void fallbacks_data()
    {
        QTest::addColumn<int>("method");
        QTest::newRow("screen") << int(JobMethod::Screen);
        QTest::newRow("nohup") << int(JobMethod::Nohup);
    }

    void fallbacks()
    {
        QFETCH(int, method);
        if (JobMethod(method) == JobMethod::Screen && !m_hasScreen)
            QSKIP("screen is not installed (apt-get install screen)");
        const QString job = name("fallback") + u'-' + jobMethodName(JobMethod(method));
        {
            auto first = connect();
            QVERIFY(first);
            JobRunner runner(*first, m_root.path());
            auto started = runner.start({job, QStringLiteral("echo via $0; ") + waitGate(job) + QStringLiteral("; exit 4"), {}, {}, {}, {}}, JobMethod(method));
            QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message));
            QCOMPARE(started->info.method, jobMethodName(JobMethod(method)));
            QCOMPARE(started->info.state, JobState::Running);
        }
        auto second = connect();
        JobRunner runner(*second, m_root.path());
        auto status = runner.status(job);
        QVERIFY(status.ok());
        QCOMPARE(status->state, JobState::Running);
        open(job);
        const JobInfo ended = waitEnded(runner, job);
        QCOMPARE(ended.state, JobState::Exited);
        QCOMPARE(ended.exitCode, std::optional<int>(4));
    }

    // A SessionWorker (jobs, Verify, the idle guard) goes without waiting for the task it runs:
    // here the task is held by this very thread, so a join would never return. The task then
    // hands its results back only to posters that still live.
    void sessionWorkerGoesWithoutWaitingForItsTask()
    {
        auto started = std::make_shared<QSemaphore>();
        auto release = std::make_shared<QSemaphore>();
        auto connected = std::make_shared<std::atomic_bool>(false);
        auto *poster = new QObject;
        auto *witness = new QObject;
        bool posterHeard = false;
        bool witnessHeard = false;
        {
            gantry::jobs::SessionWorker worker(m_sshd.target(), m_sshd.connectOptions());
            worker.post([started, release, connected, p = QPointer<QObject>(poster), w = QPointer<QObject>(witness),
                         &posterHeard, &witnessHeard](ssh::Session *session, const Error *) {
                *connected = session != nullptr;
                started->release();
                release->acquire();
                gantry::background::deliver(p, [&posterHeard] { posterHeard = true; });
                gantry::background::deliver(w, [&witnessHeard] { witnessHeard = true; });
            });
            QVERIFY(started->tryAcquire(1, 15000));
        }
        QVERIFY(connected->load());
        delete poster;
        release->release();
        QVERIFY(gantry::ssh::SessionThread::waitForRetired(15000)); // the retired thread ended
        QTRY_VERIFY(witnessHeard);
        QVERIFY(!posterHeard);
        delete witness;
    }
};

QTEST_GUILESS_MAIN(TestJobsRemote)
#include "test_jobs_remote.moc"
