// The Verify tab and its models, rendered offscreen from recorded results; the models under
// QAbstractItemModelTester. The last test drives the tab against the real test sshd.
#include "sshdfixture.h"

#include "core/ssh/connection.h"
#include "ui/verify/doctormodel.h"
#include "ui/verify/reputationmodel.h"
#include "ui/verify/verdictstyle.h"
#include "ui/verify/verifyresultsmodel.h"
#include "ui/verify/verifytab.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::ui;
using namespace gantry::verify;

namespace {

Report recorded(const char *name)
{
    QFile file(QStringLiteral(GANTRY_TEST_SOURCE_DIR "/verify/data/") + QString::fromUtf8(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing %s", name);
    auto report = parseReport(file.readAll());
    if (!report)
        qFatal("%s", qPrintable(report.error().message));
    return report.value();
}

// How often text appears in what the tab shows: its visible labels, findings and Doctor rows.
int shownCount(VerifyTab &tab, const QString &text)
{
    int count = 0;
    for (const QLabel *label : tab.findChildren<QLabel *>()) {
        if (label->isVisible())
            count += int(label->text().count(text));
    }
    for (const QPlainTextEdit *edit : tab.findChildren<QPlainTextEdit *>())
        count += int(edit->toPlainText().count(text));
    const DoctorModel *doctor = tab.doctorModel();
    for (int row = 0; row < doctor->rowCount(); ++row) {
        for (int column = 0; column < doctor->columnCount(); ++column)
            count += int(doctor->index(row, column).data().toString().count(text));
    }
    return count;
}

QPushButton *button(QWidget *parent, const QString &text)
{
    for (QPushButton *b : parent->findChildren<QPushButton *>()) {
        if (b->text() == text)
            return b;
    }
    return nullptr;
}

QList<DoctorCheck> someChecks()
{
    return {{QStringLiteral("nvidia-smi"), CheckStatus::Ok, QStringLiteral("nvidia-smi works"), QString()},
            {QStringLiteral("gpu-in-use"), CheckStatus::Warn, QStringLiteral("pid 42 uses 2 GiB"), QStringLiteral("kill it")},
            {QStringLiteral("ecc"), CheckStatus::Fail, QStringLiteral("row remap pending"), QStringLiteral("reset")}};
}

} // namespace

class TestVerifyUi : public QObject
{
    Q_OBJECT

private slots:
    void resultsModel()
    {
        VerifyResultsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setReport(recorded("rtx4090x2-miscompare-fail.json"));
        QCOMPARE(reset.size(), 1);
        QCOMPARE(model.rowCount(), 18);
        QCOMPARE(model.columnCount(), int(VerifyResultsModel::ColumnCount));
        // GPU 1's memory test (row 9 + 1)
        const QModelIndex verdict = model.index(10, VerifyResultsModel::VerdictColumn);
        QCOMPARE(model.data(verdict).toString(), QStringLiteral("Fail"));
        QCOMPARE(model.data(verdict, VerifyResultsModel::VerdictRole).toInt(), int(Verdict::Fail));
        QVERIFY(model.data(verdict, Qt::ForegroundRole).value<QColor>().isValid());
        QVERIFY(model.data(model.index(10, VerifyResultsModel::TestColumn), Qt::ToolTipRole).toString()
                    .contains(QStringLiteral("miscompares")));
        QCOMPARE(model.data(model.index(2, VerifyResultsModel::MeasuredColumn)).toString(), QStringLiteral("912 GB/s"));
        QCOMPARE(model.data(model.index(2, VerifyResultsModel::RatioColumn)).toString(), QStringLiteral("91%"));
        QCOMPARE(model.data(model.index(0, VerifyResultsModel::RatioColumn)).toString(), QStringLiteral("—"));
        QCOMPARE(model.headerData(VerifyResultsModel::ExpectedColumn, Qt::Horizontal).toString(), QStringLiteral("Expected"));

        QSortFilterProxyModel proxy;
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setSortRole(VerifyResultsModel::SortRole);
        proxy.sort(VerifyResultsModel::VerdictColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.data(proxy.index(0, VerifyResultsModel::VerdictColumn)).toString(), QStringLiteral("Fail"));
        proxy.sort(VerifyResultsModel::RatioColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.data(proxy.index(0, VerifyResultsModel::RatioColumn)).toString(), QStringLiteral("96%"));

        model.setReport(recorded("h200-pass.json"));
        QCOMPARE(model.rowCount(), 9);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void doctorModel()
    {
        DoctorModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setChecks(someChecks());
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.data(model.index(0, DoctorModel::StatusColumn)).toString(), QStringLiteral("OK"));
        QCOMPARE(model.data(model.index(2, DoctorModel::StatusColumn)).toString(), QStringLiteral("Fail"));
        QCOMPARE(model.data(model.index(2, DoctorModel::FixColumn)).toString(), QStringLiteral("reset"));
        QVERIFY(model.data(model.index(1, DoctorModel::MessageColumn), Qt::ToolTipRole).toString().contains(QStringLiteral("Fix: kill it")));
        model.setChecks({});
        QCOMPARE(model.rowCount(), 0);
    }

    void rendersRecordedResult()
    {
        QTemporaryDir config;
        AppContext context;
        context.configDir = config.path();
        VerifyTab tab(context);
        QCOMPARE(tab.title(), QStringLiteral("Verify"));
        tab.resize(1100, 800);
        SavedHost host;
        host.name = QStringLiteral("h200-box");
        host.hourlyPriceUsd = 3.5;
        tab.setMachine(host, nullptr);
        VerifyOutcome outcome;
        outcome.report = recorded("h200-pass.json");
        outcome.report.methodReason = QStringLiteral("Driver 580.95.05 runs the bundled gantry-verify.");
        outcome.doctor = someChecks();
        tab.showOutcome(outcome);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        QVERIFY(tab.bannerText().startsWith(QStringLiteral("PASS")));
        QCOMPARE(tab.resultsModel()->rowCount(), 9);
        QCOMPARE(tab.doctorModel()->rowCount(), 3);
        const QImage image = tab.grab().toImage();
        QVERIFY(!image.isNull());
        // Kept for a look by hand; the test itself only needs it to render.
        image.save(QDir::temp().filePath(QStringLiteral("gantry-verify-tab.png")));

        // A diagnosis-only run shows the error banner and the doctor's fix.
        VerifyOutcome none;
        none.report = recorded("no-driver-error.json");
        none.doctor = {{QStringLiteral("nvidia-smi"), CheckStatus::Fail, QStringLiteral("No NVIDIA GPU/driver found"),
                        QStringLiteral("Install the driver")}};
        tab.showOutcome(none);
        QVERIFY(tab.bannerText().startsWith(QStringLiteral("ERROR")));
        QCOMPARE(tab.resultsModel()->rowCount(), 0);
        QVERIFY(tab.statusText().contains(QStringLiteral("Doctor")));
        // Said once, in Doctor's row: it used to be in the banner, the method line and the findings too.
        QCOMPARE(shownCount(tab, QStringLiteral("No NVIDIA GPU/driver found")), 1);
        QVERIFY(!tab.findChild<QPlainTextEdit *>()->placeholderText().contains(QStringLiteral("after a run")));
    }

    void historyList()
    {
        VerifyTab tab(AppContext{});
        HistoryEntry e;
        e.time = QDateTime(QDate(2026, 11, 30), QTime(12, 0), Qt::UTC);
        e.verdict = Verdict::Warn;
        e.gpuCount = 8;
        e.gpuName = QStringLiteral("NVIDIA H100 80GB HBM3");
        e.bandwidthGbs = 2900;
        e.usdPerTflopHour = 0.0042;
        tab.showHistory({e});
        auto *list = tab.findChild<QListWidget *>();
        QVERIFY(list);
        QCOMPARE(list->count(), 1);
        QVERIFY(list->item(0)->text().contains(QStringLiteral("8× NVIDIA H100 80GB HBM3")));
        QVERIFY(list->item(0)->text().contains(QStringLiteral("2900 GB/s")));
        // Nothing tested reads as words, not "Error 0× no GPU".
        HistoryEntry none;
        none.time = e.time;
        none.verdict = Verdict::Error;
        tab.showHistory({none, e});
        QVERIFY2(list->item(0)->text().endsWith(QStringLiteral("Error: no GPU could be tested")), qPrintable(list->item(0)->text()));
        QVERIFY(!list->item(0)->text().contains(QStringLiteral("0×")));
    }

    // Issue 32: Machine records showed a green "OK" for the sandbox's simulated GPU, whose runs
    // never pass (they measure nothing); a machine without a passing run is "Not verified", grey.
    void machineRecordWithoutAPassIsNotOk()
    {
        ReputationModel model;
        MachineRecord simulated;
        simulated.provider = QStringLiteral("sandbox");
        simulated.host = QStringLiteral("sandbox-1");
        simulated.lastTime = QDateTime::currentDateTimeUtc();
        MachineRecord good = simulated;
        good.host = QStringLiteral("h100-box");
        good.provider = QStringLiteral("lambda");
        good.passes = 2;
        model.setMachines({simulated, good}, {});
        const QModelIndex simulatedStatus = model.index(0, ReputationModel::StatusColumn);
        QCOMPARE(simulatedStatus.data().toString(), QStringLiteral("Not verified"));
        QVERIFY(simulatedStatus.data(Qt::ForegroundRole).value<QColor>() != verdictColor(Verdict::Pass));
        QVERIFY(simulatedStatus.data(Qt::ToolTipRole).toString().contains(QStringLiteral("simulated GPU never passes")));
        QCOMPARE(model.index(1, ReputationModel::StatusColumn).data().toString(), QStringLiteral("OK"));
        QCOMPARE(model.index(1, ReputationModel::StatusColumn).data(Qt::ForegroundRole).value<QColor>(), verdictColor(Verdict::Pass));
    }

    // The Doctor table has room for several checks (it showed a row and a half before scrolling).
    void doctorTableHasRoom()
    {
        VerifyTab tab(AppContext{});
        QList<DoctorCheck> checks;
        for (int i = 0; i < 6; ++i)
            checks.append({QStringLiteral("check-%1").arg(i), CheckStatus::Warn, QStringLiteral("something to look at, said in a sentence"),
                           QStringLiteral("a fix")});
        tab.showDoctor(checks);
        tab.resize(1024, 700);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        QApplication::processEvents();
        QTableView *doctor = nullptr;
        for (QTableView *view : tab.findChildren<QTableView *>()) {
            if (view->model() == tab.doctorModel())
                doctor = view;
        }
        QVERIFY(doctor);
        QVERIFY2(doctor->rowAt(doctor->viewport()->height() - 1) >= 3 || doctor->rowAt(doctor->viewport()->height() - 1) == -1,
                 qPrintable(QString::number(doctor->viewport()->height())));
        QVERIFY(doctor->viewport()->height() >= 3 * doctor->rowHeight(0));
        QDir().mkpath(QStringLiteral(QT_TESTCASE_BUILDDIR "/screenshots"));
        tab.grab().save(QStringLiteral(QT_TESTCASE_BUILDDIR "/screenshots/verify-doctor-1024x700.png"));
        tab.resize(1600, 1000);
        QApplication::processEvents();
        tab.grab().save(QStringLiteral(QT_TESTCASE_BUILDDIR "/screenshots/verify-doctor-1600x1000.png"));
    }

    // End to end through ssh::Connection on its worker thread against this sandbox (no GPU):
    // the tab must end with a clear "no NVIDIA GPU/driver" diagnosis, never hang or crash.
    void runOnMachineWithoutGpu()
    {
        test::SshdFixture sshd;
        const QString error = sshd.start();
        GANTRY_REQUIRE_SSHD(error);
        QTemporaryDir config;
        AppContext context;
        context.configDir = config.path();
        VerifyTab tab(context);
        ssh::Connection connection(sshd.target());
        QSignalSpy state(&connection, &ssh::Connection::stateChanged);
        connection.connectToHost(sshd.connectOptions());
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ssh::ConnectionState::Connected, 15000);
        SavedHost host;
        host.name = QStringLiteral("sandbox");
        host.target = sshd.target();
        tab.setMachine(host, &connection);
        auto *run = tab.findChild<QPushButton *>();
        QVERIFY(run);
        QVERIFY(run->isEnabled());
        QSignalSpy finished(&tab, &VerifyTab::runFinished);
        run->click();
        QVERIFY(tab.isRunning());
        QVERIFY(finished.wait(60000));
        QVERIFY(!tab.isRunning());
        QVERIFY2(tab.bannerText().startsWith(QStringLiteral("ERROR")), qPrintable(tab.bannerText()));
        QVERIFY(tab.doctorModel()->rowCount() > 0);
        QCOMPARE(tab.doctorModel()->checks().first().status, CheckStatus::Fail);
        QVERIFY(tab.doctorModel()->checks().first().message.contains(QStringLiteral("No NVIDIA GPU/driver found")));
        QCOMPARE(shownCount(tab, QStringLiteral("No NVIDIA GPU/driver found")), 1);
        // One row for the one cause (a CPU-only PyTorch on this machine is not a second problem).
        QCOMPARE(std::count_if(tab.doctorModel()->checks().cbegin(), tab.doctorModel()->checks().cend(),
                               [](const DoctorCheck &c) { return c.status == CheckStatus::Fail; }),
                 1);
        // The run was recorded and the history list shows it.
        auto *list = tab.findChild<QListWidget *>();
        QTRY_COMPARE_WITH_TIMEOUT(list->count(), 1, 5000);
    }

    // The hint follows the connection ("Connect to walk-1" stayed while connected), and the
    // buttons that need the machine go when its connection does.
    void hintAndButtonsFollowTheConnection()
    {
        test::SshdFixture sshd;
        const QString error = sshd.start();
        GANTRY_REQUIRE_SSHD(error);
        VerifyTab tab(AppContext{});
        auto connection = std::make_unique<ssh::Connection>(sshd.target());
        SavedHost host;
        host.name = QStringLiteral("walk-1");
        host.target = sshd.target();
        tab.setMachine(host, connection.get());
        QVERIFY2(tab.statusText().contains(QStringLiteral("Connect to walk-1")), qPrintable(tab.statusText()));
        QPushButton *run = button(&tab, QStringLiteral("Run verification"));
        QVERIFY(run && !run->isEnabled());
        connection->connectToHost(sshd.connectOptions());
        QTRY_COMPARE_WITH_TIMEOUT(connection->state(), ssh::ConnectionState::Connected, 15000);
        QCOMPARE(tab.statusText(), QStringLiteral("Ready to verify walk-1."));
        QVERIFY(run->isEnabled());
        // The same host again (the window re-selects it): still the live hint.
        tab.setMachine(host, connection.get());
        QCOMPARE(tab.statusText(), QStringLiteral("Ready to verify walk-1."));
        connection.reset();
        QVERIFY(!run->isEnabled());
        QVERIFY(!button(&tab, QStringLiteral("Doctor"))->isEnabled());
        QVERIFY2(tab.statusText().contains(QStringLiteral("Connect to walk-1")), qPrintable(tab.statusText()));
    }
};

QTEST_MAIN(TestVerifyUi)
#include "test_verify_ui.moc"
