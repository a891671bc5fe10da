#include "monitor/fleetoverview.h"
#include "monitor/metricchart.h"
#include "monitor/monitortab.h"
#include "monitor/processmodel.h"
#include "monitor/monitorservice.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::monitor;
using gantry::ui::monitor::FleetOverview;
using gantry::ui::monitor::MetricChart;
using gantry::ui::monitor::MonitorTab;
using gantry::ui::monitor::ProcessModel;

namespace {
MachineSample makeSample(const Clock &clock, const QString &host, int gpus, int t)
{
    MachineSample s;
    s.time = clock.now();
    s.host = host;
    s.driver = DriverState::Ok;
    for (int i = 0; i < gpus; ++i) {
        GpuSample g;
        g.index = i;
        g.name = QStringLiteral("NVIDIA H100 80GB HBM3");
        g.uuid = QStringLiteral("GPU-%1").arg(i);
        g.utilizationGpu = (t * 7 + i * 13) % 100;
        g.memoryUsedMib = 20000 + i * 1000;
        g.memoryTotalMib = 81559;
        g.temperatureC = 40 + i;
        g.powerDrawW = 300 + i;
        g.powerLimitW = 700;
        g.smClockMhz = 1980;
        s.gpus.append(g);
    }
    HostMetrics h;
    h.cpuBusyPercent = 30;
    h.coreBusyPercent = {30, 60};
    h.memTotalMib = 1024;
    h.memAvailableMib = 512;
    h.netRxBytesPerS = 1e6;
    h.netTxBytesPerS = 2e5;
    h.diskReadBytesPerS = 5e6;
    h.diskWriteBytesPerS = 1e5;
    s.hostMetrics = h;
    GpuProcess p;
    p.pid = 4242;
    p.gpuIndex = 0;
    p.gpuUuid = QStringLiteral("GPU-0");
    p.usedMemoryMib = 15000;
    p.processName = QStringLiteral("python");
    p.commandLine = QStringLiteral("python train.py");
    s.processes = {p};
    return s;
}

void savePng(QWidget &w, const QString &path)
{
    const QImage image = w.grab().toImage();
    QVERIFY(!image.isNull());
    QVERIFY(image.save(path));
    QVERIFY(QFile(path).size() > 1000);
}
} // namespace

