// The whole window with its services (AppServices, as app/gui builds it) against the test sshd:
// the "Instance ready" notice of a launched instance gives way once the machine is connected, and
// the acceptance test is offered — or run, as Settings say.
#include "sshdfixture.h"

#include "app/gui/appservices.h"
#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"
#include "ui/providers/instancespanel.h"
#include "ui/verify/verifytab.h"
#include "core/util/appsettings.h"
#include "core/workspace/appcore.h"
#include "ui/shell/mainwindow.h"
#include "core/util/secretstore.h"

#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;

class TestInstanceReady final : public QObject
{
    Q_OBJECT

private slots:
    void readyNoticeGivesWayOnceConnected()
    {
        test::SshdFixture sshd;
        const QString error = sshd.start();
        GANTRY_REQUIRE_SSHD(error);
        QTemporaryDir config;
        const std::unique_ptr<SecretStore> secrets = makeMemorySecretStore();
        gantry::workspace::AppCore core(config.path(), secrets.get());
        core.open();
        ui::MainWindow window(&core);
        new app::AppServices(&window, &core); // owned by the window
        window.connections()->setKnownHostsFile(sshd.knownHostsPath());
        SavedHost host;
        host.name = QStringLiteral("walk-1");
        host.target = sshd.target();
        QVERIFY(window.connections()->hosts()->add(host));
        window.show();

        auto *instances = window.findChild<ui::InstancesPanel *>();
        QVERIFY(instances);
        emit instances->hostReady(QStringLiteral("walk-1")); // what a finished launch announces
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("is up; connecting")),
                 qPrintable(window.statusBar()->currentMessage()));
        QTRY_COMPARE_WITH_TIMEOUT(window.connections()->connection(QStringLiteral("walk-1"))->state(),
                                  ssh::ConnectionState::Connected, 20000);
        // It said "connecting" for 20 s after the connection was up; now it offers the acceptance test.
        QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().startsWith(QStringLiteral("walk-1 is up and connected.")), 5000);
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("acceptance test is on its Verify tab")),
                 qPrintable(window.statusBar()->currentMessage()));
        auto *verify = window.findChild<ui::VerifyTab *>();
        QVERIFY(verify && !verify->isRunning()); // offered, not run
    }

    // Settings → General → After a launch: "Run the acceptance test at once": the machine's Verify
    // tab comes to the front and the test starts as soon as the machine is connected.
    void acceptanceRunsAfterALaunchWhenSettingsSaySo()
    {
        test::SshdFixture sshd;
        const QString error = sshd.start();
        GANTRY_REQUIRE_SSHD(error);
        QTemporaryDir config;
        const auto setting = appsettings::findSetting(QStringLiteral("accept.after_launch"), {});
        QVERIFY(setting && appsettings::setValue(config.path(), *setting, QStringLiteral("run")));
        const std::unique_ptr<SecretStore> secrets = makeMemorySecretStore();
        gantry::workspace::AppCore core(config.path(), secrets.get());
        core.open();
        ui::MainWindow window(&core);
        new app::AppServices(&window, &core);
        window.connections()->setKnownHostsFile(sshd.knownHostsPath());
        SavedHost host;
        host.name = QStringLiteral("walk-2");
        host.target = sshd.target();
        QVERIFY(window.connections()->hosts()->add(host));
        window.show();
        auto *verify = window.findChild<ui::VerifyTab *>();
        QVERIFY(verify);
        verify->setRemoteCacheDir(config.filePath(QStringLiteral("remote-cache")));
        QSignalSpy finished(verify, &ui::VerifyTab::runFinished);
        emit window.findChild<ui::InstancesPanel *>()->hostReady(QStringLiteral("walk-2"));
        QTRY_VERIFY_WITH_TIMEOUT(verify->isRunning() || finished.count() > 0, 20000);
        QVERIFY(verify->isVisible()); // its tab is in front
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("acceptance test runs")),
                 qPrintable(window.statusBar()->currentMessage()));
    }
};

QTEST_MAIN(TestInstanceReady)
#include "test_instance_ready.moc"
