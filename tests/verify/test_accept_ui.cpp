// SPDX-License-Identifier: Apache-2.0
// The Verify tab's Acceptance test: the result of a faulty 8x H100 capture rendered offscreen
// (1024x700 and 1600x1000, PNGs in the temp folder), its model under QAbstractItemModelTester,
// the printable report saved off the GUI thread, and the button end to end against the real
// test sshd (no GPU: incomplete, never a pass).
#include "acceptfixtures.h"
#include "sshdfixture.h"

#include "core/ssh/connection.h"
#include "core/verify/probe.h"
#include "ui/verify/acceptancepanel.h"
#include "ui/verify/verifytab.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::ui;
using namespace gantry::verify;

namespace {

Acceptance faultyMachine()
{
    VerifyOutcome outcome;
    outcome.doctorOutput = test::doctorWith(
        test::onGpu(test::capture(test::kH100x8), 3, QStringLiteral("Pending"), QStringLiteral("Yes"), 4),
        QStringLiteral("[ 812.5] NVRM: Xid (PCI:0000:2a:00): 63, pid=0, Row remapping event"), 0);
    outcome.probe = probeFromDoctor(outcome.doctorOutput);
    Acceptance a = judgeAcceptance(outcome, SpecTable::builtIn(), ReferenceTable::installed(),
                                   AcceptExpectation{QStringLiteral("H100 SXM"), 8});
    a.host = QStringLiteral("lambda-h100x8");
    a.machine.provider = QStringLiteral("lambda");
    a.machine.hourlyPriceUsd = 23.92;
    a.started = QDateTime(QDate(2026, 12, 5), QTime(10, 0), Qt::UTC);
    a.finished = a.started.addSecs(84);
    return a;
}

} // namespace

class TestAcceptUi final : public QObject
{
    Q_OBJECT

private slots:
    void model()
    {
        AcceptanceModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Acceptance a = faultyMachine();
        model.setChecks(a.checks);
        QCOMPARE(model.rowCount(), int(a.checks.size()));
        QCOMPARE(model.index(0, AcceptanceModel::GpuColumn).data().toString(), QStringLiteral("Machine"));
        int failedRow = -1;
        for (int row = 0; row < model.rowCount(); ++row) {
            if (model.index(row, AcceptanceModel::StatusColumn).data().toString() == QStringLiteral("Fail"))
                failedRow = row;
        }
        QVERIFY(failedRow >= 0);
        QCOMPARE(model.index(failedRow, AcceptanceModel::GpuColumn).data().toString(), QStringLiteral("3"));
        QCOMPARE(model.index(failedRow, AcceptanceModel::CheckColumn).data().toString(), QStringLiteral("remapped-rows"));
    }

    void rendersAndSaves_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x700") << QSize(1024, 700);
        QTest::newRow("1600x1000") << QSize(1600, 1000);
    }
    void rendersAndSaves()
    {
        QFETCH(QSize, size);
        VerifyTab tab(AppContext{});
        tab.resize(size);
        SavedHost host;
        host.name = QStringLiteral("lambda-h100x8");
        tab.setMachine(host, nullptr);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        tab.showAcceptance(faultyMachine());
        AcceptancePanel *panel = tab.acceptancePanel();
        QVERIFY(panel->isVisible());
        QVERIFY2(panel->verdictText().startsWith(QStringLiteral("FAIL — Return it")), qPrintable(panel->verdictText()));
        const QImage image = tab.grab().toImage();
        QCOMPARE(image.size(), size);
        image.save(QDir::temp().filePath(QStringLiteral("gantry-accept-%1x%2.png").arg(size.width()).arg(size.height())));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("report.html"));
        QSignalSpy saved(panel, &AcceptancePanel::reportSaved);
        panel->saveReport(path);
        QVERIFY(saved.wait(10000));
        QCOMPARE(saved.first().at(1).toString(), QString());
        QFile report(path);
        QVERIFY(report.open(QIODevice::ReadOnly));
        const QByteArray html = report.readAll();
        QVERIFY(html.contains("lambda-h100x8") && html.contains("$23.92/h") && html.contains("remapped-rows"));
        QVERIFY(html.contains("Row remapping") || html.contains("row remapping"));
    }

    // The button against a machine without a GPU: incomplete, and says why.
    void buttonEndToEnd()
    {
        test::SshdFixture sshd;
        const QString error = sshd.start();
        GANTRY_REQUIRE_SSHD(error);
        QTemporaryDir config;
        AppContext context;
        context.configDir = config.path();
        VerifyTab tab(context);
        ssh::Connection connection(sshd.target());
        connection.connectToHost(sshd.connectOptions());
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ssh::ConnectionState::Connected, 15000);
        SavedHost host;
        host.name = QStringLiteral("plain");
        host.target = sshd.target();
        tab.setMachine(host, &connection);
        QPushButton *accept = nullptr;
        for (QPushButton *b : tab.findChildren<QPushButton *>()) {
            if (b->text() == QStringLiteral("Acceptance test"))
                accept = b;
        }
        QVERIFY(accept && accept->isEnabled());
        QSignalSpy finished(&tab, &VerifyTab::runFinished);
        accept->click();
        QVERIFY(tab.isRunning());
        QVERIFY(finished.wait(60000));
        QVERIFY2(tab.acceptancePanel()->verdictText().startsWith(QStringLiteral("INCOMPLETE")),
                 qPrintable(tab.acceptancePanel()->verdictText() + tab.statusText()));
    }
};

QTEST_MAIN(TestAcceptUi)
#include "test_accept_ui.moc"
