#include "sshdfixture.h"

#include "core/hosts/connectionmanager.h"
#include "core/hosts/machinefacts.h"
#include "ui/shell/addhostdialog.h"
#include "ui/shell/keysdialog.h"
#include "ui/shell/machinetablemodel.h"
#include "core/workspace/appcore.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/overviewtab.h"
#include "core/util/secretstore.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace gantry;
using namespace gantry::ui;

class TestShellWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_sshd.start().isEmpty()); }

    void connectsAndShowsRealFacts()
    {
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        gantry::workspace::AppCore core(config.path(), secrets.get());
        core.open();
        MainWindow window(&core);
        window.connections()->setKnownHostsFile(m_sshd.emptyKnownHostsPath());
        int asked = 0;
        window.confirmHostKey = [&asked, this](const ssh::HostKeyInfo &info) {
            ++asked;
            return info.fingerprint == m_sshd.hostKeyFingerprint();
        };
        SavedHost host;
        host.name = QStringLiteral("local");
        host.target = m_sshd.target();
        QVERIFY(window.hosts()->add(host).ok());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.selectHost(QStringLiteral("local"));
        QCOMPARE(window.selectedHost(), QStringLiteral("local"));
        window.connectSelected();
        QTRY_COMPARE_WITH_TIMEOUT(window.machineModel()->state(QStringLiteral("local")), ssh::ConnectionState::Connected, 15000);
        QCOMPARE(asked, 1);
        auto *overview = window.findChild<OverviewTab *>();
        QVERIFY(overview);
        auto *tree = overview->findChild<QTreeWidget *>();
        // The Overview gathers facts over SSH after connecting: the real kernel name shows up.
        QTRY_VERIFY_WITH_TIMEOUT(!tree->findItems(QStringLiteral("Kernel"), Qt::MatchExactly).isEmpty(), 30000);
        const QString kernel = tree->findItems(QStringLiteral("Kernel"), Qt::MatchExactly).first()->text(1);
        QVERIFY2(kernel.startsWith(QStringLiteral("Linux")), qPrintable(kernel));
        QVERIFY(!tree->findItems(QStringLiteral("GPUs"), Qt::MatchExactly).isEmpty()); // "no NVIDIA driver found" here

        const QString png = config.path() + QStringLiteral("/main-window.png");
        QVERIFY(window.grab().save(png));
        QVERIFY(QFileInfo(png).size() > 1000);
        const QString keep = qEnvironmentVariable("GANTRY_SCREENSHOT_DIR");
        if (!keep.isEmpty())
            QFile::copy(png, keep + QStringLiteral("/main-window.png"));
    }

    // The host-key question is open when the connection asking it goes (its host is removed): the
    // connection's destructor joins the worker that waits for this very answer. The worker gives
    // up on its closing flag instead of waiting for the GUI thread, so nothing hangs.
    void promptOpenWhileItsConnectionGoesEndsCleanly()
    {
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        gantry::workspace::AppCore core(config.path(), secrets.get());
        core.open();
        MainWindow window(&core);
        window.connections()->setKnownHostsFile(m_sshd.emptyKnownHostsPath());
        SavedHost host;
        host.name = QStringLiteral("asking");
        host.target = m_sshd.target();
        QVERIFY(window.hosts()->add(host).ok());
        int asked = 0;
        window.confirmHostKey = [&asked, &window](const ssh::HostKeyInfo &) {
            ++asked;
            window.connections()->forget(QStringLiteral("asking")); // returns only once the worker ended
            return true; // an answer nobody waits for any more
        };
        window.selectHost(QStringLiteral("asking"));
        window.connectSelected();
        QTRY_COMPARE_WITH_TIMEOUT(asked, 1, 15000);
        QVERIFY(!window.connections()->connection(QStringLiteral("asking")));
        QTest::qWait(100); // the late answer lands in a request nobody holds
        QCOMPARE(asked, 1);
        QVERIFY(QFile(m_sshd.emptyKnownHostsPath()).size() == 0 || !QFile::exists(m_sshd.emptyKnownHostsPath())); // not trusted
    }

    void deadHostDoesNotFreezeTheWindow()
    {
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        gantry::workspace::AppCore core(config.path(), secrets.get());
        core.open();
        MainWindow window(&core);
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        silent.pauseAccepting();
        SavedHost host;
        host.name = QStringLiteral("dead");
        host.target = m_sshd.target();
        host.target.port = silent.serverPort();
        QVERIFY(window.hosts()->add(host).ok());
        window.show();
        window.selectHost(QStringLiteral("dead"));
        QElapsedTimer timer;
        timer.start();
        window.connectSelected();
        QVERIFY2(timer.elapsed() < 500, "connect must return at once");
        // The event loop keeps turning while the connection hangs.
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
        ticker.start(50);
        QTest::qWait(1000);
        QVERIFY(ticks >= 10);
        QCOMPARE(window.machineModel()->state(QStringLiteral("dead")), ssh::ConnectionState::Connecting);
    }

    void overviewShowsProblemsWithFixes()
    {
        OverviewTab tab;
        const QByteArray recorded = "@@os\nUbuntu 22.04.4 LTS\n@@kernel\nLinux 5.15.0-105-generic x86_64\n@@cpu\n"
                                    " AMD EPYC 7J13 64-Core Processor\n30\n@@mem\nMemTotal: 231000000 kB\n"
                                    "MemAvailable: 220000000 kB\n@@disk\n/dev/vda1 1000000 990000 2000000 99% /\n"
                                    "@@gpus\n0, NVIDIA A100-SXM4-80GB, GPU-6a1b, 81920, 535.129.03\n@@smi\n"
                                    "| NVIDIA-SMI 535.129.03   Driver Version: 535.129.03   CUDA Version: 12.2     |\n"
                                    "@@python\n3.10.12\n@@torch\n2.3.0+cpu\nNone\nFalse\n0\n@@end\n";
        const MachineFacts facts = parseMachineFacts(recorded);
        QCOMPARE(facts.gpus.size(), 1);
        QCOMPARE(facts.cudaVersion, QStringLiteral("12.2"));
        QCOMPARE(facts.problems.size(), 2); // CPU-only PyTorch, disk nearly full
        tab.showFacts(facts);
        auto *tree = tab.findChild<QTreeWidget *>();
        QCOMPARE(tree->findItems(QStringLiteral("Problem"), Qt::MatchExactly).size(), 2);
    }

    void addHostDialogParsesLoginCommand()
    {
        AddHostDialog dialog;
        QVERIFY(dialog.applySshCommand(QStringLiteral("ssh -p 23456 root@connect.westb.seetacloud.com")));
        const SavedHost host = dialog.host();
        QCOMPARE(host.target.host, QStringLiteral("connect.westb.seetacloud.com"));
        QCOMPARE(host.target.port, 23456);
        QCOMPARE(host.target.user, QStringLiteral("root"));
        QCOMPARE(host.name, QStringLiteral("connect-23456"));
        // AutoDL bills in yuan: the price is kept in CNY, not as dollars.
        dialog.findChild<QDoubleSpinBox *>()->setValue(2.5);
        auto *currency = dialog.findChild<QComboBox *>(QStringLiteral("currency"));
        currency->setCurrentIndex(currency->findData(QStringLiteral("CNY")));
        QCOMPARE(dialog.host().currency(), QStringLiteral("CNY"));
        QCOMPARE(dialog.host().hourlyPrice(), 2.5);
        QCOMPARE(dialog.host().hourlyPriceUsd, 0.0);
        AddHostDialog again;
        again.setHost(dialog.host());
        QCOMPARE(again.host().currency(), QStringLiteral("CNY"));
    }

    void keysDialogGeneratesAndShowsPublicKey()
    {
        QTemporaryDir config;
        KeysDialog dialog(config.path());
        const QString path = config.path() + QStringLiteral("/keys/gantry_ed25519");
        QCOMPARE(dialog.generate(path), QString());
        QVERIFY(dialog.selectedPublicKey().startsWith(QStringLiteral("ssh-ed25519 ")));
        QCOMPARE(QFileInfo(path).permissions() & (QFile::ReadOther | QFile::ReadGroup), QFileDevice::Permissions());
        QVERIFY(!dialog.generate(path).isEmpty()); // refuses to overwrite
    }

private:
    test::SshdFixture m_sshd;
};

QTEST_MAIN(TestShellWindow)
#include "test_shell_window.moc"
