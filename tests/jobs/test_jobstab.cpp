#include "sshdfixture.h"

#include "jobs/boundedlogview.h"
#include "jobs/joblistmodel.h"
#include "jobs/jobstab.h"
#include "jobs/runjobdialog.h"

#include "jobs/jobservice.h"
#include "ssh/connection.h"
#include "tunnel/tunnelmanager.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>

using namespace gantry;

// The Jobs tab offscreen, driven by a real JobService against the test sshd.
class TestJobsTab final : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_config;
    QTemporaryDir m_root;

private slots:
    void initTestCase()
    {
        const QString error = m_sshd.start();
        GANTRY_REQUIRE_SSHD(error);
    }

    void boundedLog()
    {
        ui::BoundedLogView view;
        view.setMaxBytes(1000);
        for (int i = 0; i < 200; ++i)
            view.appendData(QByteArray("line ") + QByteArray::number(i) + '\n');
        QVERIFY(view.document()->characterCount() <= 1000);
        QVERIFY(view.toPlainText().endsWith(QStringLiteral("line 199\n")));
        QVERIFY(view.toPlainText().startsWith(QStringLiteral("line "))); // cut at a line start
        view.clearLog();
        view.appendData("caf\xc3");
        view.appendData("\xa9\n"); // a character split across chunks
        QCOMPARE(view.toPlainText(), QStringLiteral("caf\u00e9\n"));
    }

    void runDialog()
    {
        ui::RunJobDialog dialog;
        dialog.commandEdit()->setPlainText(QStringLiteral("python train.py"));
        dialog.nameEdit()->setText(QStringLiteral("bad name"));
        QVERIFY(!dialog.spec().ok());
        dialog.nameEdit()->setText(QStringLiteral("train"));
        auto spec = dialog.spec();
        QVERIFY(spec.ok());
        QCOMPARE(spec->name, QStringLiteral("train"));
        dialog.accept(); // stays open on bad input, closes here
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }

    void tabShowsJobsLogsAndExit()
    {
        const ssh::Target target = m_sshd.target();
        const ssh::ConnectOptions options = m_sshd.connectOptions();
        jobs::JobService service([target, options](const QString &, ssh::Target *t, ssh::ConnectOptions *o) {
            *t = target;
            *o = options;
            return true;
        });
        service.setJobsRoot(m_root.path());
        service.setPollInterval(300);
        tunnel::TunnelManager tunnels;
        ui::AppContext context;
        context.configDir = m_config.path();
        ui::JobsTab tab(context, &service, &tunnels);
        QAbstractItemModelTester tester(tab.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        tab.resize(1000, 700);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        QCOMPARE(tab.title(), QStringLiteral("Jobs"));

        ssh::Connection connection(target);
        QSignalSpy state(&connection, &ssh::Connection::stateChanged);
        connection.connectToHost(options);
        QTRY_VERIFY_WITH_TIMEOUT(connection.state() == ssh::ConnectionState::Connected, 60000);
        SavedHost host;
        host.name = QStringLiteral("local");
        host.target = target;
        tab.setMachine(host, &connection);
        QVERIFY(service.isWatched(QStringLiteral("local")));

        const QString gate = m_root.filePath(QStringLiteral("go"));
        jobs::JobSpec spec;
        spec.name = QStringLiteral("tabjob");
        spec.command = QStringLiteral("echo epoch 1; while [ ! -e %1 ]; do sleep 0.05; done; echo epoch 2; exit 2").arg(gate);
        QSignalSpy started(&service, &jobs::JobService::jobStarted);
        QSignalSpy exited(&service, &jobs::JobService::jobExited);
        service.start(QStringLiteral("local"), spec);
        QVERIFY(started.wait(120000));
        QTRY_COMPARE_WITH_TIMEOUT(tab.model()->rowCount(), 1, 60000);
        QVERIFY(service.hasRunningJobs(QStringLiteral("local")));
        QCOMPARE(tab.selectedJob(), QStringLiteral("tabjob")); // a started job is selected and followed
        QTRY_VERIFY_WITH_TIMEOUT(tab.logView()->toPlainText().contains(QStringLiteral("epoch 1")), 60000);

        // The followed log has a session of its own: meanwhile the machine's connection (the one
        // the Files tab lists with) and the job commands answer.
        std::atomic_bool beside{false};
        connection.post([&beside](ssh::Session &session) {
            if (auto ran = session.run(QStringLiteral("echo beside")); ran && ran->out == "beside\n")
                beside = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(beside.load(), 30000);
        QSignalSpy failed(&service, &jobs::JobService::operationFailed);
        service.stop(QStringLiteral("local"), QStringLiteral("no-such-job")); // answered by the commands session
        QVERIFY(failed.wait(30000));
        QVERIFY(service.hasRunningJobs(QStringLiteral("local"))); // still waiting on the gate, still followed

        QFile go(gate);
        QVERIFY(go.open(QIODevice::WriteOnly));
        go.close();
        QVERIFY(exited.count() > 0 || exited.wait(120000));
        const auto job = exited.first().at(1).value<jobs::JobInfo>();
        QCOMPARE(job.exitCode, std::optional<int>(2));
        QVERIFY(exited.first().at(2).toString().contains(QStringLiteral("epoch 2")));
        QVERIFY(!service.hasRunningJobs(QStringLiteral("local")));
        QTRY_VERIFY_WITH_TIMEOUT(tab.logView()->toPlainText().contains(QStringLiteral("epoch 2")), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(tab.model()->index(0, ui::JobListModel::StateColumn).data().toString(), QStringLiteral("exited 2"), 30000);

        // Result paths persist per host.
        tab.resultPathsEdit()->setPlainText(QStringLiteral("outputs/\n*.pth\n"));
        tab.grab().save(QDir(m_config.path()).filePath(QStringLiteral("jobstab.png")));
        tab.clearMachine();
        QCOMPARE(tab.model()->rowCount(), 0);
        service.unwatch(QStringLiteral("local"));
    }
};

QTEST_MAIN(TestJobsTab)
#include "test_jobstab.moc"
