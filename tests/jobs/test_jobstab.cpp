#include "sshdfixture.h"

#include "ui/jobs/boundedlogview.h"
#include "ui/jobs/joblistmodel.h"
#include "ui/jobs/jobstab.h"
#include "ui/jobs/runjobdialog.h"

#include "core/jobs/jobservice.h"
#include "core/ssh/connection.h"
#include "core/tunnel/tunnelmanager.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
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

    // Connects to the test sshd and shows it on tab as the host "local".
    bool showLocal(ui::JobsTab &tab, ssh::Connection &connection)
    {
        connection.connectToHost(m_sshd.connectOptions());
        if (!QTest::qWaitFor([&connection] { return connection.state() == ssh::ConnectionState::Connected; }, 60000))
            return false;
        SavedHost host;
        host.name = QStringLiteral("local");
        host.target = m_sshd.target();
        tab.setMachine(host, &connection);
        return true;
    }

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
        QVERIFY(showLocal(tab, connection));
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

    // Stop asks first, like Remove; and "Stopping …" gives way once the job has ended (it stayed).
    void stopAsksAndTheStatusFollows()
    {
        const ssh::Target target = m_sshd.target();
        const ssh::ConnectOptions options = m_sshd.connectOptions();
        jobs::JobService service([target, options](const QString &, ssh::Target *t, ssh::ConnectOptions *o) {
            *t = target;
            *o = options;
            return true;
        });
        service.setJobsRoot(m_root.filePath(QStringLiteral("stop")));
        service.setPollInterval(300);
        tunnel::TunnelManager tunnels;
        ui::AppContext context;
        context.configDir = m_config.path();
        ui::JobsTab tab(context, &service, &tunnels);
        tab.show();
        ssh::Connection connection(target);
        QVERIFY(showLocal(tab, connection));
        jobs::JobSpec spec;
        spec.name = QStringLiteral("stopme");
        spec.command = QStringLiteral("sleep 600");
        QSignalSpy started(&service, &jobs::JobService::jobStarted);
        service.start(QStringLiteral("local"), spec);
        QVERIFY(started.wait(120000));
        QTRY_COMPARE_WITH_TIMEOUT(tab.selectedJob(), QStringLiteral("stopme"), 60000);
        QPushButton *stop = nullptr;
        for (QPushButton *b : tab.findChildren<QPushButton *>())
            stop = b->text() == QStringLiteral("Stop") ? b : stop;
        QTRY_VERIFY_WITH_TIMEOUT(stop && stop->isEnabled(), 30000);

        // Answers the question box once it is up; records its text.
        QString asked;
        auto answer = [&asked](QMessageBox::StandardButton which) {
            auto *timer = new QTimer;
            QObject::connect(timer, &QTimer::timeout, timer, [timer, which, &asked] {
                if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                    asked = box->text();
                    box->button(which)->click();
                    timer->deleteLater();
                }
            });
            timer->start(20);
        };
        answer(QMessageBox::No);
        stop->click();
        QVERIFY2(asked.contains(QStringLiteral("stopme")), qPrintable(asked));
        QVERIFY(service.hasRunningJobs(QStringLiteral("local"))); // No: still running
        asked.clear();
        answer(QMessageBox::Yes);
        stop->click();
        QVERIFY(!asked.isEmpty());
        QVERIFY(tab.statusText().startsWith(QStringLiteral("Stopping stopme")));
        QTRY_VERIFY_WITH_TIMEOUT(!service.hasRunningJobs(QStringLiteral("local")), 60000);
        QTRY_VERIFY2_WITH_TIMEOUT(tab.statusText().startsWith(QStringLiteral("stopme stopped")), qPrintable(tab.statusText()), 30000);
        tab.clearMachine();
        service.unwatch(QStringLiteral("local"));
    }
};

QTEST_MAIN(TestJobsTab)
#include "test_jobstab.moc"
