// A long Verify never holds up the machine's other tabs, and a Cancel stops one operation only.
// Against the real test sshd: a "GPU" host (a fake nvidia-smi) where the uploaded fake
// gantry-verify waits for a gate file that the test creates once it has checked the other tabs.
#include "sshdfixture.h"

#include "ui/shell/overviewtab.h"
#include "core/ssh/connection.h"
#include "core/sync/syncservice.h"
#include "ui/transfer/filestab.h"
#include "ui/transfer/remotedirmodel.h"
#include "core/transfer/sessionfactory.h"
#include "core/verify/machinechecks.h"
#include "ui/verify/verifytab.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace gantry;
using namespace gantry::ui;

namespace {

const QString kFixtures = QStringLiteral(GANTRY_FIXTURES_DIR "/nvidia-smi/");
const QString kData = QStringLiteral(GANTRY_TEST_SOURCE_DIR "/verify/data/");

using gantry::test::writeScript;

bool touch(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly);
}

QPushButton *button(QWidget *parent, const QString &text)
{
    const QList<QPushButton *> buttons = parent->findChildren<QPushButton *>();
    for (QPushButton *b : buttons) {
        if (b->text() == text)
            return b;
    }
    return nullptr;
}

} // namespace

class TestVerifyTabs : public QObject
{
    Q_OBJECT

    QTemporaryDir m_bin;   // the host's PATH: the fake nvidia-smi
    QTemporaryDir m_local; // the fake gantry-verify, its marker and gate files, the remote cache
    QTemporaryDir m_config;
    test::SshdFixture m_sshd;

    SavedHost host() const
    {
        SavedHost h;
        h.name = QStringLiteral("gpu-box");
        h.target = m_sshd.target();
        return h;
    }

    // A gantry-verify that says it started (a marker file and a progress line), waits for the gate
    // (at most 60 s, so a broken test cannot hang), then replays a recorded passing H200 run.
    QString gatedVerify(const QString &name)
    {
        const QString path = m_local.filePath(name);
        const QString started = path + QStringLiteral(".started");
        const QString gate = path + QStringLiteral(".gate");
        const bool written = writeScript(
            path, QStringLiteral("#!/bin/sh\n"
                                 ": > '%1'\n"
                                 "echo 'gantry-verify: [  1%] identity: waiting for the test' >&2\n"
                                 "i=0; while [ ! -e '%2' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done\n"
                                 "cat '%3h200-pass.json'\n")
                      .arg(started, gate, kData));
        return written ? path : QString();
    }

    // Starts a run of the gated program on tab and waits until it runs on the machine.
    bool startGatedRun(VerifyTab &tab, const QString &program)
    {
        tab.setBinaryPath(program);
        tab.setRemoteCacheDir(m_local.filePath(QStringLiteral("cache")));
        QPushButton *run = button(&tab, QStringLiteral("Run verification"));
        if (!run || !run->isEnabled())
            return false;
        run->click();
        return tab.isRunning();
    }

