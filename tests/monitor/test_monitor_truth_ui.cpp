// SPDX-License-Identifier: Apache-2.0
// What a user sees of Monitor's truth: the power limit and maximum clock on the charts, the
// throttled stretches shaded and named, energy and the money spent while the GPUs idled, in
// Monitor and in Cost. Renders at 1024x700 and 1600x1000 (GANTRY_TEST_QM for other languages).
#include "core/cost/ledger.h"
#include "core/monitor/monitorservice.h"
#include "ui/cost/costpanel.h"
#include "ui/monitor/metricchart.h"
#include "ui/monitor/monitortab.h"

#include <QDir>
#include <QImage>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

using namespace gantry;
using namespace gantry::monitor;
using gantry::ui::monitor::MetricChart;
using gantry::ui::monitor::MonitorTab;

namespace {

// An 8-GPU H100 machine: 700 W limit, 1980 MHz maximum; busy for the first two minutes, then
// at 12 %; GPU 2 in hardware thermal slowdown from t = 30 s to t = 60 s.
MachineSample sampleAt(const Clock &clock, int t)
{
    MachineSample s;
    s.time = clock.now();
    s.host = QStringLiteral("h100x8");
    s.driver = DriverState::Ok;
    for (int i = 0; i < 8; ++i) {
        GpuSample g;
        g.index = i;
        g.name = QStringLiteral("NVIDIA H100 80GB HBM3");
        g.utilizationGpu = t < 120 ? 95 : 12;
        g.memoryUsedMib = 60000;
        g.memoryTotalMib = 81559;
        g.temperatureC = 60 + i;
        g.powerDrawW = t < 120 ? 650 : 150;
        g.powerLimitW = 700;
        g.smClockMhz = i == 2 && t >= 30 && t < 60 ? 1200 : 1980;
        g.smClockMaxMhz = 1980;
        g.clocksEventReasons = i == 2 && t >= 30 && t < 60 ? reasons::HwThermalSlowdown : 0;
        s.gpus.append(g);
    }
    return s;
}

QString screenshotPath(const QString &name)
{
    const QString dir = QStringLiteral(QT_TESTCASE_BUILDDIR "/screenshots");
    QDir().mkpath(dir);
    const QString language = qEnvironmentVariable("GANTRY_TEST_LANGUAGE");
    return dir + QLatin1Char('/') + name + (language.isEmpty() ? QString() : QLatin1Char('-') + language) + QStringLiteral(".png");
}

} // namespace

