#include "core/monitor/alerts.h"
#include "core/monitor/procparser.h"
#include "core/monitor/monitorservice.h"

#include <QSignalSpy>
#include <QTest>

using namespace gantry;
using namespace gantry::monitor;

namespace {
GpuSample gpu(int index, double util, double power, double limit = 700)
{
    GpuSample g;
    g.index = index;
    g.utilizationGpu = util;
    g.powerDrawW = power;
    g.powerLimitW = limit;
    g.memoryUsedMib = 1000;
    g.memoryTotalMib = 81559;
    return g;
}

MachineSample sample(const ManualClock &clock, QList<GpuSample> gpus, double maxCore = 5)
{
    MachineSample s;
    s.time = clock.now();
    s.host = QStringLiteral("h100");
    s.gpus = std::move(gpus);
    s.driver = DriverState::Ok;
    HostMetrics h;
    h.coreBusyPercent = {maxCore, 1, 1, 1};
    h.cpuBusyPercent = maxCore / 4;
    s.hostMetrics = h;
    return s;
}
} // namespace

class TestMonitorAlerts : public QObject
{
    Q_OBJECT

private slots:
    void idleNeedsAllGpusAndTheFullDuration()
    {
        ManualClock clock;
        AlertEngine engine(QStringLiteral("h100"), clock);
        AlertThresholds t;
        t.idleMinutes = 10;
        engine.setThresholds(t);
        QSignalSpy raised(&engine, &AlertEngine::raised);
        QSignalSpy cleared(&engine, &AlertEngine::cleared);
        for (int s = 0; s < 9 * 60; ++s) {
            engine.evaluate(sample(clock, {gpu(0, 0, 70), gpu(1, 0, 72)}));
            clock.advanceSeconds(1);
        }
        QCOMPARE(raised.count(), 0);
        for (int s = 0; s < 61; ++s) {
            engine.evaluate(sample(clock, {gpu(0, 0, 70), gpu(1, 0, 72)}));
            clock.advanceSeconds(1);
        }
        QCOMPARE(raised.count(), 1); // once, not every sample
        QCOMPARE(raised.first().first().value<Alert>().kind, AlertKind::GpuIdle);
        engine.evaluate(sample(clock, {gpu(0, 0, 70), gpu(1, 95, 650)}));
        QCOMPARE(cleared.count(), 1);
    }

    void unknownIsNeverIdle()
    {
        GpuSample g;
        g.index = 0;
        QVERIFY(!AlertEngine::gpuIdle(g, AlertThresholds{}));
        g.powerDrawW = 60;
        QVERIFY(!AlertEngine::gpuIdle(g, AlertThresholds{})); // no limit known
        g.powerLimitW = 700;
        QVERIFY(AlertEngine::gpuIdle(g, AlertThresholds{}));  // MIG: power only
        g.utilizationGpu = 80;
        QVERIFY(!AlertEngine::gpuIdle(g, AlertThresholds{}));
    }

    void notBillingNoIdleAlert()
    {
        ManualClock clock;
        AlertEngine engine(QStringLiteral("h100"), clock);
        engine.setBilling(false);
        QSignalSpy raised(&engine, &AlertEngine::raised);
        for (int s = 0; s < 20 * 60; s += 10) {
            engine.evaluate(sample(clock, {gpu(0, 0, 70)}));
            clock.advanceSeconds(10);
        }
        QCOMPARE(raised.count(), 0);
    }

