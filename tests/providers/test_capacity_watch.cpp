// Capacity watch and auto-launch against emulators whose capacity appears after N polls, driven by
// a ManualClock; and the launch whose answer is lost, adopted or reported for every provider.
#include "restconfigfor.h"
#include "lambdaemulator.h"
#include "runpodemulator.h"
#include "shadeformemulator.h"
#include "vastemulator.h"

#include "core/providers/await.h"
#include "core/providers/capacitywatch.h"
#include "core/providers/lambdaprovider.h"
#include "core/providers/launchfailure.h"
#include "core/providers/runpodprovider.h"
#include "core/providers/shadeformprovider.h"
#include "core/providers/vastprovider.h"

#include <QSignalSpy>
#include <QTest>

using namespace gantry;
using namespace gantry::providers;

namespace {

// Two attempts and short delays: a watch's retries, not the provider's, are under test.
RestConfig configFor(const test::EmulatorServer &server, int timeoutMs = 3000)
{
    test::EmulatorTiming timing;
    timing.maxAttempts = 2;
    timing.maxDelayMs = 50;
    timing.timeoutMs = timeoutMs;
    return test::restConfigFor(server, timing);
}

const QString kKey = QStringLiteral("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG laptop");

void addKey(Provider &provider)
{
    QVERIFY(await<SshKey>([&](auto done) { provider.addSshKey(QStringLiteral("laptop"), kKey, done); }));
}

// One poll round: tick, then wait until every provider answered.
void pollRound(CapacityWatcher &watcher, QSignalSpy &polled, QSignalSpy &failed, int providers)
{
    const qsizetype before = polled.size() + failed.size();
    watcher.tick();
    QTRY_VERIFY_WITH_TIMEOUT(polled.size() + failed.size() >= before + providers, 10000);
}

} // namespace

class TestCapacityWatch final : public QObject
{
    Q_OBJECT

private slots:
    void matchesKeepModelsAndPricesApart()
    {
        test::VastEmulator emulator;
        QVERIFY(emulator.listen());
        VastProvider vast(configFor(emulator));
        Result<QList<InstanceType>> offers = await<QList<InstanceType>>([&](auto done) { vast.listInstanceTypes(done); });
        QVERIFY(offers);
        CapacityQuery query;
        query.gpu = QStringLiteral("H100 SXM");
        QList<CapacityMatch> sxm = findCapacity(vast.info(), *offers, query);
        QCOMPARE(sxm.size(), 2);
        QCOMPARE(sxm.first().type.name, QStringLiteral("4100302")); // the cheaper one
        query.gpu = QStringLiteral("H100");
        QCOMPARE(findCapacity(vast.info(), *offers, query).size(), 4);
        query.maxPricePerGpuHour = 1.90;
        QCOMPARE(findCapacity(vast.info(), *offers, query).size(), 1); // the PCIe one at 1.69
        query = {};
        query.gpu = QStringLiteral("RTX 4090");
        query.count = 2;
        query.regions = {QStringLiteral("US")};
        QCOMPARE(findCapacity(vast.info(), *offers, query).size(), 1);
        QCOMPARE(classifyLaunchFailure(Error{ErrorCode::Provider, QStringLiteral("x Insufficient balance: add")}), LaunchFailure::Balance);
        QCOMPARE(classifyLaunchFailure(Error{ErrorCode::Timeout, QStringLiteral("slow")}), LaunchFailure::Transient);
    }

