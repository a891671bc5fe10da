// The whole bill beyond compute, against real SQLite and the RunPod emulator with a ManualClock:
// a stopped instance's disk is billed in the ledger from the stop to the start (one period, at
// the provider's stopped rate), budgets count it, saved hosts priced in ¥ bill in ¥, and
// gantry-cli cost --json shows storage apart from compute.
#include "restconfigfor.h"
#include "runpodemulator.h"

#include "core/cost/budgetmonitor.h"
#include "core/cost/hostbilling.h"
#include "core/cost/ledger.h"
#include "core/cost/storagewarnings.h"
#include "core/hosts/hoststore.h"
#include "core/providers/costmodel.h"
#include "core/providers/providerhub.h"
#include "core/providers/runpodprovider.h"
#include "core/workspace/workspace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;

namespace {

// RunPod's documented stopped rate ($0.20 per GB-month), per hour.
double runpodStoppedPerHour(int volumeGb)
{
    return providers::storageCostPerDay(providers::costModelFor(QStringLiteral("runpod")), volumeGb, true) / 24.0;
}

bool near(double a, double b)
{
    return qAbs(a - b) < 1e-9;
}

providers::Instance pod(const QString &id, int volumeGb)
{
    providers::Instance i;
    i.provider = QStringLiteral("runpod");
    i.id = id;
    i.name = QStringLiteral("box-") + id;
    i.volumeGb = volumeGb;
    i.state = providers::InstanceState::Running;
    return i;
}

SavedHost autodlHost(const QString &name, double yuanPerHour)
{
    SavedHost host;
    host.name = name;
    host.target.host = QStringLiteral("region-9.autodl.com");
    host.target.port = 40022;
    host.target.user = QStringLiteral("root");
    host.source = QStringLiteral("manual");
    host.setHourlyPrice(yuanPerHour, QStringLiteral("CNY"));
    return host;
}

QJsonObject cliJson(const QString &configDir, const QStringList &args)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(GANTRY_CLI_PATH), QStringList{QStringLiteral("--config-dir"), configDir, QStringLiteral("--json")} + args);
    if (!process.waitForFinished(30000) || process.exitCode() != 0)
        qWarning() << args << process.readAllStandardError();
    return QJsonDocument::fromJson(process.readAllStandardOutput()).object();
}

template<typename T>
Result<T> await(std::function<void(providers::Callback<T>)> call)
{
    Result<T> result = Error{ErrorCode::Generic, QStringLiteral("no answer")};
    bool answered = false;
    call([&](Result<T> got) { result = std::move(got); answered = true; });
    if (!QTest::qWaitFor([&answered] { return answered; }, 10000))
        return Error{ErrorCode::Timeout, QStringLiteral("no answer in 10 s")};
    return result;
}

} // namespace