class TestMonitorUi : public QObject
{
    Q_OBJECT

private slots:
    void processModel()
    {
        ProcessModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ManualClock clock;
        MachineSample s = makeSample(clock, QStringLiteral("m"), 1, 0);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setProcesses(s.processes);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(reset.count(), 1);
        s.processes[0].usedMemoryMib = 16000;
        model.setProcesses(s.processes);
        QCOMPARE(reset.count(), 1); // same pids: values updated in place
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.data(model.index(0, ProcessModel::ColMemory)).toString(), QStringLiteral("16000"));
        QCOMPARE(model.data(model.index(0, ProcessModel::ColMemory), ProcessModel::UnderlyingDataRole).toDouble(), 16000.0);
        s.processes[0].usedMemoryMib.reset();
        GpuProcess other;
        other.pid = 7;
        s.processes.append(other);
        model.setProcesses(s.processes);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.data(model.index(0, ProcessModel::ColMemory)).toString(), QStringLiteral("n/a"));
        model.setProcesses({});
        QCOMPARE(model.rowCount(), 0);
    }

    // A host that names its process with terminal escapes and a bidi override: the table shows
    // them as visible escapes, while the underlying value (for sorting and copying) stays as sent.
    void processModelEscapesHostileNames()
    {
        ProcessModel model;
        GpuProcess hostile;
        hostile.pid = 42;
        hostile.processName = QStringLiteral("\x1b]0;pwned\x07python");
        hostile.commandLine = QStringLiteral("python \u202etxt.exe");
        model.setProcesses({hostile});
        QCOMPARE(model.data(model.index(0, ProcessModel::ColName)).toString(), QStringLiteral("\\x1b]0;pwned\\x07python"));
        QCOMPARE(model.data(model.index(0, ProcessModel::ColCommand)).toString(), QStringLiteral("python \\u202etxt.exe"));
        QCOMPARE(model.data(model.index(0, ProcessModel::ColCommand), Qt::ToolTipRole).toString(), QStringLiteral("python \\u202etxt.exe"));
        QCOMPARE(model.data(model.index(0, ProcessModel::ColName), ProcessModel::UnderlyingDataRole).toString(), hostile.processName);
    }

    void chartReplacesInsteadOfGrowing()
    {
        MetricChart chart(QStringLiteral("GPU utilization"), QStringLiteral("%"));
        QList<QPointF> points;
        for (int i = 0; i < 600; ++i) {
            points.append(QPointF(1000.0 * i, i % 100));
        }
        for (int round = 0; round < 20; ++round) {
            chart.setLines({{QStringLiteral("GPU 0"), points}, {QStringLiteral("GPU 1"), points}}, 0, 600000);
        }
        QCOMPARE(chart.lineCount(), 2);
        QCOMPARE(chart.pointCount(), 1200);
        chart.setLines({{QStringLiteral("GPU 0"), points}}, 0, 600000);
        QCOMPARE(chart.lineCount(), 1);
    }

    void monitorTabRendersOffscreen()
    {
        ManualClock clock(QDateTime::currentDateTimeUtc());
        MonitorService service(nullptr, {}, clock);
        service.addMachine(QStringLiteral("h100-box"), 2.49);
        for (int t = 0; t < 300; ++t) {
            service.injectSample(QStringLiteral("h100-box"), makeSample(clock, QStringLiteral("h100-box"), 4, t));
            clock.advanceSeconds(1);
        }
        service.setStatus(QStringLiteral("h100-box"), SamplerStatus::Live, QStringLiteral("Live"));
        MonitorTab tab(&service);
        QCOMPARE(tab.title(), QStringLiteral("Monitor"));
        tab.resize(1400, 1000);
        tab.showMachine(QStringLiteral("h100-box"));
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        tab.refresh();
        QCOMPARE(tab.charts().size(), 9);
        QCOMPARE(tab.charts().at(0)->lineCount(), 4);
        QCOMPARE(tab.charts().at(0)->pointCount(), 4 * 300);
        QCOMPARE(tab.processModel()->rowCount(), 1);
        QVERIFY(tab.charts().at(5)->lineCount() >= 1); // host CPU

        tab.setRange(MonitorTab::Range::Hours3);
        const qsizetype coarse = tab.charts().at(0)->pointCount(); // completed 10 s buckets only
        QVERIFY2(coarse >= 4 * 29 && coarse <= 4 * 30, qPrintable(QString::number(coarse)));
        tab.setRange(MonitorTab::Range::Minutes10);

        QTemporaryDir dir;
        savePng(tab, dir.filePath(QStringLiteral("monitortab.png")));
        QVERIFY(tab.exportCsv(dir.filePath(QStringLiteral("history.csv"))).ok());
        QFile csv(dir.filePath(QStringLiteral("history.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QVERIFY(csv.readLine().startsWith("time,gpu0_utilization_gpu"));
        if (qEnvironmentVariableIsSet("GANTRY_KEEP_SCREENSHOTS")) {
            tab.grab().save(qEnvironmentVariable("GANTRY_KEEP_SCREENSHOTS") + QStringLiteral("/monitortab.png"));
        }
    }

    void idleCountdownIsVisibleAndCancellable()
    {
        ManualClock clock(QDateTime::currentDateTimeUtc());
        MonitorService service(nullptr, {}, clock);
        service.addMachine(QStringLiteral("idle-box"), 1.10);
        AlertThresholds t;
        t.idleMinutes = 1;
        service.alerts(QStringLiteral("idle-box"))->setThresholds(t);
        service.idlePolicy(QStringLiteral("idle-box"))->setAction(IdleAction::Stop);
        MonitorTab tab(&service);
        tab.showMachine(QStringLiteral("idle-box"));
        tab.show();
        QSignalSpy requested(service.idlePolicy(QStringLiteral("idle-box")), &IdlePolicy::actionRequested);
        for (int s = 0; s <= 61; ++s) {
            MachineSample idle = makeSample(clock, QStringLiteral("idle-box"), 2, 0);
            for (GpuSample &g : idle.gpus) {
                g.utilizationGpu = 0;
                g.powerDrawW = 60;
            }
            idle.processes.clear();
            service.injectSample(QStringLiteral("idle-box"), idle);
            clock.advanceSeconds(1);
        }
        QVERIFY(tab.countdownText().contains(QLatin1StringView("stop")));
        QVERIFY(tab.alertCount() >= 1);
        service.idlePolicy(QStringLiteral("idle-box"))->cancel();
        QVERIFY(tab.countdownText().isEmpty());
        clock.advanceSeconds(120);
        service.idlePolicy(QStringLiteral("idle-box"))->tick();
        QCOMPARE(requested.count(), 0);
    }

    void fleetOverviewFitsSixteenMachines()
    {
        ManualClock clock(QDateTime::currentDateTimeUtc());
        MonitorService service(nullptr, {}, clock);
        for (int m = 0; m < 16; ++m) {
            service.addMachine(QStringLiteral("gpu-node-%1").arg(m, 2, 10, QLatin1Char('0')), 8 * 2.49);
        }
        FleetOverview fleet(&service);
        QSignalSpy activated(&fleet, &FleetOverview::machineActivated);
        for (int t = 0; t < 130; ++t) {
            for (const QString &name : service.machines()) {
                service.injectSample(name, makeSample(clock, name, 8, t));
            }
            clock.advanceSeconds(1);
        }
        fleet.resize(fleet.sizeHint());
        QVERIFY(fleet.sizeHint().height() <= 1080);
        QVERIFY(fleet.sizeHint().width() <= 1920);
        fleet.show();
        QVERIFY(QTest::qWaitForWindowExposed(&fleet));
        const int paintsBefore = fleet.paintCount();
        QTest::qWait(50);
        // Samples do not repaint by themselves: the batched timer does.
        QVERIFY(fleet.paintCount() - paintsBefore <= 1);
        QTemporaryDir dir;
        savePng(fleet, dir.filePath(QStringLiteral("fleet.png")));
        if (qEnvironmentVariableIsSet("GANTRY_KEEP_SCREENSHOTS")) {
            fleet.grab().save(qEnvironmentVariable("GANTRY_KEEP_SCREENSHOTS") + QStringLiteral("/fleet.png"));
        }
        QTest::mouseClick(&fleet, Qt::LeftButton, {}, QPoint(50, 40 * 3 + 10));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().first().toString(), QStringLiteral("gpu-node-03"));
    }
};

QTEST_MAIN(TestMonitorUi)
#include "test_monitor_ui.moc"
