// The Monitor tab's "Idle guard on the instance" against the real test sshd: install, the status it
// reports, remembered across a reconnect (guards.json), remove; a provider without a self-stop says
// to use the watcher; rendered at 1024x700 and 1440x900.
#include "core/guard/guardoperation.h"
#include "core/monitor/monitorservice.h"
#include "core/ssh/connection.h"
#include "tests/support/sshdfixture.h"
#include "ui/monitor/guardpanel.h"
#include "ui/monitor/monitortab.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::ui::monitor;

class TestGuardUi final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_config;
    QTemporaryDir m_remote; // the guard's folder on the "machine" (the sshd runs as this user)
    QString m_shots = qEnvironmentVariable("GANTRY_SCREENSHOTS");

    static SavedHost runpodHost(const test::SshdFixture &sshd)
    {
        SavedHost host;
        host.name = QStringLiteral("runpod-a100");
        host.target = sshd.target();
        host.provider = QStringLiteral("runpod");
        host.instanceId = QStringLiteral("pod123");
        return host;
    }

    void shoot(QWidget &widget, const QString &name)
    {
        for (const QSize size : {QSize(1024, 700), QSize(1440, 900)}) {
            widget.resize(size);
            QTest::qWait(30);
            const QImage image = widget.grab().toImage();
            QVERIFY(!image.isNull());
            if (!m_shots.isEmpty())
                image.save(QDir(m_shots).filePath(QStringLiteral("%1-%2x%3.png").arg(name).arg(size.width()).arg(size.height())));
        }
    }

    // The status line is read in full: wrapped, never cut off.
    static void checkStatusFits(GuardPanel &panel)
    {
        auto *label = panel.findChild<QLabel *>(QStringLiteral("guardStatus"));
        QVERIFY(label->wordWrap());
        QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                 qPrintable(QStringLiteral("status cut at %1 px: %2").arg(label->height()).arg(label->text())));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_config.isValid() && m_remote.isValid());
    }

    void installShowsRemembersAndRemoves()
    {
        test::SshdFixture sshd;
        GANTRY_REQUIRE_SSHD(sshd.start());
        const QString remoteDir = m_remote.filePath(QStringLiteral("guard"));
        monitor::MonitorService service(nullptr, sshd.knownHostsPath());
        MonitorTab tab(&service, m_config.path());
        GuardPanel *panel = tab.guardPanel();
        panel->setRemoteDir(remoteDir);
        ssh::Connection connection(sshd.target());
        connection.connectToHost(sshd.connectOptions());
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ssh::ConnectionState::Connected, 15000);
        const SavedHost host = runpodHost(sshd);
        tab.setMachine(host, &connection);
        tab.show();
        QVERIFY(panel->isAvailable());
        QVERIFY2(panel->statusText().startsWith(QStringLiteral("Off.")), qPrintable(panel->statusText()));
        QVERIFY(panel->statusText().contains(QStringLiteral("RunPod key")));
        auto *install = panel->findChild<QPushButton *>(QStringLiteral("guardInstall"));
        auto *remove = panel->findChild<QPushButton *>(QStringLiteral("guardRemove"));
        QVERIFY(install->isEnabled());
        QVERIFY(!remove->isEnabled());

        panel->findChild<QSpinBox *>(QStringLiteral("guardMinutes"))->setValue(45);
        panel->findChild<QComboBox *>(QStringLiteral("guardAction"))->setCurrentIndex(1); // then terminate
        QSignalSpy finished(panel, &GuardPanel::finished);
        install->click();
        QVERIFY(panel->isBusy()); // the GUI thread did not wait for the machine
        QVERIFY(!install->isEnabled());
        QVERIFY(finished.wait(30000));
        QVERIFY2(panel->lastStatus() && panel->lastStatus()->installed, qPrintable(panel->statusText()));
        QVERIFY(panel->lastStatus()->running);
        QVERIFY(QFileInfo::exists(remoteDir + QStringLiteral("/guard.sh")));
        QVERIFY2(panel->statusText().startsWith(QStringLiteral("On:")), qPrintable(panel->statusText()));
        QVERIFY(panel->statusText().contains(QStringLiteral("45 idle minute")));
        QCOMPARE(install->text(), QStringLiteral("Update"));
        QVERIFY(remove->isEnabled());
        QCOMPARE(guard::GuardStore(m_config.path()).load().value(host.name).idleMinutes, 45);
        QCOMPARE(guard::GuardStore(m_config.path()).load().value(host.name).action, guard::GuardAction::Terminate);
        QVERIFY2(panel->statusText().contains(QStringLiteral("terminates the pod")), qPrintable(panel->statusText()));
        shoot(tab, QStringLiteral("monitor-guard-on"));
        checkStatusFits(*panel);

        {
            // A reconnect (a new tab, as after restarting the app): remembered, so it asks the machine.
            MonitorTab again(&service, m_config.path());
            again.guardPanel()->setRemoteDir(remoteDir);
            QSignalSpy checked(again.guardPanel(), &GuardPanel::finished);
            again.setMachine(host, &connection);
            QVERIFY(checked.wait(30000));
            QVERIFY(again.guardPanel()->lastStatus() && again.guardPanel()->lastStatus()->installed);
            QCOMPARE(again.guardPanel()->findChild<QSpinBox *>(QStringLiteral("guardMinutes"))->value(), 45);
            QCOMPARE(again.guardPanel()->findChild<QComboBox *>(QStringLiteral("guardAction"))->currentIndex(), 1);
            QCOMPARE(again.guardPanel()->lastStatus()->action, QStringLiteral("terminate"));
        }

        finished.clear();
        remove->click();
        QVERIFY(finished.wait(30000));
        QVERIFY(panel->lastStatus() && !panel->lastStatus()->installed);
        QVERIFY(!QFileInfo::exists(remoteDir));
        QVERIFY(!guard::GuardStore(m_config.path()).load().contains(host.name));
        QCOMPARE(install->text(), QStringLiteral("Install"));
    }

    // An install belongs to its machine: the panel moved to another machine is free at once (it
    // used to wait for the install's session to stop), the install still ends and is remembered,
    // and the machine shown again says how it ended.
    void installGoesOnWhileAnotherMachineIsShown()
    {
        test::SshdFixture sshd;
        GANTRY_REQUIRE_SSHD(sshd.start());
        const QString remoteDir = m_remote.filePath(QStringLiteral("guard-switch"));
        monitor::MonitorService service(nullptr, sshd.knownHostsPath());
        guard::MachineGuards guards(m_config.path());
        guards.setRemoteDir(remoteDir);
        MonitorTab tab(&service, m_config.path(), &guards);
        GuardPanel *panel = tab.guardPanel();
        ssh::Connection connection(sshd.target());
        connection.connectToHost(sshd.connectOptions());
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ssh::ConnectionState::Connected, 15000);
        SavedHost host = runpodHost(sshd);
        host.name = QStringLiteral("switch-pod");
        tab.setMachine(host, &connection);
        QSignalSpy answered(&guards, &guard::MachineGuards::answered);
        QSignalSpy finished(panel, &GuardPanel::finished);
        panel->findChild<QPushButton *>(QStringLiteral("guardInstall"))->click();
        QVERIFY(panel->isBusy());

        SavedHost lambda;
        lambda.name = QStringLiteral("lambda-box");
        lambda.provider = QStringLiteral("lambda");
        tab.setMachine(lambda, nullptr);
        QVERIFY(!panel->isBusy());
        const QString lambdaText = panel->statusText();
        QVERIFY(answered.wait(30000));
        QCOMPARE(answered.first().first().toString(), host.name);
        QCOMPARE(finished.count(), 0);
        QCOMPARE(panel->statusText(), lambdaText);
        QVERIFY(guard::GuardStore(m_config.path()).load().contains(host.name));

        tab.setMachine(host, &connection);
        // The install's answer, kept while another machine was shown: no second question needed.
        QVERIFY2(panel->lastStatus() && panel->lastStatus()->installed, qPrintable(panel->statusText()));
        QVERIFY2(panel->statusText().startsWith(QStringLiteral("On:")), qPrintable(panel->statusText()));
        QVERIFY(!panel->isBusy());
        finished.clear();
        panel->findChild<QPushButton *>(QStringLiteral("guardRemove"))->click();
        QVERIFY(finished.wait(30000));
        QVERIFY(!guard::GuardStore(m_config.path()).load().contains(host.name));
    }

    void lambdaSaysToUseTheWatcher()
    {
        monitor::MonitorService service(nullptr);
        MonitorTab tab(&service, m_config.path());
        SavedHost host;
        host.name = QStringLiteral("lambda-h100");
        host.provider = QStringLiteral("lambda");
        tab.setMachine(host, nullptr);
        tab.show();
        GuardPanel *panel = tab.guardPanel();
        QVERIFY(!panel->isAvailable());
        QVERIFY2(panel->statusText().contains(QStringLiteral("gantry-cli watch")), qPrintable(panel->statusText()));
        QVERIFY(panel->statusText().contains(QStringLiteral("When idle")));
        QVERIFY(!panel->findChild<QPushButton *>(QStringLiteral("guardInstall"))->isVisible());
        shoot(tab, QStringLiteral("monitor-guard-lambda"));
        checkStatusFits(*panel);
    }
};

QTEST_MAIN(TestGuardUi)
#include "test_guard_ui.moc"