    void hints()
    {
        ManualClock clock;
        AlertEngine engine(QStringLiteral("h100"), clock);
        QSignalSpy raised(&engine, &AlertEngine::raised);
        QList<AlertKind> kinds;
        connect(&engine, &AlertEngine::raised, this, [&](const Alert &a) { kinds.append(a.kind); });

        // GPU at 20 % with a pegged core for a minute: data loading.
        for (int s = 0; s <= 60; ++s) {
            engine.evaluate(sample(clock, {gpu(0, 20, 200)}, 100));
            clock.advanceSeconds(1);
        }
        QVERIFY(kinds.contains(AlertKind::DataLoaderBottleneck));
        const Alert hint = raised.last().first().value<Alert>();
        QVERIFY(hint.message.contains(QLatin1StringView("num_workers")));

        GpuSample full = gpu(0, 99, 600);
        full.memoryUsedMib = 80000;
        full.clocksEventReasons = reasons::HwThermalSlowdown | reasons::HwPowerBrakeSlowdown;
        full.pcieGen = 3;
        full.pcieGenMax = 5;
        full.pcieWidth = 16;
        full.pcieWidthMax = 16;
        full.eccUncorrected = 0;
        for (int s = 0; s <= 30; ++s) {
            engine.evaluate(sample(clock, {full}));
            clock.advanceSeconds(1);
        }
        QVERIFY(kinds.contains(AlertKind::MemoryNearFull));
        QVERIFY(kinds.contains(AlertKind::ThermalThrottle));
        QVERIFY(kinds.contains(AlertKind::PowerBrake));
        QVERIFY(kinds.contains(AlertKind::PcieDowngraded));
        QVERIFY(!kinds.contains(AlertKind::EccErrors));
        full.eccUncorrected = 2;
        engine.evaluate(sample(clock, {full}));
        QVERIFY(kinds.contains(AlertKind::EccErrors));
        QVERIFY(raised.last().first().value<Alert>().message.contains(QLatin1StringView("2 new uncorrected")));

        MachineSample dead = sample(clock, {});
        dead.driver = DriverState::Failed;
        dead.driverMessage = QStringLiteral("nvidia-smi stopped answering");
        engine.evaluate(dead);
        QVERIFY(kinds.contains(AlertKind::DriverNotResponding));
        QVERIFY(!engine.active().isEmpty());
    }

    // A job that keeps the GPU near 30 % with no pegged core (a loader spread over workers, slow
    // storage): a warning after lowUtilMinutes, once, that clears when the GPU is busy again.
    void lowUtilizationWithoutAPeggedCore()
    {
        ManualClock clock;
        AlertEngine engine(QStringLiteral("h100"), clock);
        QSignalSpy raised(&engine, &AlertEngine::raised);
        QSignalSpy cleared(&engine, &AlertEngine::cleared);
        const double minutes = engine.thresholds().lowUtilMinutes;
        QVERIFY(minutes > 0 && minutes <= 10);
        for (int s = 0; s < minutes * 60 - 10; s += 5) {
            engine.evaluate(sample(clock, {gpu(0, 30, 260)}, 20));
            clock.advanceSeconds(5);
        }
        QCOMPARE(raised.count(), 0);
        for (int s = 0; s < 30; s += 5) {
            engine.evaluate(sample(clock, {gpu(0, 30, 260)}, 20));
            clock.advanceSeconds(5);
        }
        QCOMPARE(raised.count(), 1);
        const Alert alert = raised.first().first().value<Alert>();
        QCOMPARE(alert.kind, AlertKind::LowUtilization);
        QCOMPARE(alert.severity, AlertSeverity::Warning);
        QVERIFY2(alert.message.contains(QLatin1StringView("now 30 %")), qPrintable(alert.message));
        engine.evaluate(sample(clock, {gpu(0, 95, 650)}, 20));
        QCOMPARE(cleared.count(), 1);
        // Idle GPUs without a process are the idle alert's, not this one's.
        AlertEngine idle(QStringLiteral("h100"), clock);
        QSignalSpy idleRaised(&idle, &AlertEngine::raised);
        for (int s = 0; s < 20 * 60; s += 10) {
            idle.evaluate(sample(clock, {gpu(0, 0, 70)}));
            clock.advanceSeconds(10);
        }
        for (const QList<QVariant> &args : std::as_const(idleRaised))
            QVERIFY(args.at(0).value<Alert>().kind != AlertKind::LowUtilization);
    }

