// Billing rounding, the SQLite ledger (restarts, reconcile, CSV), budgets and storage warnings,
// driven by a ManualClock.
#include "core/cost/billing.h"
#include "core/cost/budgetmonitor.h"
#include "core/cost/ledger.h"
#include "core/cost/money.h"
#include "core/cost/storagewarnings.h"
#include "core/providers/costmodel.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::cost;

namespace {

providers::Instance instance(const QString &provider, const QString &id, providers::InstanceState state = providers::InstanceState::Running)
{
    providers::Instance i;
    i.provider = provider;
    i.id = id;
    i.name = QStringLiteral("box-") + id;
    i.typeName = QStringLiteral("gpu_1x_a10");
    i.region = QStringLiteral("us-east-1");
    i.state = state;
    i.pricePerHour = 1.0;
    return i;
}

} // namespace

class TestCost final : public QObject
{
    Q_OBJECT

private slots:
    void billingGranularity()
    {
        providers::ProviderInfo lambdaInfo;
        lambdaInfo.billingGranularitySeconds = 60;
        providers::ProviderInfo runpodInfo;
        runpodInfo.billingGranularitySeconds = 1;
        const BillingPolicy lambda = billingPolicyFor(lambdaInfo);
        QCOMPARE(billedSeconds(0, lambda), 0);
        QCOMPARE(billedSeconds(1, lambda), 60);
        QCOMPARE(billedSeconds(60, lambda), 60);
        QCOMPARE(billedSeconds(61, lambda), 120);
        const BillingPolicy runpod = billingPolicyFor(runpodInfo);
        QCOMPARE(billedSeconds(61, runpod), 61);
        QCOMPARE(costFor(3.6, 61, lambda), 0.12);
        QCOMPARE(costFor(3.6, 61, runpod), 0.061);
        QCOMPARE(formatUsd(1.234), QStringLiteral("$1.23"));
        QCOMPARE(formatUsd(0.0012), QStringLiteral("$0.0012"));
    }

    void meterStopStartTerminateSurvivesRestart()
    {
        QTemporaryDir dir;
        ManualClock clock;
        const QString path = Ledger::defaultPath(dir.path());
        {
            Ledger ledger(path, clock);
            QVERIFY(ledger.open());
            QSignalSpy changed(&ledger, &Ledger::changed);
            QVERIFY(ledger.recordLaunch(instance(QStringLiteral("runpod"), QStringLiteral("p1")), 3.6));
            QCOMPARE(changed.count(), 1);
            clock.advanceSeconds(100);
            QCOMPARE(ledger.entry(QStringLiteral("runpod"), QStringLiteral("p1"))->cost, 0.1);
            QCOMPARE(*ledger.totalPerHourNow(), 3.6);
            QVERIFY(ledger.recordStopped(QStringLiteral("runpod"), QStringLiteral("p1")));
            QCOMPARE(*ledger.totalPerHourNow(), 0.0);
            clock.advanceSeconds(1000); // stopped: no compute cost
            QCOMPARE(ledger.entry(QStringLiteral("runpod"), QStringLiteral("p1"))->cost, 0.1);
            QCOMPARE(ledger.entry(QStringLiteral("runpod"), QStringLiteral("p1"))->state, QStringLiteral("stopped"));
            QVERIFY(ledger.recordStarted(QStringLiteral("runpod"), QStringLiteral("p1")));
            clock.advanceSeconds(50);
        } // "crash": nothing but the database file survives
        Ledger reopened(path, clock);
        QVERIFY(reopened.open());
        Result<LedgerEntry> entry = reopened.entry(QStringLiteral("runpod"), QStringLiteral("p1"));
        QVERIFY(entry);
        QCOMPARE(entry->state, QStringLiteral("running"));
        QCOMPARE(entry->billedSeconds, 150);
        QCOMPARE(entry->cost, 0.15);
        QVERIFY(reopened.recordTerminated(QStringLiteral("runpod"), QStringLiteral("p1")));
        clock.advanceSeconds(3600);
        entry = reopened.entry(QStringLiteral("runpod"), QStringLiteral("p1"));
        QCOMPARE(entry->cost, 0.15); // frozen once terminated
        QVERIFY(!entry->isOpen());
        QVERIFY(reopened.recordTerminated(QStringLiteral("runpod"), QStringLiteral("p1"))); // idempotent

        // Lambda rounds each started minute (its ProviderInfo says so).
        reopened.setBillingPolicy(QStringLiteral("lambda"), BillingPolicy{60, 0});
        QVERIFY(reopened.recordLaunch(instance(QStringLiteral("lambda"), QStringLiteral("l1")), 0.6));
        clock.advanceSeconds(61);
        QCOMPARE(reopened.entry(QStringLiteral("lambda"), QStringLiteral("l1"))->cost, 0.02);
    }

