// The cost panel's LedgerModel under QAbstractItemModelTester, over a real SQLite ledger: rows
// appear (reset), meters tick (in-place dataChanged), an instance ends, and the ledger goes away.
#include "cost/ledger.h"
#include "cost/ledgermodel.h"

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
