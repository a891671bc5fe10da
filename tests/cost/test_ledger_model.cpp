// The cost panel's LedgerModel under QAbstractItemModelTester, over a real SQLite ledger: rows
// appear (reset), meters tick (in-place dataChanged), an instance ends, and the ledger goes away.
#include "core/cost/hostbilling.h"
#include "core/cost/ledger.h"
#include "core/cost/money.h"
#include "ui/cost/ledgermodel.h"
#include "ui/cost/costpanel.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QTableView>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;

namespace {

providers::Instance instance(const QString &id)
{
    providers::Instance i;
    i.provider = QStringLiteral("runpod");
    i.id = id;
    i.name = QStringLiteral("box-") + id;
    i.typeName = QStringLiteral("gpu_1x_a10");
    i.state = providers::InstanceState::Running;
    i.pricePerHour = 1.0;
    return i;
}

} // namespace

class TestLedgerModel final : public QObject
{
    Q_OBJECT

private slots:
    void modelFollowsTheLedger()
    {
        QTemporaryDir dir;
        QVERIFY2(dir.isValid(), "cannot create a temporary folder: check TMPDIR's free space and permissions");
        ManualClock clock;
        cost::Ledger ledger(cost::Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        ui::LedgerModel model(&ledger);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);

        QVERIFY(ledger.recordLaunch(instance(QStringLiteral("a")), 3.6));
        QVERIFY(ledger.recordLaunch(instance(QStringLiteral("b")), 1.2));
        model.reload();
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(ui::LedgerModel::ColumnCount));

        // Same rows: the meters move in place.
        clock.advanceSeconds(100);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.reload();
        QCOMPARE(changed.count(), 1);
        QCOMPARE(reset.count(), 0);
        for (int row = 0; row < model.rowCount(); ++row) {
            QVERIFY(model.index(row, ui::LedgerModel::CostColumn).data(ui::LedgerModel::RawValueRole).toDouble() > 0);
            QVERIFY(!model.index(row, ui::LedgerModel::NameColumn).data().toString().isEmpty());
        }