class TestStorageBilling final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qputenv("DBUS_SESSION_BUS_ADDRESS", ""); // no keychain prompts from the CLI
    }

    // Stop through the workspace (the path of the GUI, the idle policy and the watcher), five
    // hours, start: one storage period of exactly five hours at RunPod's stopped rate.
    void stopHoursStartWritesOneStorageRow()
    {
        QTemporaryDir dir;
        ManualClock clock;
        test::RunPodEmulator runpod;
        runpod.bootMs = 0;
        QVERIFY(runpod.listen());
        providers::ProviderHub hub;
        hub.addProvider(std::make_unique<providers::RunPodProvider>(test::restConfigFor(runpod)));
        cost::Ledger ledger(cost::Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        HostStore hosts(dir.path());
        workspace::Workspace workspace(dir.path(), &hub, &ledger, &hosts);
        providers::Provider *provider = hub.provider(QStringLiteral("runpod"));
        QVERIFY(await<providers::SshKey>([&](auto done) {
            provider->addSshKey(QStringLiteral("laptop"), QStringLiteral("ssh-ed25519 AAAAC3NzaC1 me@laptop"), done);
        }));
        providers::LaunchRequest request{QStringLiteral("NVIDIA GeForce RTX 4090"), QStringLiteral("US-KS-2"), QStringLiteral("laptop"),
                                         QStringLiteral("disk-box"), {}, {}, 500, 1};
        Result<QString> id = await<QString>([&](auto done) { provider->launch(request, done); });
        QVERIFY(id);
        Result<providers::Instance> up = await<providers::Instance>([&](auto done) { provider->getInstance(*id, done); });
        QVERIFY(up);
        QCOMPARE(up->volumeGb, 500);
        QVERIFY(ledger.recordLaunch(*up, 0.69));
        clock.advanceSeconds(3600);
        auto act = [&](workspace::InstanceAction action) {
            Result<workspace::ActionOutcome> outcome = Error{ErrorCode::Generic, {}};
            bool finished = false;
            workspace.act(action, QStringLiteral("runpod"), *id, {}, [&](Result<workspace::ActionOutcome> o) {
                outcome = std::move(o);
                finished = true;
            });
            if (!QTest::qWaitFor([&finished] { return finished; }, 10000))
                return false;
            if (!outcome)
                qWarning() << outcome.error().message;
            return outcome && outcome->warnings.isEmpty();
        };
        QVERIFY(act(workspace::InstanceAction::Stop));
        clock.advanceSeconds(5 * 3600);
        // The same stop reported again (the watcher, a reconcile): still one period.
        QVERIFY(ledger.recordStopped(QStringLiteral("runpod"), *id));
        Result<QList<providers::Instance>> live = await<QList<providers::Instance>>([&](auto done) { provider->listInstances(done); });
        QVERIFY(live);
        QVERIFY(ledger.reconcile(QStringLiteral("runpod"), *live));
        QVERIFY(ledger.entry(QStringLiteral("runpod"), *id)->isBillingStorage());
        QVERIFY(act(workspace::InstanceAction::Start));
        clock.advanceSeconds(3600); // running again: compute, no storage
        const Result<QList<cost::StoragePeriod>> periods = ledger.storagePeriods();
        QVERIFY(periods);
        QCOMPARE(periods->size(), 1);
        const cost::StoragePeriod &period = periods->first();
        QCOMPARE(period.instanceId, *id);
        QCOMPARE(period.volumeGb, 500);
        QCOMPARE(period.billedSeconds, 5 * 3600);
        QCOMPARE(period.currency, QStringLiteral("USD"));
        QVERIFY(!period.isOpen());
        QVERIFY2(near(period.cost, 5 * runpodStoppedPerHour(500)), qPrintable(QString::number(period.cost)));
        const cost::LedgerEntry entry = *ledger.entry(QStringLiteral("runpod"), *id);
        QVERIFY(near(entry.cost, 2 * 0.69));                 // compute: the two running hours only
        QVERIFY(near(entry.storageCost, period.cost));        // storage: the stopped five
        QVERIFY(near(cost::totalsByCurrency({entry}).value(QStringLiteral("USD")), entry.cost + entry.storageCost));
        QVERIFY(near(entry.costSoFar(), entry.cost + entry.storageCost)); // Instances' "Cost so far"
        QVERIFY(near(cost::totalsByCurrency({entry}, cost::CostPart::Storage).value(QStringLiteral("USD")), period.cost));
        // Terminating a stopped instance closes its storage period there.
        QVERIFY(act(workspace::InstanceAction::Stop));
        clock.advanceSeconds(1800);
        QVERIFY(act(workspace::InstanceAction::Terminate));
        clock.advanceSeconds(7200);
        QCOMPARE(ledger.storagePeriods()->size(), 2);
        QCOMPARE(ledger.storagePeriods()->last().billedSeconds, 1800);
    }

    // A daily budget of $1: compute alone is at 10 %, the stopped 2 TB disk brings it past 50 %.
    void budgetAlertCountsStorage()
    {
        QTemporaryDir dir;
        ManualClock clock(QDateTime(QDate(2026, 3, 10), QTime(1, 0), Qt::LocalTime).toUTC());
        cost::Ledger ledger(cost::Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        QVERIFY(ledger.setBudget(QStringLiteral("daily"), 1.0));
        cost::BudgetMonitor monitor(&ledger);
        QSignalSpy alerts(&monitor, &cost::BudgetMonitor::thresholdReached);
        QVERIFY(ledger.recordLaunch(pod(QStringLiteral("big-disk"), 2000), 0.10));
        clock.advanceSeconds(3600);
        QVERIFY(ledger.recordStopped(QStringLiteral("runpod"), QStringLiteral("big-disk")));
        monitor.check();
        QCOMPARE(alerts.count(), 0);
        clock.advanceSeconds(3600);
        monitor.check();
        const double storage = runpodStoppedPerHour(2000); // ≈ $0.55 an hour
        QCOMPARE(alerts.count(), 1);
        QCOMPARE(alerts.at(0).at(1).toInt(), 50);
        QVERIFY(near(alerts.at(0).at(2).toDouble(), 0.10 + storage));
        const QDateTime day = clock.now().addSecs(-7200);
        QVERIFY(near(ledger.spentBetween(day, clock.now(), QStringLiteral("USD"), cost::CostPart::Compute).valueOr(-1), 0.10));
        QVERIFY(near(ledger.spentBetween(day, clock.now(), QStringLiteral("USD"), cost::CostPart::Storage).valueOr(-1), storage));
        QVERIFY(near(monitor.status(QStringLiteral("daily"))->spent, 0.10 + storage));
        QVERIFY(near(cost::ratesByCurrency(*ledger.entries(), cost::CostPart::Storage).value(QStringLiteral("USD")), storage));
        QCOMPARE(cost::ratesByCurrency(*ledger.entries()).value(QStringLiteral("USD")), 0.0); // no compute running
    }

    // A hand-added AutoDL host at ¥2.50/h: billed from its add, paused and resumed, repriced,
    // closed by its removal; everything in CNY, nothing in dollars, budgets untouched.
    void savedCnyHostBilling()
    {
        QTemporaryDir dir;
        ManualClock clock;
        cost::Ledger ledger(cost::Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        HostStore hosts(dir.path());
        workspace::Workspace workspace(dir.path(), nullptr, &ledger, &hosts);
        QSignalSpy warnings(&workspace, &workspace::Workspace::billingWarning);
        SavedHost host = autodlHost(QStringLiteral("west-4090"), 2.5);
        QVERIFY(hosts.add(host));
        SavedHost instanceHost = autodlHost(QStringLiteral("pod-host"), 3.0);
        instanceHost.provider = QStringLiteral("runpod"); // billed through its provider's row, never twice
        instanceHost.instanceId = QStringLiteral("p1");
        QVERIFY(hosts.add(instanceHost));
        clock.advanceSeconds(2 * 3600);
        auto row = [&]() { return cost::hostBilling(ledger, host.name).valueOr(std::nullopt); };
        QVERIFY(row() && row()->isRunning());
        QCOMPARE(row()->currency, QStringLiteral("CNY"));
        QVERIFY(near(row()->cost, 5.0));
        QVERIFY(workspace.setHostBilling(host.name, false));
        QVERIFY(workspace.setHostBilling(host.name, false)); // twice: still one pause
        clock.advanceSeconds(3600);
        QVERIFY(near(row()->cost, 5.0));
        QVERIFY(row()->storageCost == 0); // no disk price for a hand-added host
        QVERIFY(cost::storageWarnings(*ledger.entries()).isEmpty()); // so no "its disk still bills" either
        QVERIFY(workspace.setHostBilling(host.name, true));
        clock.advanceSeconds(3600);
        QVERIFY(near(row()->cost, 7.5));
        host.setHourlyPrice(3.0, QStringLiteral("CNY"));
        QVERIFY(hosts.update(host));
        QCOMPARE(row()->instanceId, QStringLiteral("west-4090#2"));
        clock.advanceSeconds(3600);
        QVERIFY(near(row()->cost, 3.0));
        QVERIFY(hosts.remove(host.name));
        clock.advanceSeconds(3600);
        QVERIFY(!row());
        const Result<QList<cost::LedgerEntry>> entries = ledger.entries();
        QCOMPARE(entries->size(), 2);
        QCOMPARE(entries->first().note, QStringLiteral("price changed"));
        QVERIFY(!entries->last().isOpen());
        const QMap<QString, double> totals = cost::totalsByCurrency(*entries);
        QCOMPARE(totals.keys(), QStringList{QStringLiteral("CNY")});
        QVERIFY(near(totals.value(QStringLiteral("CNY")), 10.5));
        QCOMPARE(ledger.spentBetween(clock.now().addDays(-1), clock.now()).valueOr(-1), 0.0); // USD budgets: no yuan
        QCOMPARE(warnings.count(), 0);
        QCOMPARE(workspace.setHostBilling(QStringLiteral("pod-host"), true).error().code, ErrorCode::Usage);
    }

    // recordLaunch writes the instance and its first meter in one transaction: when the second
    // insert fails, nothing of the launch is left.
    void recordLaunchIsOneTransaction()
    {
        QTemporaryDir dir;
        ManualClock clock;
        const QString path = cost::Ledger::defaultPath(dir.path());
        cost::Ledger ledger(path, clock);
        QVERIFY(ledger.open());
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("sabotage"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery query(db);
            QVERIFY(query.exec(QStringLiteral("CREATE TRIGGER no_meters BEFORE INSERT ON intervals BEGIN SELECT RAISE(ABORT, 'disk full'); END")));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("sabotage"));
        const Result<void> recorded = ledger.recordLaunch(pod(QStringLiteral("half"), 0), 1.0);
        QVERIFY(!recorded);
        QVERIFY2(recorded.error().message.contains(QLatin1String("disk full")), qPrintable(recorded.error().message));
        QCOMPARE(ledger.entry(QStringLiteral("runpod"), QStringLiteral("half")).error().code, ErrorCode::NotFound);
    }

    // gantry-cli shows it all: storage periods and totals apart from compute, a host's yuan rows.
    void cliShowsStorageAndHostRows()
    {
        QTemporaryDir dir;
        const QDateTime now = QDateTime::currentDateTimeUtc();
        {
            ManualClock clock(now.addSecs(-5 * 3600)); // a closed story, so the wall clock does not move it
            cost::Ledger ledger(cost::Ledger::defaultPath(dir.path()), clock);
            QVERIFY(ledger.open());
            QVERIFY(ledger.recordLaunch(pod(QStringLiteral("p9"), 500), 1.0));
            clock.advanceSeconds(3600);
            QVERIFY(ledger.recordStopped(QStringLiteral("runpod"), QStringLiteral("p9")));
            clock.advanceSeconds(3 * 3600);
            QVERIFY(ledger.recordTerminated(QStringLiteral("runpod"), QStringLiteral("p9")));
        }
        QJsonObject cost = cliJson(dir.path(), {QStringLiteral("cost")});
        const QJsonArray storage = cost.value(QStringLiteral("storage")).toArray();
        QCOMPARE(storage.size(), 1);
        QCOMPARE(storage.at(0)[QStringLiteral("billed_seconds")].toInteger(), 3 * 3600);
        QCOMPARE(storage.at(0)[QStringLiteral("currency")].toString(), QStringLiteral("USD"));
        const double stored = 3 * runpodStoppedPerHour(500);
        QVERIFY(qAbs(storage.at(0)[QStringLiteral("cost")].toDouble() - stored) < 1e-6);
        QVERIFY(qAbs(cost[QStringLiteral("storage_by_currency")][QStringLiteral("USD")].toDouble() - stored) < 1e-6);
        QVERIFY(qAbs(cost[QStringLiteral("compute_by_currency")][QStringLiteral("USD")].toDouble() - 1.0) < 1e-6);
        QVERIFY(qAbs(cost[QStringLiteral("totals_by_currency")][QStringLiteral("USD")].toDouble() - (1.0 + stored)) < 1e-6);
        QVERIFY(qAbs(cost[QStringLiteral("entries")][0][QStringLiteral("storage_cost")].toDouble() - stored) < 1e-6);

        // hosts add with a price bills in that currency; billing off pauses; remove closes the row.
        QJsonObject added = cliJson(dir.path(), {QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("west-4090"),
                                                 QStringLiteral("root@region-9.autodl.com:40022"), QStringLiteral("--price"),
                                                 QStringLiteral("2.5"), QStringLiteral("--currency"), QStringLiteral("cny")});
        QCOMPARE(added.value(QStringLiteral("currency")).toString(), QStringLiteral("CNY"));
        QJsonObject billing = cliJson(dir.path(), {QStringLiteral("hosts"), QStringLiteral("billing"), QStringLiteral("west-4090")});
        QCOMPARE(billing.value(QStringLiteral("billing")).toBool(), true);
        QCOMPARE(billing.value(QStringLiteral("currency")).toString(), QStringLiteral("CNY"));
        billing = cliJson(dir.path(), {QStringLiteral("hosts"), QStringLiteral("billing"), QStringLiteral("west-4090"), QStringLiteral("off")});
        QCOMPARE(billing.value(QStringLiteral("billing")).toBool(), false);
        cost = cliJson(dir.path(), {QStringLiteral("cost")});
        QJsonObject hostRow;
        for (const QJsonValue &entry : cost.value(QStringLiteral("entries")).toArray()) {
            if (entry[QStringLiteral("provider")].toString() == QLatin1String("host"))
                hostRow = entry.toObject();
        }
        QCOMPARE(hostRow.value(QStringLiteral("name")).toString(), QStringLiteral("west-4090"));
        QCOMPARE(hostRow.value(QStringLiteral("currency")).toString(), QStringLiteral("CNY"));
        QCOMPARE(hostRow.value(QStringLiteral("price_per_hour")).toDouble(), 2.5);
        QCOMPARE(hostRow.value(QStringLiteral("state")).toString(), QStringLiteral("stopped"));
        QVERIFY(cost.value(QStringLiteral("totals_by_currency")).toObject().contains(QStringLiteral("CNY")));
        cliJson(dir.path(), {QStringLiteral("hosts"), QStringLiteral("remove"), QStringLiteral("west-4090")});
        cost = cliJson(dir.path(), {QStringLiteral("cost")});
        for (const QJsonValue &entry : cost.value(QStringLiteral("entries")).toArray()) {
            if (entry[QStringLiteral("provider")].toString() == QLatin1String("host"))
                QCOMPARE(entry[QStringLiteral("state")].toString(), QStringLiteral("terminated"));
        }
    }
};

QTEST_GUILESS_MAIN(TestStorageBilling)
#include "test_storage_billing.moc"