    void ledgerRoundsByEachProvidersBillingIncrement()
    {
        QTemporaryDir dir;
        ManualClock clock;
        const QString path = Ledger::defaultPath(dir.path());
        {
            Ledger ledger(path, clock);
            QVERIFY(ledger.open());
            providers::ProviderInfo perMinute;
            perMinute.billingGranularitySeconds = 60;
            providers::ProviderInfo perSecond;
            perSecond.billingGranularitySeconds = 1;
            ledger.setBillingPolicy(QStringLiteral("minutes"), billingPolicyFor(perMinute));
            ledger.setBillingPolicy(QStringLiteral("seconds"), billingPolicyFor(perSecond));
            QVERIFY(ledger.recordLaunch(instance(QStringLiteral("minutes"), QStringLiteral("m")), 3.6));
            QVERIFY(ledger.recordLaunch(instance(QStringLiteral("seconds"), QStringLiteral("s")), 3.6));
            QVERIFY(ledger.recordLaunch(instance(QStringLiteral("unknown"), QStringLiteral("u")), 3.6));
            clock.advanceSeconds(61);
            QCOMPARE(ledger.entry(QStringLiteral("minutes"), QStringLiteral("m"))->billedSeconds, 120);
            QCOMPARE(ledger.entry(QStringLiteral("minutes"), QStringLiteral("m"))->billingIncrementSeconds, 60);
            QCOMPARE(ledger.entry(QStringLiteral("seconds"), QStringLiteral("s"))->billedSeconds, 61);
            QCOMPARE(ledger.entry(QStringLiteral("unknown"), QStringLiteral("u"))->billedSeconds, 61); // pro rata
            QVERIFY(ledger.recordStopped(QStringLiteral("minutes"), QStringLiteral("m")));
            clock.advanceSeconds(10);
            QVERIFY(ledger.recordStopped(QStringLiteral("minutes"), QStringLiteral("m"))); // recorded once
            QCOMPARE(ledger.entry(QStringLiteral("minutes"), QStringLiteral("m"))->stoppedAt, clock.now().addSecs(-10));
        }
        // A row keeps the increment it was written with, whoever opens the ledger later.
        Ledger reopened(path, clock);
        QVERIFY(reopened.open());
        QCOMPARE(reopened.entry(QStringLiteral("minutes"), QStringLiteral("m"))->billedSeconds, 120);
    }