    // The low-utilization warning says what the host's CPUs were doing, from /proc/stat: two
    // snapshots a second apart in the kernel's format (cpu user nice system idle iowait irq
    // softirq steal), 4 cores spending half their time in iowait.
    void lowUtilizationNamesTheLikelyCause()
    {
        ProcParser proc;
        proc.begin(1000.0);
        proc.addStatLine(QStringLiteral("cpu  40000 0 10000 300000 50000 0 100 0 0 0"));
        for (int c = 0; c < 4; ++c) {
            proc.addStatLine(QStringLiteral("cpu%1 10000 0 2500 75000 12500 0 25 0 0 0").arg(c));
        }
        (void)proc.finish();
        proc.begin(1001.0);
        proc.addStatLine(QStringLiteral("cpu  40060 0 10020 300120 50200 0 100 0 0 0"));
        for (int c = 0; c < 4; ++c) {
            proc.addStatLine(QStringLiteral("cpu%1 10015 0 2505 75030 12550 0 25 0 0 0").arg(c));
        }
        const HostMetrics waiting = proc.finish();
        QCOMPARE(qRound(*waiting.ioWaitPercent), 50);
        QCOMPARE(qRound(*waiting.cpuBusyPercent), 20);

        ManualClock clock;
        AlertEngine engine(QStringLiteral("h100"), clock);
        QSignalSpy raised(&engine, &AlertEngine::raised);
        for (int s = 0; s <= engine.thresholds().lowUtilMinutes * 60 + 10; s += 5) {
            MachineSample m = sample(clock, {gpu(0, 25, 240)});
            m.hostMetrics = waiting;
            engine.evaluate(m);
            clock.advanceSeconds(5);
        }
        QCOMPARE(raised.count(), 1);
        const QString io = raised.first().first().value<Alert>().message;
        QVERIFY2(io.contains(QLatin1StringView("Likely cause: I/O wait (the CPUs spend 50 %")), qPrintable(io));

        // Neither a pegged core nor I/O wait: said, not guessed.
        AlertEngine quiet(QStringLiteral("h100"), clock);
        QSignalSpy quietRaised(&quiet, &AlertEngine::raised);
        for (int s = 0; s <= quiet.thresholds().lowUtilMinutes * 60 + 10; s += 5) {
            quiet.evaluate(sample(clock, {gpu(0, 25, 240)}, 20));
            clock.advanceSeconds(5);
        }
        QCOMPARE(quietRaised.count(), 1);
        QVERIFY(quietRaised.first().first().value<Alert>().message.endsWith(
            QLatin1StringView("No CPU-bound process or I/O wait is visible on the host.")));
    }

    void pcieIdleDownshiftIsNormal()
    {
        ManualClock clock;
        AlertEngine engine(QStringLiteral("h100"), clock);
        QSignalSpy raised(&engine, &AlertEngine::raised);
        GpuSample g = gpu(0, 3, 700 * 0.5);
        g.pcieGen = 1;
        g.pcieGenMax = 5;
        for (int s = 0; s <= 120; ++s) {
            engine.evaluate(sample(clock, {g}));
            clock.advanceSeconds(1);
        }
        QCOMPARE(raised.count(), 0);
    }