        QVERIFY(ledger.recordTerminated(QStringLiteral("runpod"), QStringLiteral("a")));
        QVERIFY(ledger.recordLaunch(instance(QStringLiteral("c")), 2.0));
        model.reload();
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(!model.headerData(ui::LedgerModel::CostColumn, Qt::Horizontal).toString().isEmpty());
    }

    // A host billed in yuan next to one in dollars: each total in its own currency, budgets say USD.
    void costPanelTotalsPerCurrency()
    {
        QTemporaryDir dir;
        ManualClock clock(QDateTime(QDate(2026, 1, 10), QTime(12, 0), Qt::LocalTime)); // the hour is inside today's budget
        cost::Ledger ledger(cost::Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        QVERIFY(ledger.recordLaunch(instance(QStringLiteral("a")), 2.0));
        providers::Instance autodl = instance(QStringLiteral("b"));
        autodl.provider = QStringLiteral("autodl");
        QVERIFY(ledger.recordLaunch(autodl, 3.0, QStringLiteral("CNY")));
        clock.advanceSeconds(3600);
        QVERIFY(ledger.setBudget(QStringLiteral("daily"), 10));
        ui::CostPanel panel(&ledger);
        panel.resize(1024, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY2(panel.totalText().contains(QStringLiteral("$2.00/h + ¥3.00/h")), qPrintable(panel.totalText()));
        QVERIFY2(panel.totalText().contains(QStringLiteral("$2.00 + ¥3.00")), qPrintable(panel.totalText()));
        ui::LedgerModel *model = panel.model();
        QStringList costs;
        for (int row = 0; row < model->rowCount(); ++row)
            costs << model->index(row, ui::LedgerModel::CostColumn).data().toString();
        QVERIFY2(costs.contains(QStringLiteral("¥3.00")), qPrintable(costs.join(QLatin1Char(','))));
        bool budgetSaysUsd = false;
        for (const QLabel *label : panel.findChildren<QLabel *>())
            budgetSaysUsd |= label->isVisible() && label->text().contains(QStringLiteral("$2.00 of $10.00")) && label->text().contains(QStringLiteral("USD only"));
        QVERIFY(budgetSaysUsd);
        // What users read: the cost of each row whole, not elided.
        QTableView *view = panel.findChild<QTableView *>();
        QTRY_VERIFY(view->columnWidth(ui::LedgerModel::CostColumn)
                    >= view->fontMetrics().horizontalAdvance(QStringLiteral("¥3.00")));
        if (!qEnvironmentVariableIsEmpty("GANTRY_SCREENSHOT_DIR"))
            panel.grab().save(qEnvironmentVariable("GANTRY_SCREENSHOT_DIR") + QStringLiteral("/cost-currency.png"));
    }

    // A stopped RunPod pod whose disk bills and an AutoDL host billed in ¥: storage has its own
    // column and line, and the host's billing pauses and resumes from the panel.
    void costPanelRemindsOfALongStoppedDisk()
    {
        // The 3-day reminder needs "now": the panel takes it from the ledger's clock.
        QTemporaryDir dir;
        ManualClock clock(QDateTime(QDate(2026, 1, 10), QTime(12, 0), Qt::LocalTime));
        cost::Ledger ledger(cost::Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        providers::Instance pod = instance(QStringLiteral("p"));
        pod.volumeGb = 100;
        QVERIFY(ledger.recordLaunch(pod, 0.69));
        QVERIFY(ledger.recordStopped(QStringLiteral("runpod"), QStringLiteral("p")));
        {
            ui::CostPanel panel(&ledger);
            QVERIFY2(!panel.warningsText().contains(QStringLiteral("Reminder")), qPrintable(panel.warningsText()));
            QVERIFY2(panel.warningsText().contains(QStringLiteral("still bills storage")), qPrintable(panel.warningsText()));
        }
        clock.advanceSeconds(4 * 86400);
        ui::CostPanel panel(&ledger);
        QVERIFY2(panel.warningsText().contains(QStringLiteral("Reminder")) && panel.warningsText().contains(QStringLiteral("4 days")),
                 qPrintable(panel.warningsText()));
    }

    void costPanelStorageAndHostBilling()
    {
        QTemporaryDir dir;
        ManualClock clock(QDateTime(QDate(2026, 1, 10), QTime(12, 0), Qt::LocalTime));
        cost::Ledger ledger(cost::Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        providers::Instance pod = instance(QStringLiteral("p"));
        pod.volumeGb = 2000;
        QVERIFY(ledger.recordLaunch(pod, 0.69));
        clock.advanceSeconds(3600);
        QVERIFY(ledger.recordStopped(QStringLiteral("runpod"), QStringLiteral("p")));
        providers::Instance host;
        host.provider = cost::hostProvider();
        host.id = QStringLiteral("west-4090");
        host.name = QStringLiteral("west-4090");
        QVERIFY(ledger.recordLaunch(host, 2.5, QStringLiteral("CNY")));
        clock.advanceSeconds(2 * 3600);
        for (const QSize size : {QSize(1024, 700), QSize(1440, 900)}) {
            ui::CostPanel panel(&ledger);
            panel.resize(size);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            QVERIFY2(panel.storageText().contains(QStringLiteral("$0.55/h now")), qPrintable(panel.storageText()));
            const QString sofar = cost::moneyText(ledger.entry(QStringLiteral("runpod"), QStringLiteral("p"))->storageCost, QStringLiteral("USD"));
            QCOMPARE(sofar, size.width() == 1024 ? QStringLiteral("$1.10") : QStringLiteral("$1.64")); // two hours, then three
            QVERIFY2(panel.storageText().contains(sofar + QStringLiteral(" so far")), qPrintable(panel.storageText()));
            QTableView *view = panel.findChild<QTableView *>();
            QTRY_VERIFY(view->columnWidth(ui::LedgerModel::StorageColumn)
                        >= view->fontMetrics().horizontalAdvance(panel.model()->index(0, ui::LedgerModel::StorageColumn).data().toString()));
            QCOMPARE(panel.model()->index(0, ui::LedgerModel::StorageColumn).data().toString(), sofar);
            QCOMPARE(panel.model()->index(1, ui::LedgerModel::StorageColumn).data().toString(), QString()); // the host has no disk price
            QCOMPARE(panel.model()->index(1, ui::LedgerModel::ProviderColumn).data().toString(), QStringLiteral("Saved host"));
            QPushButton *billing = panel.findChild<QPushButton *>(QStringLiteral("hostBilling"));
            QVERIFY(billing && billing->isHidden());
            view->selectRow(1);
            QVERIFY(billing->isVisible());
            QCOMPARE(billing->text(), QStringLiteral("Pause billing"));
            QTRY_VERIFY(billing->width() >= billing->fontMetrics().horizontalAdvance(billing->text()));
            if (!qEnvironmentVariableIsEmpty("GANTRY_SCREENSHOT_DIR"))
                panel.grab().save(qEnvironmentVariable("GANTRY_SCREENSHOT_DIR") + QStringLiteral("/cost-storage-%1.png").arg(size.width()));
            billing->click();
            QVERIFY(!ledger.entry(cost::hostProvider(), QStringLiteral("west-4090"))->isRunning());
            QCOMPARE(view->selectionModel()->selectedRows().size(), 1); // the selection survives the reload
            QCOMPARE(billing->text(), QStringLiteral("Resume billing"));
            clock.advanceSeconds(3600);
            billing->click();
            QVERIFY(ledger.entry(cost::hostProvider(), QStringLiteral("west-4090"))->isRunning());
        }
        QVERIFY(qAbs(ledger.entry(cost::hostProvider(), QStringLiteral("west-4090"))->cost - 5.0) < 1e-9); // paused hours unbilled
    }

    // A volume bills whether or not an instance uses it: its rate is in "Running now", its cost
    // in the total, and a line says so — also after it was deleted.
    void costPanelCountsVolumes()
    {
        QTemporaryDir dir;
        ManualClock clock(QDateTime(QDate(2026, 1, 10), QTime(12, 0), Qt::LocalTime));
        cost::Ledger ledger(cost::Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        providers::Filesystem volume;
        volume.provider = QStringLiteral("runpod");
        volume.id = QStringLiteral("v1");
        volume.name = QStringLiteral("data");
        volume.sizeGb = 730;
        volume.pricePerGbMonth = 0.10; // $73 a month: $0.10 an hour
        QVERIFY(ledger.recordVolume(volume));
        clock.advanceSeconds(2 * 3600);
        {
            ui::CostPanel panel(&ledger);
            QVERIFY2(panel.totalText().contains(QStringLiteral("Running now: $0.10/h")), qPrintable(panel.totalText()));
            QVERIFY2(panel.totalText().contains(QStringLiteral("Total: $0.20")), qPrintable(panel.totalText()));
            QVERIFY2(panel.storageText().contains(QStringLiteral("Volumes: $0.10/h now · $0.20 so far")), qPrintable(panel.storageText()));
        }
        QVERIFY(ledger.recordVolumeDeleted(QStringLiteral("runpod"), QStringLiteral("v1")));
        clock.advanceSeconds(3600);
        ui::CostPanel panel(&ledger);
        QVERIFY2(panel.totalText().contains(QStringLiteral("Total: $0.20")), qPrintable(panel.totalText())); // what it cost stays
        QVERIFY2(!panel.totalText().contains(QStringLiteral("$0.10/h")), qPrintable(panel.totalText()));     // it bills no more
    }

    void noLedgerIsAnEmptyTable()
    {
        ui::LedgerModel model(nullptr);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.reload();
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.index(0, 0).isValid());
    }
};

QTEST_MAIN(TestLedgerModel)
#include "test_ledger_model.moc"