    void reconcileWithProvider()
    {
        QTemporaryDir dir;
        ManualClock clock;
        Ledger ledger(Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        QVERIFY(ledger.recordLaunch(instance(QStringLiteral("runpod"), QStringLiteral("a")), 1.0));
        QVERIFY(ledger.recordLaunch(instance(QStringLiteral("runpod"), QStringLiteral("b")), 1.0));
        QVERIFY(ledger.recordLaunch(instance(QStringLiteral("lambda"), QStringLiteral("c")), 1.0));
        clock.advanceSeconds(600);
        // a was stopped in the web console, b was terminated there, d was launched there.
        const QList<providers::Instance> live{instance(QStringLiteral("runpod"), QStringLiteral("a"), providers::InstanceState::Stopped),
                                              instance(QStringLiteral("runpod"), QStringLiteral("d"))};
        QVERIFY(ledger.reconcile(QStringLiteral("runpod"), live));
        QCOMPARE(ledger.entry(QStringLiteral("runpod"), QStringLiteral("a"))->state, QStringLiteral("stopped"));
        const LedgerEntry b = *ledger.entry(QStringLiteral("runpod"), QStringLiteral("b"));
        QCOMPARE(b.state, QStringLiteral("terminated"));
        QCOMPARE(b.note, QStringLiteral("terminated outside Gantry"));
        QCOMPARE(ledger.entry(QStringLiteral("runpod"), QStringLiteral("d"))->state, QStringLiteral("running"));
        QCOMPARE(ledger.entry(QStringLiteral("lambda"), QStringLiteral("c"))->state, QStringLiteral("running")); // other provider untouched
        // Reconciling again changes nothing.
        QVERIFY(ledger.reconcile(QStringLiteral("runpod"), live));
        QCOMPARE(ledger.entries()->size(), 4);

        const QStringList warnings = storageWarnings(*ledger.entries());
        QCOMPARE(warnings.size(), 1);
        QVERIFY(warnings.first().contains(QStringLiteral("still bills storage")));
        providers::Filesystem fs;
        fs.name = QStringLiteral("data");
        fs.sizeGb = 100;
        QVERIFY(storageWarnings(QStringLiteral("RunPod"), {fs}).first().contains(QStringLiteral("100 GB")));
    }

    // The window and gantry-cli list and launch at once: a listing asked for before a launch or a
    // stop was recorded (its answer arriving after) does not close the new row as "terminated
    // outside Gantry" nor start the stopped one again; a later listing does bring them in line.
    void listingAskedBeforeAWriteDoesNotUndoIt()
    {
        QTemporaryDir dir;
        ManualClock clock;
        Ledger ledger(Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        QVERIFY(ledger.recordLaunch(instance(QStringLiteral("runpod"), QStringLiteral("old")), 1.0));
        clock.advanceSeconds(5);
        const QDateTime asked = clock.now();
        clock.advanceSeconds(1);
        QVERIFY(ledger.recordLaunch(instance(QStringLiteral("runpod"), QStringLiteral("new")), 1.0));
        QVERIFY(ledger.recordStopped(QStringLiteral("runpod"), QStringLiteral("old")));
        clock.advanceSeconds(1);
        const QList<providers::Instance> stale{instance(QStringLiteral("runpod"), QStringLiteral("old"))}; // running, no "new"
        QVERIFY(ledger.reconcile(QStringLiteral("runpod"), stale, asked));
        QCOMPARE(ledger.entry(QStringLiteral("runpod"), QStringLiteral("new"))->state, QStringLiteral("running"));
        QCOMPARE(ledger.entry(QStringLiteral("runpod"), QStringLiteral("old"))->state, QStringLiteral("stopped"));

        QVERIFY(ledger.reconcile(QStringLiteral("runpod"), stale, clock.now()));
        QCOMPARE(ledger.entry(QStringLiteral("runpod"), QStringLiteral("new"))->state, QStringLiteral("terminated"));
        QCOMPARE(ledger.entry(QStringLiteral("runpod"), QStringLiteral("old"))->state, QStringLiteral("running"));
    }

    void csvExport()
    {
        QTemporaryDir dir;
        ManualClock clock;
        Ledger ledger(Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        providers::Instance odd = instance(QStringLiteral("lambda"), QStringLiteral("x1"));
        odd.name = QStringLiteral("a, \"quoted\" name");
        QVERIFY(ledger.recordLaunch(odd, 1.2));
        clock.advanceSeconds(3600);
        const QString file = dir.filePath(QStringLiteral("cost.csv"));
        QVERIFY(ledger.exportCsv(file));
        QFile csv(file);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().split('\n');
        QVERIFY(lines.at(0).startsWith("provider,instance_id,name"));
        QVERIFY(lines.at(1).contains("\"a, \"\"quoted\"\" name\""));
        QVERIFY(lines.at(1).contains(",1.2000,"));
        QVERIFY(lines.at(1).contains(",3600,1.2000,"));
    }

    void budgetsFireEachThresholdOnce()
    {
        QTemporaryDir dir;
        ManualClock clock(QDateTime(QDate(2026, 3, 10), QTime(1, 0), Qt::LocalTime).toUTC());
        Ledger ledger(Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        QVERIFY(ledger.setBudget(QStringLiteral("daily"), 10.0));
        QVERIFY(!ledger.setBudget(QStringLiteral("weekly"), 1.0));
        QCOMPARE(*ledger.budget(QStringLiteral("daily")), 10.0);
        BudgetMonitor monitor(&ledger);
        QSignalSpy spy(&monitor, &BudgetMonitor::thresholdReached);
        QVERIFY(ledger.recordLaunch(instance(QStringLiteral("runpod"), QStringLiteral("b1")), 2.0));
        clock.advanceSeconds(2 * 3600); // $4: 40 %
        monitor.check();
        QCOMPARE(spy.count(), 0);
        clock.advanceSeconds(3600 + 60); // $6.03: 50 %
        monitor.check();
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(1).toInt(), 50);
        monitor.check();
        QCOMPARE(spy.count(), 1);
        clock.advanceSeconds(2 * 3600); // $10.03: 80 % and 100 % crossed since the last check
        monitor.check();
        QCOMPARE(spy.count(), 2); // the highest only: 80 % would be stale news beside 100 %
        QCOMPARE(spy.at(1).at(1).toInt(), 100);
        const QString billing = monitor.billingNow(); // what to stop, with its price
        QVERIFY2(billing.contains(QStringLiteral("b1")) && billing.contains(QStringLiteral("$2.00/h")), qPrintable(billing));
        QVERIFY(BudgetMonitor::alertText(QStringLiteral("daily"), 100, 10.03, 10, billing).endsWith(billing));
        QCOMPARE(monitor.status(QStringLiteral("daily"))->percent(), 100);
        // A restarted monitor does not repeat the alerts of the same day.
        BudgetMonitor again(&ledger);
        QSignalSpy spyAgain(&again, &BudgetMonitor::thresholdReached);
        again.check();
        QCOMPARE(spyAgain.count(), 0);
    }

    // A stopped instance whose disk keeps billing is a warning at once and a reminder, with what it
    // has cost since, after three days.
    void stoppedStorageReminderAfterDays()
    {
        const QDateTime now(QDate(2026, 3, 10), QTime(12, 0), Qt::UTC);
        LedgerEntry entry;
        entry.provider = QStringLiteral("runpod");
        entry.instanceId = QStringLiteral("pod-1");
        entry.name = QStringLiteral("trainer");
        entry.state = QStringLiteral("stopped");
        entry.volumeGb = 100;
        entry.stoppedAt = now.addDays(-1);
        QVERIFY(!storageWarnings({entry}, now).first().startsWith(QStringLiteral("Reminder")));
        entry.stoppedAt = now.addDays(-4);
        const QString reminder = storageWarnings({entry}, now).first();
        QVERIFY2(reminder.contains(QStringLiteral("stopped for 4 days")), qPrintable(reminder));
        // 100 GB at RunPod's $0.20 per GB-month stopped: $0.66 a day, $2.63 over four days.
        QVERIFY2(reminder.contains(QStringLiteral("$2.63 so far, $0.66 a day")), qPrintable(reminder));
        QVERIFY(storageWarnings({entry}, now, 7).first().startsWith(QStringLiteral("trainer")));
        entry.provider = QStringLiteral("vast");
        QVERIFY(storageWarnings({entry}, now).first().contains(QStringLiteral("$0.49 a day")));
        QCOMPARE(providers::costModelFor(QStringLiteral("shadeform")).storagePerGbMonthStopped, 0.0);
        QVERIFY(providers::costModelFor(QStringLiteral("vast")).interruptible);
    }

    // An instance billed in yuan keeps its currency; totals never mix currencies.
    void currencyPerRow()
    {
        QTemporaryDir dir;
        ManualClock clock;
        Ledger ledger(dir.filePath(QStringLiteral("cost.sqlite")), clock);
        QVERIFY(ledger.open());
        providers::Instance usd;
        usd.provider = QStringLiteral("vast");
        usd.id = QStringLiteral("1");
        providers::Instance cny = usd;
        cny.provider = QStringLiteral("autodl");
        cny.id = QStringLiteral("2");
        QVERIFY(ledger.recordLaunch(usd, 2.0));
        QVERIFY(ledger.recordLaunch(cny, 3.0, QStringLiteral("CNY")));
        clock.advanceSeconds(3600);
        Result<QList<LedgerEntry>> entries = ledger.entries();
        QVERIFY(entries);
        const QMap<QString, double> totals = totalsByCurrency(*entries);
        QCOMPARE(totals.size(), 2);
        QVERIFY(qAbs(totals.value(QStringLiteral("USD")) - 2.0) < 0.01);
        QVERIFY(qAbs(totals.value(QStringLiteral("CNY")) - 3.0) < 0.01);
        QVERIFY(Ledger::toCsv(*entries).contains(QStringLiteral(",CNY,0,0.0000,CNY\n"))); // no storage, in the row's currency
        // Budgets are in dollars and count dollars only: the yuan row is neither added nor converted.
        const Result<double> spentUsd = ledger.spentBetween(clock.now().addSecs(-7200), clock.now());
        QVERIFY(spentUsd);
        QVERIFY(qAbs(*spentUsd - 2.0) < 0.01);
        QVERIFY(qAbs(ledger.spentBetween(clock.now().addSecs(-7200), clock.now(), QStringLiteral("CNY")).valueOr(0) - 3.0) < 0.01);
        QCOMPARE(ledger.totalPerHourNow().valueOr(0), 2.0);
        QCOMPARE(ratesByCurrency(*entries).value(QStringLiteral("CNY")), 3.0);
        QCOMPARE(moneyTotalsText(totals), QStringLiteral("$2.00 + ¥3.00"));
        QCOMPARE(moneyTotalsText(ratesByCurrency(*entries), QStringLiteral("/h")), QStringLiteral("$2.00/h + ¥3.00/h"));
        QCOMPARE(moneyTotalsText({}), QStringLiteral("$0.00"));
        QCOMPARE(moneyText(1.5, QStringLiteral("CHF")), QStringLiteral("1.50 CHF"));
        QCOMPARE(moneyText(0.004, QStringLiteral("USD")), QStringLiteral("$0.0040"));
    }
};

QTEST_GUILESS_MAIN(TestCost)
#include "test_cost.moc"
