#include "fakenvidiasmi.h"
#include "ui/monitor/alertspanel.h"
#include "ui/monitor/chartscale.h"
#include "ui/monitor/fleetoverview.h"
#include "ui/monitor/fleetrows.h"
#include "ui/monitor/gpunowpanel.h"
#include "ui/monitor/metricchart.h"
#include "ui/monitor/monitortab.h"
#include "ui/monitor/processmodel.h"
#include "ui/monitor/processpanel.h"
#include "core/monitor/monitorservice.h"
#include "sshdfixture.h"
#include "core/ssh/connection.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QTableView>
#include <QTranslator>
#include <QImage>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::monitor;
using gantry::ui::monitor::ChartScale;
using gantry::ui::monitor::FleetOverview;
using gantry::ui::monitor::FleetRows;
using gantry::ui::monitor::GpuNowPanel;
using gantry::ui::monitor::ProcessPanel;
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

// Eight GPUs as the recorded H100 capture (nvidia-smi 590, under load) reports them, with the
// utilization varied over time so the charts have lines.
MachineSample captureSample(const Clock &clock, const QString &host, int t)
{
    using namespace gantry::test::monitor;
    const QStringList fields = selectGpuFields(nvsmi::parseHelpQueryGpu(readFile(fixturePath(kHelpFixture))));
    MachineSample s = makeSample(clock, host, 0, t);
    for (const QString &line : rowsFromCapture(fields, 8).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        auto gpu = nvsmi::parseGpuRow(fields, line);
        if (gpu) {
            gpu->utilizationGpu = (t * 3 + gpu->index * 11) % 100;
            gpu->memoryUsedMib = 68995 - gpu->index * 4000; // the odd value whose ticks read 68995/34498
            s.gpus.append(*gpu);
        }
    }
    s.processes.first().user = QStringLiteral("alice");
    s.processes.first().commandLine = QStringLiteral("python -m torch.distributed.run --nproc_per_node 8 train.py --config configs/llama-8b.yaml --resume");
    return s;
}

// Renders land in the build tree (tests/monitor/screenshots) for the README and for looking at.
QString screenshotPath(const QString &name)
{
    const QString dir = QStringLiteral(QT_TESTCASE_BUILDDIR "/screenshots");
    QDir().mkpath(dir);
    const QString language = qEnvironmentVariable("GANTRY_TEST_LANGUAGE");
    return dir + QLatin1Char('/') + name + (language.isEmpty() ? QString() : QLatin1Char('-') + language) + QStringLiteral(".png");
}

