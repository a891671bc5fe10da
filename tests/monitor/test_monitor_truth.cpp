// SPDX-License-Identifier: Apache-2.0
// What Monitor says beyond the raw lines: energy, money spent while the GPUs were mostly idle,
// and the spans when clocks were held back (from real nvidia-smi captures and variants of them).
#include "core/monitor/monitorservice.h"
#include "core/monitor/nvidiasmiparser.h"
#include "core/monitor/throttlelog.h"
#include "core/monitor/usagemeter.h"

#include <QFile>
#include <QTest>

using namespace gantry::monitor;

namespace {

constexpr qint64 kT0 = 1'700'000'000'000;

MachineSample machine(qint64 tMs, int gpus, double util, std::optional<double> watts)
{
    MachineSample s;
    s.time = QDateTime::fromMSecsSinceEpoch(tMs, Qt::UTC);
    s.host = QStringLiteral("h100x8");
    for (int i = 0; i < gpus; ++i) {
        GpuSample g;
        g.index = i;
        g.utilizationGpu = util;
        g.powerDrawW = watts;
        s.gpus.append(g);
    }
    return s;
}

// The real H100 capture under load (clocks_event_reasons.active 0x0), optionally with the
// active mask replaced (a hand-made variant of the same machine).
QList<GpuSample> capturedH100(const QByteArray &activeMask = {})
{
    QFile f(QStringLiteral(GANTRY_FIXTURES_DIR "/nvidia-smi/csv-query-gpu-allfields-h100-80gb-hbm3-driver590.48.01-linux-load-nvgpuexp.txt"));
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    QByteArray text = f.readAll();
    if (!activeMask.isEmpty()) {
        // The first 0x…0 after "Active"s is clocks_event_reasons.active (supported is 0x…1FF).
        const QByteArray replaced = QByteArray(", 0x00000000000001FF, ") + activeMask + QByteArray(",");
        text.replace(QByteArray(", 0x00000000000001FF, 0x0000000000000000,"), replaced);
    }
    return nvsmi::parseGpuCsv(QString::fromUtf8(text)).gpus;
}

} // namespace

class TestMonitorTruth : public QObject
{
    Q_OBJECT

private slots:
    // 8 GPUs at 500 W for an hour of 1 s samples: 4 kWh. Mostly idle at $20/h for the second
    // half hour: $10 spent under 30 %.
    void energyAndUnderusedMoney()
    {
        UsageMeter meter;
        for (int s = 0; s <= 3600; ++s) {
            meter.add(machine(kT0 + s * 1000LL, 8, s < 1800 ? 95 : 12, 500), 20.0);
        }
        QCOMPARE(qRound(meter.energyKwh() * 1000), 4000);
        QCOMPARE(qRound(meter.underusedSeconds()), 1800);
        QCOMPARE(qRound(meter.underusedUsd() * 100), 1000);
        QCOMPARE(UsageMeter::formatKwh(meter.energyKwh()), QStringLiteral("4.00 kWh"));
    }

    // A host that went silent for five minutes: the silence is neither energy nor idle money.
    void gapsAreNotGuessed()
    {
        UsageMeter meter;
        meter.add(machine(kT0, 1, 0, 100), 3.6);
        meter.add(machine(kT0 + 300'000, 1, 0, 100), 3.6);
        QCOMPARE(meter.energyKwh(), 0.0);
        QCOMPARE(meter.underusedUsd(), 0.0);
        meter.add(machine(kT0 + 310'000, 1, 0, 100), 3.6);
        QCOMPARE(qRound(meter.underusedUsd() * 1000), 10); // 10 s at $3.60/h
    }

    // No power reading and no price: both say "unknown", never 0.
    void unknownIsNotZero()
    {
        UsageMeter meter;
        meter.add(machine(kT0, 2, 5, std::nullopt), 0);
        meter.add(machine(kT0 + 1000, 2, 5, std::nullopt), 0);
        QVERIFY(!meter.hasPower());
        QVERIFY(!meter.hasPrice());
        QCOMPARE(qRound(meter.underusedSeconds()), 1);
        // Utilization was known for that second, power never: the energy is unknown, not the idling.
        QCOMPARE(meter.meteredSeconds(), 0.0);
        QCOMPARE(qRound(meter.observedSeconds()), 1);
    }

    // The service meters every machine at the price it bills.
    void serviceMetersEachMachine()
    {
        MonitorService service(nullptr);
        service.addMachine(QStringLiteral("cheap"), 1.8);
        for (int s = 0; s <= 60; ++s) {
            service.injectSample(QStringLiteral("cheap"), machine(kT0 + s * 1000LL, 2, 0, 60));
        }
        const UsageMeter *usage = service.usage(QStringLiteral("cheap"));
        QVERIFY(usage);
        QCOMPARE(qRound(usage->underusedUsd() * 100), 3); // a minute at $1.80/h
        QCOMPARE(qRound(usage->energyKwh() * 10000), 20);  // 120 W for a minute = 2 Wh
        QVERIFY(!service.usage(QStringLiteral("unknown")));
    }

    // The real capture under load reports no reason; a variant with HW thermal slowdown on the
    // same board opens a span that names it, and it closes when the reason clears.
    void throttleSpansFromCaptures()
    {
        const QList<GpuSample> normal = capturedH100();
        QCOMPARE(normal.size(), 1);
        QCOMPARE(*normal.first().clocksEventReasons, quint64(0));
        const QList<GpuSample> hot = capturedH100("0x0000000000000040");
        QCOMPARE(*hot.first().clocksEventReasons, reasons::HwThermalSlowdown);

        ThrottleLog log;
        auto feed = [&](qint64 s, const QList<GpuSample> &gpus) {
            MachineSample m;
            m.time = QDateTime::fromMSecsSinceEpoch(kT0 + s * 1000, Qt::UTC);
            m.gpus = gpus;
            log.add(m);
        };
        for (int s = 0; s < 10; ++s) {
            feed(s, normal);
        }
        QVERIFY(log.spans().isEmpty());
        for (int s = 10; s < 40; ++s) {
            feed(s, hot);
        }
        for (int s = 40; s < 50; ++s) {
            feed(s, normal);
        }
        const QList<ThrottleLog::Span> spans = log.spans();
        QCOMPARE(spans.size(), 1);
        QCOMPARE(spans.first().fromMs, kT0 + 10'000);
        QCOMPARE(spans.first().toMs, kT0 + 39'000);
        QCOMPARE(spans.first().gpus, QList<int>{0});
        QCOMPARE(ThrottleLog::describe(spans.first().reasons), QStringLiteral("thermal slowdown (hardware)"));
        QVERIFY(log.spans(kT0 + 40'000).isEmpty());
        // Idle and application clocks are not slowdowns: no span.
        feed(60, capturedH100("0x0000000000000003"));
        QCOMPARE(log.spans().size(), 1);
    }

    // A machine that throttles all day keeps at most kCapacity spans.
    void throttleLogIsBounded()
    {
        ThrottleLog log;
        for (int i = 0; i < 2 * ThrottleLog::kCapacity; ++i) {
            MachineSample m = machine(kT0 + i * 2000LL, 1, 90, 700);
            m.gpus[0].clocksEventReasons = i % 2 ? reasons::SwPowerCap : reasons::HwPowerBrakeSlowdown;
            log.add(m);
        }
        QCOMPARE(log.spans().size(), ThrottleLog::kCapacity);
    }
};

QTEST_GUILESS_MAIN(TestMonitorTruth)
#include "test_monitor_truth.moc"