    void connectTo(ssh::Connection &connection)
    {
        connection.connectToHost(m_sshd.connectOptions());
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ssh::ConnectionState::Connected, 20000);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_bin.isValid() && m_local.isValid() && m_config.isValid());
        QVERIFY(writeScript(m_bin.filePath(QStringLiteral("nvidia-smi")),
                            QStringLiteral("#!/bin/sh\ncase \"$*\" in\n"
                                           "  -q) cat '%1q-h200-driver590.48.01-linux-idle-nvgpuexp.txt' ;;\n"
                                           "  *--query-compute-apps*) echo 'gpu_uuid, pid, process_name, used_gpu_memory [MiB]' ;;\n"
                                           "  *compute_cap*) echo 9.0 ;;\n"
                                           "  *) exit 0 ;;\nesac\n")
                                .arg(kFixtures)));
        test::SshdFixture::Options options;
        options.binDir = m_bin.path();
        const QString error = m_sshd.start(options);
        GANTRY_REQUIRE_SSHD(error);
    }

    // Overview's Cancel used to set the machine's one cancel flag, which the running Verify polled.
    void overviewCancelLeavesVerifyRunning()
    {
        const QString program = gatedVerify(QStringLiteral("gantry-verify-overview"));
        QVERIFY(!program.isEmpty());
        ssh::Connection connection(m_sshd.target());
        connectTo(connection);
        AppContext context;
        context.configDir = m_config.path();
        OverviewTab overview;
        VerifyTab verify(context);
        overview.setMachine(host(), &connection);
        verify.setMachine(host(), &connection);
        QPushButton *refresh = button(&overview, QStringLiteral("Refresh"));
        QPushButton *cancel = button(&overview, QStringLiteral("Cancel"));
        QVERIFY(refresh && cancel);
        QTRY_VERIFY_WITH_TIMEOUT(refresh->isEnabled(), 20000); // the refresh on connect is done

        QSignalSpy finished(&verify, &VerifyTab::runFinished);
        QVERIFY(startGatedRun(verify, program));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(program + QStringLiteral(".started")), 30000);
        refresh->click();
        QVERIFY(!cancel->isHidden()); // the refresh runs
        cancel->click();
        // Overview is usable meanwhile: its (cancelled) refresh ends while Verify still waits.
        QTRY_VERIFY_WITH_TIMEOUT(refresh->isEnabled(), 20000);
        QVERIFY2(verify.isRunning(), qPrintable(verify.statusText()));

        QVERIFY(touch(program + QStringLiteral(".gate")));
        QVERIFY(finished.wait(30000));
        QVERIFY2(verify.bannerText().startsWith(QStringLiteral("PASS")),
                 qPrintable(QStringLiteral("Overview's Cancel must not cancel Verify; banner: ") + verify.bannerText()));
    }

    // Overview's fix lines were cut at "…" with no way to read them: each row has its whole text as
    // tooltip and Copy takes it; the fix names the driver Doctor names; a simulated GPU says so.
    void overviewFixLinesAndSimulatedGpu()
    {
        OverviewTab tab;
        tab.resize(1024, 700);
        tab.show();
        const MachineFacts none = parseMachineFacts("@@os\nUbuntu 24.04\n@@gpus\n__none__\n@@python\n3.12.3\n@@end\n");
        tab.showFacts(none);
        auto *tree = tab.findChild<QTreeWidget *>();
        QVERIFY(tree);
        const QList<QTreeWidgetItem *> problems = tree->findItems(QStringLiteral("Problem"), Qt::MatchExactly);
        QCOMPARE(problems.size(), 1);
        int saidTimes = 0; // the cause once, in its Problem row with the fix (the GPUs row said it too)
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            saidTimes += int(tree->topLevelItem(i)->text(1).count(QStringLiteral("no NVIDIA driver found")));
        QCOMPARE(saidTimes, 1);
        QTreeWidgetItem *problem = problems.first();
        QCOMPARE(problem->toolTip(1), problem->text(1));
        QVERIFY(problem->text(1).contains(QStringLiteral("nvidia-driver-%1").arg(kRecommendedDriverMajor)));
        tree->clearSelection();
        problem->setSelected(true);
        const QString copied = tab.copySelected();
        QCOMPARE(QApplication::clipboard()->text(), copied);
        QVERIFY(copied.contains(QStringLiteral("Fix: ")) && copied.endsWith(none.problems.first().fix));
        auto *copy = tree->actions().value(0);
        QVERIFY(copy && copy->shortcut() == QKeySequence(QKeySequence::Copy));

        MachineFacts simulated = parseMachineFacts("@@gpus\n0, NVIDIA H100 80GB HBM3, GPU-1, 81559, 590.48.01\n@@smi\n"
                                                   "Gantry simulated GPU (sandbox)\n@@end\n");
        QVERIFY(simulated.simulatedGpu);
        tab.showFacts(simulated);
        QCOMPARE(tree->findItems(QStringLiteral("Simulated GPU"), Qt::MatchExactly).size(), 1);
        QVERIFY(tree->findItems(QStringLiteral("GPU 0"), Qt::MatchExactly).value(0)->text(1).contains(QStringLiteral("simulated GPU")));
    }

    // Refresh needs the machine: it is disabled once the connection is gone.
    void overviewRefreshGoesWithTheMachine()
    {
        auto connection = std::make_unique<ssh::Connection>(m_sshd.target());
        connectTo(*connection);
        OverviewTab overview;
        overview.setMachine(host(), connection.get());
        QPushButton *refresh = button(&overview, QStringLiteral("Refresh"));
        QTRY_VERIFY_WITH_TIMEOUT(refresh->isEnabled(), 20000);
        connection.reset();
        QVERIFY(!refresh->isEnabled());
    }

    // Verify runs on a session of its own: the Files tab lists a folder while it runs.
    void filesListWhileVerifyRuns()
    {
        const QString program = gatedVerify(QStringLiteral("gantry-verify-files"));
        QVERIFY(!program.isEmpty());
        const QString folder = m_local.filePath(QStringLiteral("browse"));
        QVERIFY(QDir().mkpath(folder + QStringLiteral("/sub")));
        QVERIFY(touch(folder + QStringLiteral("/a.txt")));
        ssh::Connection connection(m_sshd.target());
        connectTo(connection);
        AppContext context;
        context.configDir = m_config.path();
        transfer::TransferQueue queue(m_config.path(), [](const QString &) -> Result<transfer::SessionFactory> {
            return Error::make(ErrorCode::NotFound, QStringLiteral("this test transfers nothing"));
        });
        sync::SyncService syncPairs(context.configDir, sync::SyncService::savedHostProvider(context.hosts, context.connections));
        // Listings on sessions of their own (the Files tab's RemoteFiles), beside Verify's.
        transfer::RemoteFiles remoteFiles([this](const QString &) -> Result<transfer::SessionFactory> {
            return transfer::makeSessionFactory(m_sshd.target(), m_sshd.connectOptions());
        });
        FilesTab files(context, &queue, &syncPairs, &remoteFiles);
        VerifyTab verify(context);
        QSignalSpy listed(&files, &FilesTab::listed);
        files.setMachine(host(), &connection);
        verify.setMachine(host(), &connection);
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000); // the home folder, shown on connect

        QSignalSpy finished(&verify, &VerifyTab::runFinished);
        QVERIFY(startGatedRun(verify, program));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(program + QStringLiteral(".started")), 30000);
        listed.clear();
        files.navigate(folder);
        QVERIFY2(listed.wait(20000), qPrintable(QStringLiteral("the Files tab waited behind Verify: ") + files.statusText()));
        QCOMPARE(files.currentPath(), folder);
        QCOMPARE(files.model()->rowCount(), 2);
        QVERIFY(verify.isRunning()); // the gate is still closed

        QVERIFY(touch(program + QStringLiteral(".gate")));
        QVERIFY(finished.wait(30000));
        QVERIFY2(verify.bannerText().startsWith(QStringLiteral("PASS")), qPrintable(verify.bannerText()));
    }

    // A check belongs to its machine, not to the tab: it goes on while the window shows another
    // machine (whose buttons are free), its end is not announced as the other machine's, its
    // result is there when its machine is shown again, and a tab destroyed meanwhile neither waits
    // for the check nor stops it.
    void checkBelongsToItsMachine()
    {
        const QString program = gatedVerify(QStringLiteral("gantry-verify-switch"));
        QVERIFY(!program.isEmpty());
        ssh::Connection first(m_sshd.target());
        ssh::Connection second(m_sshd.target());
        connectTo(first);
        connectTo(second);
        AppContext context;
        context.configDir = m_config.path();
        verify::MachineChecks checks(context.configDir);
        SavedHost other = host();
        other.name = QStringLiteral("other-box");
        QSignalSpy ended(&checks, &verify::MachineChecks::finished);
        {
            VerifyTab verify(context, &checks);
            verify.setMachine(host(), &first);
            QSignalSpy finished(&verify, &VerifyTab::runFinished);
            QVERIFY(startGatedRun(verify, program));
            QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(program + QStringLiteral(".started")), 30000);

            verify.setMachine(other, &second);
            QVERIFY(!verify.isRunning());
            QVERIFY(button(&verify, QStringLiteral("Run verification"))->isEnabled());
            QVERIFY(!button(&verify, QStringLiteral("Cancel"))->isEnabled());
            QVERIFY(checks.isRunning(host().name));

            QVERIFY(touch(program + QStringLiteral(".gate")));
            QVERIFY(ended.wait(30000));
            QCOMPARE(finished.count(), 0); // not this machine's
            QVERIFY2(verify.bannerText().isEmpty(), qPrintable(verify.bannerText()));

            verify.setMachine(host(), &first);
            QVERIFY2(verify.bannerText().startsWith(QStringLiteral("PASS")), qPrintable(verify.bannerText()));
            // Its own words, not the idle hint ("Ready to verify …").
            QVERIFY2(verify.statusText().startsWith(QStringLiteral("Finished in")), qPrintable(verify.statusText()));
        }

        // The tab goes while the next check runs: nothing waits, and the check still ends.
        QVERIFY(QFile::remove(program + QStringLiteral(".gate")) && QFile::remove(program + QStringLiteral(".started")));
        {
            VerifyTab verify(context, &checks);
            verify.setMachine(host(), &first);
            QVERIFY(startGatedRun(verify, program));
            QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(program + QStringLiteral(".started")), 30000);
        }
        QVERIFY(checks.isRunning(host().name));
        ended.clear();
        QVERIFY(touch(program + QStringLiteral(".gate")));
        QVERIFY(ended.wait(30000));
        const auto last = checks.last(host().name);
        QVERIFY(last && last->verify && *last->verify);
        QCOMPARE(last->verify->value().assessment.verdict, verify::Verdict::Pass);
    }

    // The machine goes away mid-check (its connection closed): the check is cancelled and ends, the
    // tab is free again, and nothing waits for the program still running on the machine.
    void disconnectingEndsTheCheck()
    {
        const QString program = gatedVerify(QStringLiteral("gantry-verify-gone"));
        QVERIFY(!program.isEmpty());
        ssh::Connection connection(m_sshd.target());
        connectTo(connection);
        AppContext context;
        context.configDir = m_config.path();
        verify::MachineChecks checks(context.configDir);
        VerifyTab verify(context, &checks);
        verify.setMachine(host(), &connection);
        QSignalSpy ended(&checks, &verify::MachineChecks::finished);
        QVERIFY(startGatedRun(verify, program));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(program + QStringLiteral(".started")), 30000);
        connection.disconnectFromHost();
        QVERIFY(ended.wait(30000)); // long before the program's own 60 s
        QVERIFY(!checks.isRunning(host().name));
        QVERIFY(!verify.isRunning());
        const auto last = checks.last(host().name);
        QVERIFY(last && last->verify && !*last->verify);
        QVERIFY(touch(program + QStringLiteral(".gate"))); // lets the orphaned fake program end
    }
};

QTEST_MAIN(TestVerifyTabs)
#include "test_verify_tabs.moc"
