// SPDX-License-Identifier: Apache-2.0
// Provider volumes in the cost ledger (real SQLite, a ManualClock): a volume bills its $/GB-month
// from creation or first sight to its delete, budgets count it, and totals keep its currency.
#include "core/cost/budgetmonitor.h"
#include "core/cost/ledger.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace gantry;
using namespace gantry::cost;

namespace {

providers::Filesystem volume(const QString &provider, const QString &id, int sizeGb, double perGbMonth)
{
    providers::Filesystem v;
    v.provider = provider;
    v.id = id;
    v.name = id + QStringLiteral("-name");
    v.sizeGb = sizeGb;
    v.pricePerGbMonth = perGbMonth;
    return v;
}

} // namespace

class TestCostVolumes final : public QObject
{
    Q_OBJECT

private slots:
    // 730 GB at $0.10/GB-month is $73 a month, $0.10 an hour: an hour later the ledger says $0.10,
    // the delete stops it, and the row survives a restart.
    void billsFromCreateToDelete()
    {
        QTemporaryDir dir;
        ManualClock clock;
        const QString path = Ledger::defaultPath(dir.path());
        const QDateTime start = clock.now();
        {
            Ledger ledger(path, clock);
            QVERIFY(ledger.open());
            QSignalSpy changed(&ledger, &Ledger::changed);
            QVERIFY(ledger.recordVolume(volume(QStringLiteral("runpod"), QStringLiteral("v1"), 730, 0.10)));
            QVERIFY(ledger.recordVolume(volume(QStringLiteral("runpod"), QStringLiteral("v1"), 730, 0.10))); // seen again: one row
            QCOMPARE(changed.count(), 1);
            QCOMPARE(*ledger.volumesPerHourNow(), 0.1);
            clock.advanceSeconds(3600);
            QCOMPARE(qRound(ledger.volumes()->first().cost * 1000), 100);
            QVERIFY(ledger.recordVolumeDeleted(QStringLiteral("runpod"), QStringLiteral("v1")));
            clock.advanceSeconds(3600);
        }
        Ledger reopened(path, clock);
        QVERIFY(reopened.open());
        const Result<QList<VolumeEntry>> listed = reopened.volumes();
        QVERIFY(listed);
        const QList<VolumeEntry> all = *listed;
        QCOMPARE(all.size(), 1);
        QVERIFY(!all.first().isOpen());
        QCOMPARE(qRound(all.first().cost * 1000), 100);
        QCOMPARE(*reopened.volumesPerHourNow(), 0.0);
        // Counted as storage, never as compute.
        QCOMPARE(qRound(*reopened.spentBetween(start, clock.now(), QStringLiteral("USD"), CostPart::Storage) * 1000), 100);
        QCOMPARE(*reopened.spentBetween(start, clock.now(), QStringLiteral("USD"), CostPart::Compute), 0.0);
    }

    // What the provider lists is the truth: unknown volumes open rows, vanished ones close.
    void reconcileOpensAndCloses()
    {
        QTemporaryDir dir;
        ManualClock clock;
        Ledger ledger(Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        QVERIFY(ledger.reconcileVolumes(QStringLiteral("lambda"), {volume(QStringLiteral("lambda"), QStringLiteral("a"), 100, 0.2),
                                                                  volume(QStringLiteral("lambda"), QStringLiteral("b"), 100, 0.2)}));
        QVERIFY(ledger.recordVolume(volume(QStringLiteral("runpod"), QStringLiteral("r"), 10, 0.07)));
        clock.advanceSeconds(60);
        QVERIFY(ledger.reconcileVolumes(QStringLiteral("lambda"), {volume(QStringLiteral("lambda"), QStringLiteral("b"), 100, 0.2)}));
        const Result<QList<VolumeEntry>> all = ledger.volumes();
        QVERIFY(all);
        const auto open = std::count_if(all->cbegin(), all->cend(), [](const VolumeEntry &entry) { return entry.isOpen(); });
        QCOMPARE(open, 2); // b, and RunPod's r that Lambda's listing does not touch
    }

    // A listing asked for before a create or a delete (the Volumes page and gantry-cli at once)
    // neither closes the new volume nor brings the deleted one back as a new bill.
    void listingAskedBeforeAChangeDoesNotUndoIt()
    {
        QTemporaryDir dir;
        ManualClock clock;
        Ledger ledger(Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        QVERIFY(ledger.recordVolume(volume(QStringLiteral("runpod"), QStringLiteral("old"), 10, 0.07)));
        clock.advanceSeconds(5);
        const QDateTime asked = clock.now();
        clock.advanceSeconds(1);
        QVERIFY(ledger.recordVolume(volume(QStringLiteral("runpod"), QStringLiteral("new"), 10, 0.07)));
        QVERIFY(ledger.recordVolumeDeleted(QStringLiteral("runpod"), QStringLiteral("old")));
        const QList<providers::Filesystem> stale{volume(QStringLiteral("runpod"), QStringLiteral("old"), 10, 0.07)};
        QVERIFY(ledger.reconcileVolumes(QStringLiteral("runpod"), stale, asked));
        const Result<QList<VolumeEntry>> all = ledger.volumes(QDateTime::fromMSecsSinceEpoch(0, Qt::UTC));
        QVERIFY(all);
        QCOMPARE(all->size(), 2); // no second row for "old"
        for (const VolumeEntry &entry : *all)
            QCOMPARE(entry.isOpen(), entry.volumeId == QLatin1String("new"));
    }

    // A monthly budget of $50 sees a $73/month volume cross 80% after 17 days, with no instance at all.
    void budgetsCountVolumes()
    {
        QTemporaryDir dir;
        ManualClock clock;
        Ledger ledger(Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        QVERIFY(ledger.setBudget(QStringLiteral("monthly"), 50));
        BudgetMonitor monitor(&ledger);
        QSignalSpy alerts(&monitor, &BudgetMonitor::thresholdReached);
        QVERIFY(ledger.recordVolume(volume(QStringLiteral("runpod"), QStringLiteral("v"), 730, 0.10)));
        clock.advanceSeconds(17 * 24 * 3600);
        monitor.check();
        QCOMPARE(alerts.count(), 1);
        QCOMPARE(alerts.first().at(1).toInt(), 80);
    }
};

QTEST_GUILESS_MAIN(TestCostVolumes)
#include "test_cost_volumes.moc"