class TestMonitorTruthUi : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString qm = qEnvironmentVariable("GANTRY_TEST_QM");
        if (!qm.isEmpty()) {
            auto *translator = new QTranslator(this);
            QVERIFY2(translator->load(qm), qPrintable(qm));
            QCoreApplication::installTranslator(translator);
        }
    }

    void chartsSayLimitsThrottlingAndIdleMoney()
    {
        const bool english = qEnvironmentVariable("GANTRY_TEST_QM").isEmpty();
        ManualClock clock(QDateTime::fromString(QStringLiteral("2026-12-05T12:00:00Z"), Qt::ISODate));
        MonitorService service(nullptr, {}, clock);
        service.addMachine(QStringLiteral("h100x8"), 8 * 2.50); // $20/h
        MonitorTab tab(&service);
        tab.showMachine(QStringLiteral("h100x8"));
        for (int t = 0; t <= 300; ++t) {
            service.injectSample(QStringLiteral("h100x8"), sampleAt(clock, t));
            clock.advanceSeconds(1);
        }
        service.setStatus(QStringLiteral("h100x8"), SamplerStatus::Live, QStringLiteral("Live"));
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            tab.resize(size);
            tab.show();
            QVERIFY(QTest::qWaitForWindowExposed(&tab));
            tab.redraw();
            QCoreApplication::processEvents();
            QVERIFY(tab.grab().save(screenshotPath(QStringLiteral("monitor-truth-%1x%2").arg(size.width()).arg(size.height()))));
        }
        MetricChart *power = tab.charts().at(3);
        MetricChart *clockChart = tab.charts().at(4);
        tab.findChild<QScrollArea *>()->ensureWidgetVisible(clockChart);
        tab.redraw();
        QCoreApplication::processEvents();
        // 8 × 650 W for two minutes, 8 × 150 W for three: 0.2333 kWh; three minutes under 30 %
        // at $20/h: $1.00.
        const QString usage = tab.usageText();
        QVERIFY2(usage.contains(QStringLiteral("0.233 kWh")), qPrintable(usage));
        QVERIFY2(usage.contains(QStringLiteral("$1.00")), qPrintable(usage));
        QCOMPARE(power->bands().size(), 1);
        QCOMPARE(clockChart->bands().size(), 1);
        QCOMPARE(power->lineCount(), 9); // 8 GPUs and the limit
        if (english) {
            QVERIFY2(usage.contains(QStringLiteral("3 min")), qPrintable(usage));
            QVERIFY2(power->renderedTexts().join(QLatin1Char('|')).contains(QStringLiteral("limit 700 W")),
                     qPrintable(power->renderedTexts().join(QLatin1Char('|'))));
            QVERIFY(clockChart->renderedTexts().join(QLatin1Char('|')).contains(QStringLiteral("max 1980 MHz")));
            QCOMPARE(clockChart->bands().first().text,
                     QStringLiteral("Clocks held back: thermal slowdown (hardware) (GPU 2)"));
        }
        const MetricChart::Band band = clockChart->bands().first();
        QCOMPARE(band.toMs - band.fromMs, 29'000);
        // Hovering the shade names the reason: some point across the plot's middle is on it, and
        // the right edge ("now", long after the slowdown) is not.
        QString hovered;
        for (int x = 0; x < clockChart->width() && hovered.isEmpty(); x += 2) {
            hovered = clockChart->bandTextAt(QPoint(x, clockChart->height() / 2));
        }
        QCOMPARE(hovered, band.text);
        QVERIFY(clockChart->bandTextAt(QPoint(clockChart->width() - 30, clockChart->height() / 2)).isEmpty());
    }

    void costPanelShowsMoneySpentWhileIdle()
    {
        QTemporaryDir dir;
        ManualClock clock(QDateTime::fromString(QStringLiteral("2026-12-05T12:00:00Z"), Qt::ISODate));
        cost::Ledger ledger(cost::Ledger::defaultPath(dir.path()), clock);
        MonitorService service(nullptr, {}, clock);
        service.addMachine(QStringLiteral("h100x8"), 20.0);
        service.addMachine(QStringLiteral("own-box")); // no price: said so, never $0
        ui::CostPanel panel(&ledger);
        QVERIFY(panel.underusedText().isEmpty());
        panel.setMonitor(&service);
        for (int t = 0; t <= 300; ++t) {
            service.injectSample(QStringLiteral("h100x8"), sampleAt(clock, t));
            MachineSample own = sampleAt(clock, t);
            own.host = QStringLiteral("own-box");
            service.injectSample(QStringLiteral("own-box"), own);
            clock.advanceSeconds(1);
        }
        panel.reload();
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            panel.resize(size);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            QVERIFY(panel.grab().save(screenshotPath(QStringLiteral("cost-underused-%1x%2").arg(size.width()).arg(size.height()))));
        }
        const QString text = panel.underusedText();
        QVERIFY2(text.contains(QStringLiteral("h100x8 $1.00")) && text.contains(QStringLiteral("0.233 kWh")), qPrintable(text));
        if (qEnvironmentVariable("GANTRY_TEST_QM").isEmpty()) {
            QVERIFY2(text.contains(QStringLiteral("h100x8 $1.00 (0.233 kWh)")), qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("own-box price unknown")), qPrintable(text));
        }
    }
};

QTEST_MAIN(TestMonitorTruthUi)
#include "test_monitor_truth_ui.moc"