bool isElided(const QString &text)
{
    return text.contains(QChar(0x2026)) || text.contains(QLatin1StringView("..."));
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
    void initTestCase()
    {
        // Renders in another language on request (a .qm built from resources/translations with
        // lrelease) for looking at; the rendering checks (nothing elided) hold in every language, the
        // ones comparing English text do not.
        const QString qm = qEnvironmentVariable("GANTRY_TEST_QM");
        if (!qm.isEmpty()) {
            auto *translator = new QTranslator(this);
            QVERIFY2(translator->load(qm), qPrintable(qm));
            QCoreApplication::installTranslator(translator);
        }
    }

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
            chart.setLines({{QStringLiteral("GPU 0"), points, {}}, {QStringLiteral("GPU 1"), points, {}}}, 0, 600000);
        }
        QCOMPARE(chart.lineCount(), 2);
        QCOMPARE(chart.pointCount(), 1200);
        chart.setLines({{QStringLiteral("GPU 0"), points, {}}}, 0, 600000);
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
        tab.redraw();
        QCOMPARE(tab.charts().size(), 9);
        QCOMPARE(tab.charts().at(0)->lineCount(), 4);
        QCOMPARE(tab.charts().at(0)->pointCount(), 4 * 300);
        QCOMPARE(tab.processModel()->rowCount(), 1);
        QVERIFY(tab.charts().at(5)->lineCount() >= 1); // host CPU
        // Issue 32: host charts say their current values, rates read in a unit that suits them
        // (1 MB/s received is not 0.954 MiB/s, a quiet link not 0.000), and the alerts box beside
        // the process table has a heading and says what would appear there.
        QVERIFY2(tab.charts().at(5)->legendTexts().contains(QStringLiteral("all cores: 30 %")), qPrintable(tab.charts().at(5)->legendTexts().join(QLatin1Char('|'))));
        QCOMPARE(tab.charts().at(6)->legendTexts(), QStringList{QStringLiteral("used: 50 %")});
        QCOMPARE(tab.charts().at(7)->unit(), QStringLiteral("KB/s"));
        QCOMPARE(tab.charts().at(7)->legendTexts(), (QStringList{QStringLiteral("received: 977 KB/s"), QStringLiteral("sent: 195 KB/s")}));
        QCOMPARE(tab.charts().at(8)->unit(), QStringLiteral("MB/s"));
        QVERIFY(tab.charts().at(8)->legendTexts().contains(QStringLiteral("read: 4.8 MB/s")));
        QVERIFY(tab.charts().at(0)->legendTexts().isEmpty() || !tab.charts().at(0)->chart()->legend()->isVisible()); // the GPU panel is their legend
        QVERIFY(!tab.alertsPanel()->emptyText().isEmpty());
        QVERIFY(tab.alertsPanel()->findChild<QLabel *>() != nullptr);
        QCOMPARE(ChartScale::rateUnit(800).unit, QStringLiteral("B/s"));
        QCOMPARE(ChartScale::rateUnit(3.5 * 1024 * 1024 * 1024).unit, QStringLiteral("GB/s"));

        tab.setRange(MonitorTab::Range::Hours3);
        // The samples arrived before any chart showed this machine, so only the 10 min at 1 s and
        // the 2 min history were kept (64-machine fleets stay small): the 3 h chart shows the
        // completed 2 min buckets, not nothing.
        const qsizetype coarse = tab.charts().at(0)->pointCount();
        QVERIFY2(coarse >= 4 * 1 && coarse <= 4 * 3, qPrintable(QString::number(coarse)));
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
        QVERIFY(tab.alertsPanel()->emptyText().isEmpty()); // the list, not the empty state
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
            service.addMachine(QStringLiteral("gpu-node-%1").arg(m, 2, 10, QLatin1Char('0')), (m + 1) * 2.49);
        }
        FleetOverview fleet(&service);
        QSignalSpy activated(&fleet, &FleetOverview::machineActivated);
        for (int t = 0; t < 130; ++t) {
            for (const QString &name : service.machines()) {
                MachineSample s = makeSample(clock, name, 8, t);
                if (name == QLatin1StringView("gpu-node-07")) {
                    for (GpuSample &g : s.gpus) {
                        g.utilizationGpu = 0; // the idle one
                    }
                }
                s.hostMetrics->uptimeSeconds = 3 * 3600 + 12 * 60 + t;
                service.injectSample(name, s);
            }
            clock.advanceSeconds(1);
        }
        // Instances say how long since launch (what bills), own hosts their OS uptime, labelled.
        service.setLaunchedAt(QStringLiteral("gpu-node-03"), QDateTime::currentDateTimeUtc().addSecs(-(2 * 3600 + 5 * 60)));
        QVERIFY(fleet.sizeHint().height() <= 1080);
        QVERIFY(fleet.sizeHint().width() <= 1920);
        auto *rows = static_cast<FleetRows *>(fleet.rows());
        for (const QSize size : {QSize(1024, 700), QSize(1440, 900)}) {
            fleet.resize(size);
            fleet.show();
            QVERIFY(QTest::qWaitForWindowExposed(&fleet));
            fleet.tick();
            savePng(fleet, screenshotPath(QStringLiteral("fleet-%1x%2").arg(size.width()).arg(size.height())));
            QVERIFY2(rows->elidedTexts().isEmpty(), qPrintable(rows->elidedTexts().join(QStringLiteral(" | "))));
        }
        // A dark theme: the status dots take their colour from the palette (these machines have
        // samples but no sampler: the "not monitoring" dot, the palette's dim text colour), and
        // stand out from the dark row.
        QPalette dark = fleet.palette();
        for (const auto &[role, color] : {std::pair{QPalette::Window, QColor(37, 37, 38)}, {QPalette::Base, QColor(30, 30, 30)},
                                          {QPalette::AlternateBase, QColor(45, 45, 45)}, {QPalette::Text, QColor(220, 220, 220)},
                                          {QPalette::WindowText, QColor(220, 220, 220)}, {QPalette::PlaceholderText, QColor(140, 140, 140)}})
            dark.setColor(role, color);
        fleet.setPalette(dark);
        fleet.tick();
        savePng(fleet, screenshotPath(QStringLiteral("fleet-1440x900-dark")));
        const QImage darkRows = rows->grab().toImage();
        const qreal dpr = darkRows.devicePixelRatio();
        const QColor dot = darkRows.pixelColor(QPointF(10 * dpr, (FleetRows::rowHeight() / 4.0 + 1) * dpr).toPoint());
        const QColor beside = darkRows.pixelColor(QPointF(2 * dpr, (FleetRows::rowHeight() / 4.0 + 1) * dpr).toPoint());
        QCOMPARE(dot.name(), dark.color(QPalette::PlaceholderText).name());
        QVERIFY2(std::abs(dot.lightnessF() - beside.lightnessF()) > 0.3, qPrintable(dot.name() + QLatin1Char(' ') + beside.name()));
        fleet.setPalette(QPalette());

        // Numbers beside the bars: utilization and memory used/total of each GPU, $/h.
        const QStringList texts = rows->rowTexts(QStringLiteral("gpu-node-03"));
        QVERIFY2(texts.contains(QStringLiteral("$9.96/h")), qPrintable(texts.join(QLatin1Char(' '))));
        QVERIFY2(texts.contains(QStringLiteral("20/80G")), qPrintable(texts.join(QLatin1Char(' '))));
        QVERIFY2(texts.join(QLatin1Char('|')).contains(QStringLiteral("launched 2 h 5 min ago")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY2(rows->rowTexts(QStringLiteral("gpu-node-04")).join(QLatin1Char('|')).contains(QStringLiteral("OS up 3 h 14 min")),
                 qPrintable(rows->rowTexts(QStringLiteral("gpu-node-04")).join(QLatin1Char('|'))));
        QVERIFY(fleet.summaryText().contains(QStringLiteral("16")));

        const int paintsBefore = fleet.paintCount();
        QTest::qWait(50);
        // Samples do not repaint by themselves: the batched timer does.
        QVERIFY(fleet.paintCount() - paintsBefore <= 1);

        fleet.setSort(FleetOverview::Sort::IdleFirst);
        QCOMPARE(fleet.order().first(), QStringLiteral("gpu-node-07"));
        fleet.setSort(FleetOverview::Sort::CostFirst);
        QCOMPARE(fleet.order().first(), QStringLiteral("gpu-node-15"));
        fleet.setSort(FleetOverview::Sort::Name);
        // A click selects; a double-click opens the machine.
        const QPoint third(50, FleetRows::rowHeight() * 3 + 10);
        QTest::mouseClick(rows, Qt::LeftButton, {}, third);
        QCOMPARE(activated.count(), 0);
        QCOMPARE(rows->selected(), QStringLiteral("gpu-node-03"));
        QTest::mouseDClick(rows, Qt::LeftButton, {}, third);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().first().toString(), QStringLiteral("gpu-node-03"));
    }

    // Machines that are nodes of a cluster sit under that cluster's header; the rest under
    // "Other machines"; without clusters there are no headers at all.
    void fleetOverviewGroupsByCluster()
    {
        ManualClock clock(QDateTime::currentDateTimeUtc());
        MonitorService service(nullptr, {}, clock);
        for (const char *name : {"solo", "train-b", "train-a", "eval-0"})
            service.addMachine(QString::fromLatin1(name), 1.0);
        FleetOverview fleet(&service);
        QVERIFY(fleet.groupTitles().isEmpty());
        QCOMPARE(static_cast<FleetRows *>(fleet.rows())->order().size(), 4);
        fleet.setClusterSource([] {
            return FleetOverview::ClusterGroups{{QStringLiteral("train"), {QStringLiteral("train-a"), QStringLiteral("train-b"), QStringLiteral("gone")}},
                                                {QStringLiteral("empty"), {QStringLiteral("not-monitored")}},
                                                {QStringLiteral("eval"), {QStringLiteral("eval-0")}}};
        });
        const QStringList titles = fleet.groupTitles();
        QCOMPARE(titles.size(), 3); // a cluster with no monitored node gets no header
        QVERIFY2(titles.at(0).contains(QStringLiteral("train")) && titles.at(0).contains(QStringLiteral("2")), qPrintable(titles.at(0)));
        QVERIFY(titles.at(1).contains(QStringLiteral("eval")));
        QCOMPARE(titles.at(2), FleetOverview::tr("Other machines"));
        QCOMPARE(fleet.groupMachines(0), (QStringList{QStringLiteral("train-a"), QStringLiteral("train-b")}));
        QCOMPARE(fleet.groupMachines(1), QStringList{QStringLiteral("eval-0")});
        QCOMPARE(static_cast<FleetRows *>(fleet.rows())->order(), QStringList{QStringLiteral("solo")});
        // A machine that comes later lands in its cluster.
        service.addMachine(QStringLiteral("gone"), 1.0);
        QCOMPARE(fleet.groupMachines(0).size(), 3);
        for (const QSize size : {QSize(1024, 700), QSize(1440, 900)}) {
            fleet.resize(size);
            fleet.show();
            QVERIFY(QTest::qWaitForWindowExposed(&fleet));
            fleet.tick();
            savePng(fleet, screenshotPath(QStringLiteral("fleet-clusters-%1x%2").arg(size.width()).arg(size.height())));
        }
    }

    void chartScaleIsRound()
    {
        const ChartScale::ValueAxis memory = ChartScale::niceAxis(68995 / 1024.0 * 1.05, 4); // GiB
        QCOMPARE(memory.max, 80.0);
        QCOMPARE(memory.step, 20.0);
        QCOMPARE(memory.decimals, 0);
        const ChartScale::ValueAxis power = ChartScale::niceAxis(560, 4);
        QCOMPARE(power.step, 200.0);
        QCOMPARE(power.max, 600.0);
        const ChartScale::ValueAxis small = ChartScale::niceAxis(0.9, 4);
        QCOMPARE(small.step, 0.25);
        QCOMPARE(small.decimals, 2);
        QCOMPARE(ChartScale::niceAxis(0, 4).max, 1.0);

        QList<QString> labels;
        for (const auto &tick : ChartScale::timeTicks(600, 6)) {
            labels.append(tick.label);
        }
        QCOMPARE(labels, (QList<QString>{QStringLiteral("-10 min"), QStringLiteral("-8 min"), QStringLiteral("-6 min"),
                                        QStringLiteral("-4 min"), QStringLiteral("-2 min"), QStringLiteral("now")}));
        const auto hours = ChartScale::timeTicks(48 * 3600, 5);
        QCOMPARE(hours.first().label, QStringLiteral("-48 h"));
        QCOMPARE(hours.size(), 5);
        QCOMPARE(ChartScale::timeTicks(60, 4).at(1).label, QStringLiteral("-40 s"));

        // A chart fed 68995 MiB as GiB ticks on 0/20/40/60/80, not 68995/34498.
        MetricChart chart(QStringLiteral("GPU memory used"), QStringLiteral("GiB"));
        chart.setLines({{QStringLiteral("GPU 0"), {QPointF(0, 68995 / 1024.0), QPointF(1000, 60000 / 1024.0)}, {}}}, 0, 600000);
        QCOMPARE(chart.valueTicks(), (QList<double>{0, 20, 40, 60, 80}));
        MetricChart percent(QStringLiteral("GPU utilization"), QStringLiteral("%"));
        percent.setFixedRange(0, 100);
        QCOMPARE(percent.valueTicks(), (QList<double>{0, 25, 50, 75, 100}));
    }

    // Issue 14: chart titles and x axes rendered as "…". Nothing the tab draws may be cut short,
    // at the smallest supported window and a common one.
    void monitorTabShowsEightGpusWithoutElision()
    {
        ManualClock clock(QDateTime::currentDateTimeUtc());
        MonitorService service(nullptr, {}, clock);
        service.addMachine(QStringLiteral("h100x8"), 8 * 2.49);
        for (int t = 0; t < 200; ++t) {
            MachineSample sample = captureSample(clock, QStringLiteral("h100x8"), t);
            for (GpuSample &g : sample.gpus) // GPM as dmon reports it on Hopper: the SM · Tensor column shows
                g.gpm = GpmValues{100.0 - g.index, 47.0, 100.0 - 9 * g.index, 64.0};
            sample.gpm = GpmState::Available;
            service.injectSample(QStringLiteral("h100x8"), sample);
            clock.advanceSeconds(1);
        }
        service.setStatus(QStringLiteral("h100x8"), SamplerStatus::Live, QStringLiteral("Live"));
        MonitorTab tab(&service);
        tab.showMachine(QStringLiteral("h100x8"));
        for (const QSize size : {QSize(1024, 700), QSize(1440, 900), QSize(1600, 1000)}) {
            tab.resize(size);
            tab.show();
            QVERIFY(QTest::qWaitForWindowExposed(&tab));
            tab.redraw();
            QCoreApplication::processEvents();
            savePng(tab, screenshotPath(QStringLiteral("monitor-8gpu-%1x%2").arg(size.width()).arg(size.height())));
            for (MetricChart *chart : tab.charts()) {
                QVERIFY(chart->isVisible());
                // As the user sees it: scrolled into view, where it catches up with the data.
                tab.findChild<QScrollArea *>()->ensureWidgetVisible(chart);
                for (int tick = 0; tick < 3; ++tick) { // the charts on screen take turns
                    tab.tick();
                    QCoreApplication::processEvents();
                }
                for (const QString &text : chart->renderedTexts()) {
                    QVERIFY2(!isElided(text), qPrintable(QStringLiteral("%1 at %2x%3: \"%4\" in %5").arg(chart->title()).arg(size.width()).arg(size.height()).arg(text, chart->renderedTexts().join(QLatin1Char('|')))));
                }
                QVERIFY2(chart->timeLabels().contains(ChartScale::tr("now")), qPrintable(chart->timeLabels().join(QLatin1Char(' '))));
            }
            QVERIFY2(tab.gpuPanel()->elidedTexts().isEmpty(), qPrintable(tab.gpuPanel()->elidedTexts().join(QLatin1Char('|'))));
        }
        QCOMPARE(tab.gpuPanel()->rowCount(), 8);
        const QStringList row = tab.gpuPanel()->rowTexts(3);
        QCOMPARE(row.at(0), QStringLiteral("GPU 3"));
        QCOMPARE(row.at(1), QStringLiteral("NVIDIA H100 80GB HBM3"));
        QVERIFY2(row.at(3).endsWith(QStringLiteral(" / 79.6 GiB")), qPrintable(row.at(3)));
        QVERIFY2(row.at(5).endsWith(QStringLiteral(" / 700 W")), qPrintable(row.at(5)));
        QVERIFY(row.at(4).endsWith(QStringLiteral(" °C")));
        QCOMPARE(row.at(6), QStringLiteral("97 % · 73 %"));
        QCOMPARE(tab.charts().at(0)->lineCount(), 8);
        QVERIFY(tab.noGpuText().isEmpty());
        // The process table: PID, user, full command line.
        const ProcessModel *model = tab.processModel();
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->data(model->index(0, ProcessModel::ColUser)).toString(), QStringLiteral("alice"));
        QVERIFY(model->data(model->index(0, ProcessModel::ColCommand)).toString().endsWith(QStringLiteral("--resume")));
    }

    // The shell's stall watchdog fails a run whose GUI thread waits over 100 ms; redrawing and
    // painting all nine charts cost 15-35 ms a tick. A tick now redraws a few of the charts on screen
    // (those whose data moved on), in turns, and none while the tab is hidden.
    void tickRedrawsAFewChartsOnScreen()
    {
        ManualClock clock(QDateTime::currentDateTimeUtc());
        MonitorService service(nullptr, {}, clock);
        service.addMachine(QStringLiteral("h100x8"), 8 * 2.49);
        for (int t = 0; t < 600; ++t) {
            service.injectSample(QStringLiteral("h100x8"), captureSample(clock, QStringLiteral("h100x8"), t));
            clock.advanceSeconds(1);
        }
        service.setStatus(QStringLiteral("h100x8"), SamplerStatus::Live, QStringLiteral("Live"));
        MonitorTab tab(&service);
        tab.resize(1024, 700); // eight GPUs' values above: some charts are scrolled away
        tab.showMachine(QStringLiteral("h100x8"));
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        tab.redraw();
        QCoreApplication::processEvents();
        QList<MetricChart *> onScreen;
        for (MetricChart *chart : tab.charts()) {
            if (!chart->viewport()->visibleRegion().isEmpty())
                onScreen.append(chart);
        }
        QVERIFY2(onScreen.size() >= 2 && onScreen.size() < tab.charts().size(), qPrintable(QString::number(onScreen.size())));
        auto newest = [&] { return service.store(QStringLiteral("h100x8"))->latestSample()->time.toMSecsSinceEpoch(); };
        for (MetricChart *chart : std::as_const(onScreen))
            QCOMPARE(chart->toMs(), newest());

        service.injectSample(QStringLiteral("h100x8"), captureSample(clock, QStringLiteral("h100x8"), 600));
        clock.advanceSeconds(1);
        QElapsedTimer timer;
        qint64 longest = 0;
        QSet<MetricChart *> updated;
        for (int tick = 1; tick <= 4; ++tick) {
            timer.start();
            tab.tick();
            QCoreApplication::processEvents(); // its paint
            longest = std::max(longest, timer.elapsed());
            int now = 0;
            for (MetricChart *chart : tab.charts()) {
                if (chart->toMs() == newest()) {
                    ++now;
                    updated.insert(chart);
                }
            }
            QVERIFY2(now <= 3 * tick, qPrintable(QString::number(now)));
        }
        QCOMPARE(updated.size(), onScreen.size()); // every chart on screen caught up, none off it
        for (MetricChart *chart : std::as_const(onScreen))
            QVERIFY(updated.contains(chart));
        qInfo("longest tick with its paint: %lld ms", longest);

        service.injectSample(QStringLiteral("h100x8"), captureSample(clock, QStringLiteral("h100x8"), 601));
        tab.hide();
        tab.tick();
        for (MetricChart *chart : tab.charts())
            QVERIFY(chart->toMs() < newest());
    }

    void noGpuSaysSoOnceAndKeepsHostCharts()
    {
        ManualClock clock(QDateTime::currentDateTimeUtc());
        MonitorService service(nullptr, {}, clock);
        service.addMachine(QStringLiteral("cpu-box"));
        for (int t = 0; t < 30; ++t) {
            MachineSample s = makeSample(clock, QStringLiteral("cpu-box"), 0, t);
            s.driver = DriverState::NoDriver;
            s.processes.clear();
            service.injectSample(QStringLiteral("cpu-box"), s);
            clock.advanceSeconds(1);
        }
        service.setStatus(QStringLiteral("cpu-box"), SamplerStatus::NoDriver,
                          QStringLiteral("No NVIDIA driver found on cpu-box: showing host metrics only."));
        MonitorTab tab(&service);
        tab.showMachine(QStringLiteral("cpu-box"));
        for (const QSize size : {QSize(1024, 700), QSize(1440, 900), QSize(1600, 1000)}) {
            tab.resize(size);
            tab.show();
            QVERIFY(QTest::qWaitForWindowExposed(&tab));
            tab.redraw();
            QCoreApplication::processEvents(); // the charts lay out their legends and axes
            tab.redraw(); // the host charts moved up into view when the GPU charts went
            QCoreApplication::processEvents();
            savePng(tab, screenshotPath(QStringLiteral("monitor-nogpu-%1x%2").arg(size.width()).arg(size.height())));
        }
        QCOMPARE(tab.noGpuText(), MonitorTab::tr("No NVIDIA GPU found on this machine (nvidia-smi missing)"));
        int visible = 0;
        for (MetricChart *chart : tab.charts()) {
            visible += chart->isVisible() ? 1 : 0;
            if (chart->isVisible()) {
                QVERIFY2(!chart->title().startsWith(QLatin1StringView("GPU")) && chart->title() != QLatin1StringView("SM clock"),
                         qPrintable(chart->title()));
            }
        }
        QCOMPARE(visible, 4); // CPU, RAM, network, disk
        QCOMPARE(tab.gpuPanel()->rowCount(), 0);
        // Said once: the status line does not repeat the driver message.
        const QList<QLabel *> labels = tab.findChildren<QLabel *>();
        int mentions = 0;
        for (const QLabel *label : labels) {
            mentions += label->isVisible() && (label->text().contains(QLatin1StringView("NVIDIA")) || label->text().contains(QLatin1StringView("nvidia-smi"))) ? 1 : 0;
        }
        QCOMPARE(mentions, 1);
    }

    // Kill from the tab, end to end: the confirmation's answer goes over the window's connection
    // to a real sshd (running as this user, so a local process is one of the host's) and ends it.
    void killFromTheTabEndsTheProcess()
    {
        gantry::test::SshdFixture sshd;
        GANTRY_REQUIRE_SSHD(sshd.start());
        QProcess victim;
        victim.start(QStringLiteral("sleep"), {QStringLiteral("300")});
        QVERIFY(victim.waitForStarted());
        const qint64 pid = victim.processId(); // 0 once it has ended
        ssh::Connection connection(sshd.target());
        connection.connectToHost(sshd.connectOptions());
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ssh::ConnectionState::Connected, 20000);

        ManualClock clock(QDateTime::currentDateTimeUtc());
        MonitorService service(nullptr, {}, clock);
        service.addMachine(QStringLiteral("box"));
        MachineSample s = captureSample(clock, QStringLiteral("box"), 0);
        s.processes.first().pid = pid;
        service.injectSample(QStringLiteral("box"), s);
        MonitorTab tab(&service);
        SavedHost host;
        host.name = QStringLiteral("box");
        host.target = sshd.target();
        tab.setMachine(host, &connection);
        tab.redraw();
        ProcessPanel *panel = tab.processPanel();
        panel->setConfirm([](const GpuProcess &) { return std::optional<KillSignal>(KillSignal::Term); });
        panel->view()->selectRow(0);
        panel->killSelected();
        QVERIFY(victim.waitForFinished(20000));
        QTRY_VERIFY_WITH_TIMEOUT(panel->resultText().startsWith(QLatin1StringView("Sent SIGTERM")), 10000);
        QVERIFY(panel->resultText().contains(QString::number(pid)));

        // Again: the process is gone, and the panel says so instead of claiming success.
        panel->killSelected();
        QTRY_VERIFY_WITH_TIMEOUT(panel->resultText().contains(QLatin1StringView("not running")), 10000);
        connection.disconnectFromHost();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ssh::ConnectionState::Disconnected, 10000);
        QVERIFY(!panel->findChild<QPushButton *>()->isEnabled()); // no live machine: no Kill
    }

    void killAsksAndNamesTheProcess()
    {
        ProcessPanel panel;
        panel.setMachine(QStringLiteral("h100x8"));
        ManualClock clock;
        MachineSample s = captureSample(clock, QStringLiteral("h100x8"), 0);
        panel.setProcesses(s.processes);
        QSignalSpy requested(&panel, &ProcessPanel::killRequested);
        QList<GpuProcess> asked;
        std::optional<KillSignal> answer = KillSignal::Term;
        panel.setConfirm([&](const GpuProcess &p) {
            asked.append(p);
            return answer;
        });
        auto *kill = panel.findChild<QPushButton *>();
        QVERIFY(kill);
        panel.view()->selectRow(0);
        QVERIFY(!kill->isEnabled()); // not connected
        panel.killSelected();
        QCOMPARE(requested.count(), 0);
        QVERIFY(asked.isEmpty());
        panel.setCanKill(true);
        QVERIFY(kill->isEnabled());
        QTest::mouseClick(kill, Qt::LeftButton);
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.first().pid, 4242);
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.first().at(0).toLongLong(), 4242);
        QCOMPARE(requested.first().at(1).value<KillSignal>(), KillSignal::Term);
        answer = std::nullopt; // Cancel
        QTest::mouseClick(kill, Qt::LeftButton);
        QCOMPARE(requested.count(), 1);
    }
};

QTEST_MAIN(TestMonitorUi)
#include "test_monitor_ui.moc"