    void watchUntilCapacityAppearsThenLaunchOnce()
    {
        test::VastEmulator vastEmu;
        vastEmu.hiddenSearches = 2;
        vastEmu.bootMs = 50;
        QVERIFY(vastEmu.listen());
        VastProvider vast(configFor(vastEmu));
        addKey(vast);
        test::ShadeformEmulator shadeEmu;
        shadeEmu.hiddenPolls = 100; // never: the cheaper H100 elsewhere must not matter
        QVERIFY(shadeEmu.listen());
        ShadeformProvider shade(configFor(shadeEmu));
        ManualClock clock;
        WatchOptions options;
        options.query.gpu = QStringLiteral("H100");
        options.query.count = 1;
        options.query.maxPricePerGpuHour = 2.50;
        options.launch = true;
        options.sshKey = QStringLiteral("laptop");
        options.name = QStringLiteral("grabbed");
        CapacityWatcher watcher({&vast, &shade}, options, clock);
        QSignalSpy polled(&watcher, &CapacityWatcher::polled);
        QSignalSpy failed(&watcher, &CapacityWatcher::pollFailed);
        QSignalSpy found(&watcher, &CapacityWatcher::matchFound);
        QSignalSpy launched(&watcher, &CapacityWatcher::launched);
        QSignalSpy finished(&watcher, &CapacityWatcher::finished);

        pollRound(watcher, polled, failed, 2);
        QCOMPARE(found.size(), 0);
        watcher.tick(); // not due yet: nothing is asked
        QCOMPARE(vastEmu.searchCount, 1);
        clock.advanceSeconds(9); // Vast's polite interval is 10 s ± 10 %
        watcher.tick();
        QCOMPARE(vastEmu.searchCount, 1);
        clock.advanceSeconds(3);
        pollRound(watcher, polled, failed, 1);
        QCOMPARE(found.size(), 0);
        clock.advanceSeconds(12);
        watcher.tick();
        // The third search shows the H100s. Shadeform is due in this round too, and under load its
        // answer can come first: wait for Vast's match, not for any one answer.
        QTRY_VERIFY_WITH_TIMEOUT(found.size() >= 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QCOMPARE(finished.first().at(0).toBool(), true);
        QCOMPARE(launched.size(), 1);
        QCOMPARE(vastEmu.instanceCount(), 1);
        const auto match = launched.first().at(0).value<CapacityMatch>();
        QCOMPARE(match.type.name, QStringLiteral("4100303")); // cheapest H100 under $2.50
        clock.advanceSeconds(60);
        watcher.tick();
        QCOMPARE(vastEmu.instanceCount(), 1); // one launch, then it stops
    }

    // A marketplace machine whose acceptance test failed is never matched again: the watch finds
    // the next offer instead (issue #34: the capacity watch skips flagged machines).
    void aFlaggedMachineIsNeverMatched()
    {
        test::VastEmulator emulator;
        emulator.addOffer(4200001, QStringLiteral("H100 SXM"), 1, 2.40, QStringLiteral("Utah, US")); // another machine
        QVERIFY(emulator.listen());
        VastProvider vast(configFor(emulator));
        Result<QList<InstanceType>> offers = await<QList<InstanceType>>([&](auto done) { vast.listInstanceTypes(done); });
        QVERIFY(offers);
        QString flaggedMachine;
        for (const InstanceType &type : *offers) {
            if (type.name == QLatin1StringView("4100302"))
                flaggedMachine = type.machineId;
        }
        QVERIFY(!flaggedMachine.isEmpty());
        ManualClock clock;
        WatchOptions options;
        options.query.gpu = QStringLiteral("H100 SXM");
        options.isFlagged = [flaggedMachine](const QString &provider, const QString &machineId) {
            return provider == QLatin1StringView("vast") && machineId == flaggedMachine;
        };
        CapacityWatcher watcher({&vast}, options, clock);
        QSignalSpy polled(&watcher, &CapacityWatcher::polled);
        QSignalSpy failed(&watcher, &CapacityWatcher::pollFailed);
        QSignalSpy found(&watcher, &CapacityWatcher::matchFound);
        pollRound(watcher, polled, failed, 1);
        // Three SXM offers, two of them on the flagged machine: the one elsewhere is all that is found.
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().at(0).value<CapacityMatch>().type.name, QStringLiteral("4200001"));
    }

    void capacityGoneFallsBackThenFatalErrorsStop()
    {
        test::ShadeformEmulator emulator;
        QVERIFY(emulator.listen());
        ShadeformProvider shade(configFor(emulator));
        addKey(shade);
        ManualClock clock;
        WatchOptions options;
        options.query.gpu = QStringLiteral("A6000");
        options.launch = true;
        options.sshKey = QStringLiteral("laptop");
        options.fallbackTypes = {QStringLiteral("shadeform:lambdalabs/H100")};
        test::Fault gone;
        gone.pathContains = QStringLiteral("/create");
        gone.status = 400;
        gone.body = "{\"error\": \"The selected instance type is out of capacity in this region\"}";
        emulator.addFault(gone);
        CapacityWatcher watcher({&shade}, options, clock);
        QSignalSpy launchFailed(&watcher, &CapacityWatcher::launchFailed);
        QSignalSpy launched(&watcher, &CapacityWatcher::launched);
        QSignalSpy finished(&watcher, &CapacityWatcher::finished);
        watcher.tick();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QCOMPARE(launchFailed.size(), 1);
        QCOMPARE(launchFailed.first().at(1).toString(), QStringLiteral("capacity"));
        QCOMPARE(launched.size(), 1);
        QCOMPARE(launched.first().at(0).value<CapacityMatch>().type.name, QStringLiteral("lambdalabs/H100"));

        // An empty wallet is not retried: it is reported and the watch ends.
        emulator.walletEmpty = true;
        CapacityWatcher broke({&shade}, options, clock);
        QSignalSpy brokeFailed(&broke, &CapacityWatcher::launchFailed);
        QSignalSpy brokeFinished(&broke, &CapacityWatcher::finished);
        broke.tick();
        QTRY_COMPARE_WITH_TIMEOUT(brokeFinished.size(), 1, 10000);
        QCOMPARE(brokeFinished.first().at(0).toBool(), false);
        QCOMPARE(brokeFailed.first().at(1).toString(), QStringLiteral("insufficient_balance"));
        QCOMPARE(brokeFailed.first().at(3).toBool(), false);
        QCOMPARE(emulator.instanceCount(), 1);
    }