    void idlePolicyCountdownRequestsStop()
    {
        ManualClock clock;
        IdlePolicy policy(QStringLiteral("h100"), clock);
        policy.setAction(IdleAction::Stop);
        policy.setCountdownSeconds(60);
        QSignalSpy started(&policy, &IdlePolicy::countdownStarted);
        QSignalSpy changed(&policy, &IdlePolicy::countdownChanged);
        QSignalSpy requested(&policy, &IdlePolicy::actionRequested);
        policy.idleDetected(QStringLiteral("idle"));
        QCOMPARE(started.count(), 1);
        QVERIFY(policy.counting());
        QCOMPARE(policy.remainingSeconds(), 60);
        for (int s = 0; s < 59; ++s) {
            clock.advanceSeconds(1);
            policy.tick();
        }
        QCOMPARE(requested.count(), 0);
        QCOMPARE(policy.remainingSeconds(), 1);
        QVERIFY(changed.count() >= 59);
        clock.advanceSeconds(1);
        policy.tick();
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.first().at(1).value<IdleAction>(), IdleAction::Stop);
        QVERIFY(!policy.counting());
    }

    void idlePolicyCancelAndActivity()
    {
        ManualClock clock;
        IdlePolicy policy(QStringLiteral("h100"), clock);
        policy.setAction(IdleAction::Terminate);
        policy.setCountdownSeconds(30);
        QSignalSpy cancelled(&policy, &IdlePolicy::countdownCancelled);
        QSignalSpy requested(&policy, &IdlePolicy::actionRequested);
        policy.idleDetected(QStringLiteral("idle"));
        clock.advanceSeconds(10);
        policy.tick();
        policy.cancel();
        QCOMPARE(cancelled.count(), 1);
        clock.advanceSeconds(60);
        policy.tick();
        QCOMPARE(requested.count(), 0);

        policy.idleDetected(QStringLiteral("idle again"));
        clock.advanceSeconds(5);
        policy.activityDetected();
        QCOMPARE(cancelled.count(), 2);
        clock.advanceSeconds(60);
        policy.tick();
        QCOMPARE(requested.count(), 0);
    }

    void idlePolicyNeverActsWithTransfersOrJobs()
    {
        ManualClock clock;
        IdlePolicy policy(QStringLiteral("h100"), clock);
        policy.setAction(IdleAction::Stop);
        policy.setCountdownSeconds(10);
        bool transfers = true;
        bool jobs = false;
        policy.setTransfersPending([&] { return transfers; });
        policy.setJobsRunning([&] { return jobs; });
        QSignalSpy blocked(&policy, &IdlePolicy::actionBlocked);
        QSignalSpy requested(&policy, &IdlePolicy::actionRequested);
        policy.idleDetected(QStringLiteral("idle"));
        QCOMPARE(blocked.count(), 1);
        QVERIFY(!policy.counting());

        transfers = false;
        policy.idleDetected(QStringLiteral("idle"));
        QVERIFY(policy.counting());
        jobs = true; // a job started during the countdown
        clock.advanceSeconds(10);
        policy.tick();
        QCOMPARE(requested.count(), 0);
        QCOMPARE(blocked.count(), 2);
        QVERIFY(blocked.last().at(1).toString().contains(QLatin1StringView("jobs")));
    }

    void notifyPolicyOnlyNotifies()
    {
        ManualClock clock;
        IdlePolicy policy(QStringLiteral("h100"), clock);
        QSignalSpy notified(&policy, &IdlePolicy::notify);
        QSignalSpy started(&policy, &IdlePolicy::countdownStarted);
        policy.idleDetected(QStringLiteral("idle"));
        QCOMPARE(notified.count(), 1);
        QCOMPARE(started.count(), 0);
    }

    // The service wires alerts to the idle policy.
    void serviceIdleToCountdown()
    {
        ManualClock clock;
        MonitorService service(nullptr, {}, clock);
        service.retainDetail(QStringLiteral("h100")); // as the Monitor tab does: 1 s history below
        service.addMachine(QStringLiteral("h100"), 2.49);
        AlertThresholds t;
        t.idleMinutes = 1;
        service.alerts(QStringLiteral("h100"))->setThresholds(t);
        service.idlePolicy(QStringLiteral("h100"))->setAction(IdleAction::Stop);
        QSignalSpy started(service.idlePolicy(QStringLiteral("h100")), &IdlePolicy::countdownStarted);
        QSignalSpy cancelled(service.idlePolicy(QStringLiteral("h100")), &IdlePolicy::countdownCancelled);
        QSignalSpy alerts(&service, &MonitorService::alertRaised);
        for (int s = 0; s <= 61; ++s) {
            service.injectSample(QStringLiteral("h100"), sample(clock, {gpu(0, 0, 60)}));
            clock.advanceSeconds(1);
        }
        QCOMPARE(alerts.count(), 1);
        QCOMPARE(started.count(), 1);
        service.injectSample(QStringLiteral("h100"), sample(clock, {gpu(0, 90, 600)}));
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(service.store(QStringLiteral("h100"))->points(SeriesKey{0, Metric::GpuUtilization}, Resolution::Seconds1).size(), 63);
    }
};

QTEST_GUILESS_MAIN(TestMonitorAlerts)
#include "test_monitor_alerts.moc"
