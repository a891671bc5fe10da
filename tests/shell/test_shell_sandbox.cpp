// The newcomer's first minute, end to end with the real services (AppServices and the shell
// wiring, as gantry builds them) and the sandbox's real sshd: one click on "Try the local
// sandbox" ends with a connected machine row.
#include "appservices.h"
#include "shellwiring.h"

#include "hosts/connectionmanager.h"
#include "providers/await.h"
#include "providers/providerhub.h"
#include "shell/machinetablemodel.h"
#include "shell/mainwindow.h"
#include "shell/welcomepage.h"
#include "util/secretstore.h"

#include <QFileInfo>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;

class TestShellSandbox : public QObject
{
    Q_OBJECT

private slots:
    void trySandboxEndsConnected()
    {
        if (!QFileInfo::exists(QStringLiteral("/usr/sbin/sshd")))
            QSKIP("openssh-server is not installed");
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        ui::MainWindow window(config.path(), secrets.get());
        window.confirmHostKey = [](const ssh::HostKeyInfo &) { return true; }; // a fresh sandbox key
        auto *services = new app::AppServices(&window, secrets.get());
        new app::ShellWiring(&window, services, secrets.get());
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.welcomePage()->isVisible());

        window.welcomePage()->sandboxButton()->click();
        QVERIFY(!window.welcomePage()->sandboxButton()->isEnabled()); // no second launch by a double click
        QTRY_COMPARE_WITH_TIMEOUT(window.machineModel()->rowCount(), 1, 60000);
        QVERIFY(!window.welcomePage()->isVisible());
        const QString host = window.machineModel()->index(0, 0).data(ui::MachineTableModel::HostNameRole).toString();
        QTRY_COMPARE_WITH_TIMEOUT(window.machineModel()->state(host), ssh::ConnectionState::Connected, 60000);
        QCOMPARE(window.selectedHost(), host);
        QCOMPARE(window.currentPanel(), QStringLiteral("machines"));

        // Leave no sshd behind.
        providers::Provider *sandbox = services->providers()->provider(QStringLiteral("sandbox"));
        auto instances = providers::await<QList<providers::Instance>>([&](auto done) { sandbox->listInstances(done); });
        QVERIFY(instances);
        for (const providers::Instance &instance : std::as_const(*instances))
            QVERIFY(providers::await<void>([&](auto done) { sandbox->terminate(instance.id, done); }));
    }
};

QTEST_MAIN(TestShellSandbox)
#include "test_shell_sandbox.moc"