    void pollFailuresBackOffWithJitter()
    {
        test::VastEmulator emulator;
        QVERIFY(emulator.listen());
        VastProvider vast(configFor(emulator));
        ManualClock clock;
        WatchOptions options;
        options.query.gpu = QStringLiteral("B200");
        CapacityWatcher watcher({&vast}, options, clock);
        QSignalSpy polled(&watcher, &CapacityWatcher::polled);
        QSignalSpy failed(&watcher, &CapacityWatcher::pollFailed);
        test::Fault fault;
        fault.status = 429;
        fault.count = -1;
        emulator.addFault(fault);
        pollRound(watcher, polled, failed, 1);
        pollRound(watcher, polled, failed, 0); // not due
        const qint64 first = failed.last().at(2).toLongLong();
        QVERIFY2(first >= 16000 && first <= 24000, qPrintable(QString::number(first))); // 20 s ± 20 %
        clock.advanceMs(first);
        pollRound(watcher, polled, failed, 1);
        const qint64 second = failed.last().at(2).toLongLong();
        QVERIFY2(second >= 32000 && second <= 48000, qPrintable(QString::number(second)));
        QVERIFY(failed.last().at(1).toString().contains(QStringLiteral("Rate limited")));
    }

    // The launch reached the provider, the answer did not: look the instance up by name.
    void lostLaunchAnswerIsAdoptedOrReported_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<int>("status");
        for (const char *provider : {"lambda", "runpod", "vast", "shadeform"}) {
            QTest::addRow("%s-502", provider) << QString::fromLatin1(provider) << 502;
            QTest::addRow("%s-timeout", provider) << QString::fromLatin1(provider) << 0;
        }
    }

    void lostLaunchAnswerIsAdoptedOrReported()
    {
        QFETCH(QString, provider);
        QFETCH(int, status);
        std::unique_ptr<test::EmulatorServer> server;
        std::unique_ptr<Provider> client;
        LaunchRequest request;
        request.sshKeyName = QStringLiteral("laptop");
        if (provider == QLatin1String("lambda")) {
            server = std::make_unique<test::LambdaEmulator>();
            request.typeName = QStringLiteral("gpu_1x_a10");
            request.region = QStringLiteral("us-east-1");
        } else if (provider == QLatin1String("runpod")) {
            auto runpod = std::make_unique<test::RunPodEmulator>();
            runpod->keys = {kKey};
            server = std::move(runpod);
            request.typeName = QStringLiteral("NVIDIA GeForce RTX 4090");
            request.sshKeyName.clear();
        } else if (provider == QLatin1String("vast")) {
            server = std::make_unique<test::VastEmulator>();
            request.typeName = QStringLiteral("4100201");
        } else {
            server = std::make_unique<test::ShadeformEmulator>();
            request.typeName = QStringLiteral("massedcompute/A6000");
            request.region = QStringLiteral("kansascity-usa-1");
        }
        QVERIFY(server->listen());
        const RestConfig config = configFor(*server, 800);
        if (provider == QLatin1String("lambda"))
            client = std::make_unique<LambdaProvider>(config);
        else if (provider == QLatin1String("runpod"))
            client = std::make_unique<RunPodProvider>(config);
        else if (provider == QLatin1String("vast"))
            client = std::make_unique<VastProvider>(config);
        else
            client = std::make_unique<ShadeformProvider>(config);
        if (provider == QLatin1String("vast") || provider == QLatin1String("shadeform"))
            addKey(*client);

        // The server acts on the request, but the client never sees the answer.
        const QString launchPath = provider == QLatin1String("lambda") ? QStringLiteral("/launch")
            : provider == QLatin1String("runpod")                      ? QStringLiteral("/v2/pods")
            : provider == QLatin1String("vast")                        ? QStringLiteral("/asks/")
                                                                       : QStringLiteral("/create");
        test::Fault fault;
        fault.pathContains = launchPath;
        fault.method = provider == QLatin1String("vast") ? "PUT" : "POST";
        fault.status = 0;
        fault.delayMs = 1500; // status 0: the real answer, too late
        test::Fault gateway = fault;
        gateway.status = status;
        gateway.delayMs = 0;
        server->addFault(status == 0 ? fault : gateway);
        LaunchAttempt attempt(client.get(), request);
        attempt.setLookup(2, 50);
        QVERIFY(attempt.request().name.startsWith(QLatin1String("gantry-")));
        Result<LaunchOutcome> outcome = await<LaunchOutcome>([&](auto done) { attempt.start(done); });
        if (status == 0) {
            // A timeout: the instance exists and is adopted.
            QVERIFY2(outcome, outcome ? "" : qPrintable(outcome.error().message));
            QVERIFY(outcome->adopted);
            QVERIFY2(outcome->note.contains(QStringLiteral("adopted")), qPrintable(outcome->note));
            QTest::qWait(800); // the late answer lands on a closed socket
        } else {
            // A gateway error in front of the service: nothing was created, and the user is told so.
            QVERIFY(!outcome);
            QVERIFY2(outcome.error().message.contains(QStringLiteral("found none")), qPrintable(outcome.error().message));
        }
        QCOMPARE(client->lostUnsafeReplies(), 1);
    }
};

QTEST_GUILESS_MAIN(TestCapacityWatch)
#include "test_capacity_watch.moc"
