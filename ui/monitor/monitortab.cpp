#include "ui/monitor/monitortab.h"

#include "core/util/printable.h"

#include "ui/monitor/chartfacts.h"

#include "ui/monitor/alertspanel.h"
#include "ui/monitor/chartscale.h"
#include "ui/monitor/gpunowpanel.h"
#include "ui/monitor/guardpanel.h"
#include "ui/monitor/metricchart.h"
#include "core/monitor/monitorservice.h"
#include "ui/monitor/processpanel.h"
#include "core/ssh/connection.h"
#include "core/ssh/session.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>

namespace gantry::ui::monitor {

using gantry::monitor::Metric;
using gantry::monitor::Resolution;
using gantry::monitor::SeriesKey;

namespace {

struct ChartSpec
{
    const char *title;
    const char *unit;
    QList<Metric> metrics; // GPU metrics get a line per GPU; host metrics one line each
    bool percent;
    double scale = 1;      // stored value × scale = shown value
    bool byteRate = false; // bytes per second: the chart picks B/s, KB/s, MB/s or GB/s
};

const QList<ChartSpec> &chartSpecs()
{
    static const QList<ChartSpec> specs = {
        {QT_TRANSLATE_NOOP("gantry::ui::monitor::MonitorTab", "GPU utilization"), "%", {Metric::GpuUtilization}, true, 1},
        {QT_TRANSLATE_NOOP("gantry::ui::monitor::MonitorTab", "GPU memory used"), "GiB", {Metric::GpuMemoryUsedMib}, false, 1.0 / 1024},
        {QT_TRANSLATE_NOOP("gantry::ui::monitor::MonitorTab", "GPU temperature"), "°C", {Metric::GpuTemperature}, false, 1},
        {QT_TRANSLATE_NOOP("gantry::ui::monitor::MonitorTab", "GPU power"), "W", {Metric::GpuPower}, false, 1},
        {QT_TRANSLATE_NOOP("gantry::ui::monitor::MonitorTab", "SM clock"), "MHz", {Metric::GpuSmClock}, false, 1},
        {QT_TRANSLATE_NOOP("gantry::ui::monitor::MonitorTab", "Host CPU"), "%", {Metric::HostCpu, Metric::HostCpuMaxCore}, true, 1},
        {QT_TRANSLATE_NOOP("gantry::ui::monitor::MonitorTab", "Host RAM"), "%", {Metric::HostMemoryUsedPercent}, true, 1},
        {QT_TRANSLATE_NOOP("gantry::ui::monitor::MonitorTab", "Network"), "B/s", {Metric::HostNetRx, Metric::HostNetTx}, false, 1, true},
        {QT_TRANSLATE_NOOP("gantry::ui::monitor::MonitorTab", "Disk"), "B/s", {Metric::HostDiskRead, Metric::HostDiskWrite}, false, 1, true},
    };
    return specs;
}

constexpr int kGpuCharts = 5; // the first specs are per GPU
constexpr int kChartsPerTick = 3;

// Whether any of the chart can be seen (not hidden with the tab, not scrolled away). The view's
// own region is covered by its opaque viewport: ask the viewport.
bool onScreen(const MetricChart *chart)
{
    return !chart->viewport()->visibleRegion().isEmpty();
}

bool isGpuMetric(Metric m)
{
    return int(m) <= int(Metric::GpuSmClock);
}

QString hostLineName(Metric m)
{
    switch (m) {
    case Metric::HostCpu: return MonitorTab::tr("all cores");
    case Metric::HostCpuMaxCore: return MonitorTab::tr("busiest core");
    case Metric::HostMemoryUsedPercent: return MonitorTab::tr("used");
    case Metric::HostNetRx: return MonitorTab::tr("received");
    case Metric::HostNetTx: return MonitorTab::tr("sent");
    case Metric::HostDiskRead: return MonitorTab::tr("read");
    case Metric::HostDiskWrite: return MonitorTab::tr("written");
    default: return gantry::monitor::metricName(m);
    }
}

} // namespace

MonitorTab::MonitorTab(gantry::monitor::MonitorService *service, const QString &configDir,
                       gantry::guard::MachineGuards *guards, QWidget *parent)
    : DetailTab(parent)
    , m_service(service)
    , m_guard(new GuardPanel(configDir, guards, this))
{
    buildUi();
    m_refresh.setInterval(1000);
    connect(&m_refresh, &QTimer::timeout, this, &MonitorTab::tick);
    m_refresh.start();
    connect(m_service, &gantry::monitor::MonitorService::machineAdded, this, [this](const QString &name) {
        if (name == m_machine) {
            connectMachine();
        }
    });
    connect(m_service, &gantry::monitor::MonitorService::machineRemoved, this, [this](const QString &name) {
        if (name == m_machine) {
            disconnectMachine();
            updateStatus();
        }
    });
}

MonitorTab::~MonitorTab()
{
    disconnectMachine();
    if (!m_machine.isEmpty()) {
        m_service->releaseDetail(m_machine);
    }
}

void MonitorTab::buildUi()
{
    QHBoxLayout *top = buildToolbar();
    buildCountdownBar();
    QScrollArea *scroll = buildCharts();
    QSplitter *bottom = buildProcessesAndAlerts();
    auto *split = new QSplitter(Qt::Vertical);
    m_split = split;
    split->addWidget(scroll);
    split->addWidget(bottom);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    connect(split, &QSplitter::splitterMoved, this, [this] { m_splitSized = true; });

    m_usage = new QLabel(this);
    m_usage->setObjectName(QStringLiteral("usage"));
    m_usage->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_usage);
    layout->addWidget(m_guard);
    layout->addWidget(m_countdown);
    layout->addWidget(split, 1);
}

// Status, the idle action, the chart range and CSV export.
QHBoxLayout *MonitorTab::buildToolbar()
{
    auto *top = new QHBoxLayout;
    m_status = new QLabel(tr("Not monitoring: connect to a machine."), this);
    m_status->setWordWrap(true);
    m_rangeBox = new QComboBox(this);
    m_rangeBox->addItem(tr("Last 10 minutes"));
    m_rangeBox->addItem(tr("Last 3 hours"));
    m_rangeBox->addItem(tr("Last 48 hours"));
    connect(m_rangeBox, &QComboBox::currentIndexChanged, this, [this](int i) { setRange(Range(i)); });
    m_idleAction = new QComboBox(this);
    m_idleAction->addItem(tr("When idle: notify"));
    m_idleAction->addItem(tr("When idle: stop"));
    m_idleAction->addItem(tr("When idle: terminate"));
    m_idleAction->setToolTip(tr("What to do when every GPU of this billing machine has been idle for a while. "
                                "Stop/terminate wait for a visible countdown you can cancel, and never run "
                                "while transfers or jobs are active."));
    connect(m_idleAction, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (auto *policy = m_service->idlePolicy(m_machine)) {
            policy->setAction(gantry::monitor::IdleAction(i));
        }
    });
    m_refreshButton = new QPushButton(tr("Refresh"), this);
    m_refreshButton->setToolTip(tr("Ask the machine again: reconnects the monitor and checks for nvidia-smi (F5)"));
    connect(m_refreshButton, &QPushButton::clicked, this, &MonitorTab::refresh);
    m_export = new QPushButton(tr("Export CSV…"), this);
    connect(m_export, &QPushButton::clicked, this, &MonitorTab::chooseExportFile);
    top->addWidget(m_status, 1);
    top->addWidget(m_idleAction);
    top->addWidget(m_rangeBox);
    top->addWidget(m_refreshButton);
    top->addWidget(m_export);
    return top;
}

// The idle policy's countdown, with the Cancel that stops it; hidden until a countdown runs.
void MonitorTab::buildCountdownBar()
{
    m_countdown = new QWidget(this);
    auto *countdownLayout = new QHBoxLayout(m_countdown);
    countdownLayout->setContentsMargins(6, 4, 6, 4);
    m_countdownLabel = new QLabel(m_countdown);
    auto *cancel = new QPushButton(tr("Cancel"), m_countdown);
    connect(cancel, &QPushButton::clicked, this, [this] {
        if (auto *policy = m_service->idlePolicy(m_machine)) {
            policy->cancel();
        }
    });
    countdownLayout->addWidget(m_countdownLabel, 1);
    countdownLayout->addWidget(cancel);
    m_countdown->setStyleSheet(QStringLiteral("background: #fff3cd; color: #664d03;"));
    m_countdown->hide();
}

// The current values of each GPU above the history; the no-GPU note in their place.
QScrollArea *MonitorTab::buildCharts()
{
    auto *chartArea = new QWidget;
    auto *column = new QVBoxLayout(chartArea);
    column->setContentsMargins(0, 0, 0, 0);
    m_gpuPanel = new GpuNowPanel(chartArea);
    m_noGpu = new QLabel(tr("No NVIDIA GPU found on this machine (nvidia-smi missing)"), chartArea);
    m_noGpu->setWordWrap(true);
    m_noGpu->setContentsMargins(8, 6, 8, 6);
    m_noGpu->hide();
    m_chartGrid = new QGridLayout;
    m_chartGrid->setContentsMargins(0, 0, 0, 0);
    for (const ChartSpec &spec : chartSpecs()) {
        auto *chart = new MetricChart(tr(spec.title), QString::fromUtf8(spec.unit), chartArea);
        if (spec.percent) {
            chart->setFixedRange(0, 100);
        }
        chart->setByteRate(spec.byteRate);
        // GPU lines share their colours with the current-values panel, which is their legend and
        // shows their current values; host lines name theirs in the legend.
        chart->setLegendVisible(!isGpuMetric(spec.metrics.first()));
        m_charts.append(chart);
    }
    column->addWidget(m_gpuPanel);
    column->addWidget(m_noGpu);
    column->addLayout(m_chartGrid, 1);
    auto *scroll = new QScrollArea;
    scroll->setWidget(chartArea);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // Charts scrolled into view catch up at once rather than at the next tick.
    connect(scroll->verticalScrollBar(), &QScrollBar::valueChanged, this, [this] { QTimer::singleShot(0, this, &MonitorTab::tick); });
    layoutCharts();
    return scroll;
}

// Three charts a row where they fit, else two; the GPU charts only when the machine has GPUs.
void MonitorTab::layoutCharts()
{
    const bool gpus = m_gpuChartsShown;
    const int columns = width() >= 1100 ? 3 : 2;
    if (m_chartsLaidOut && columns == m_chartColumns) {
        return;
    }
    m_chartsLaidOut = true;
    m_chartColumns = columns;
    for (MetricChart *chart : std::as_const(m_charts)) {
        m_chartGrid->removeWidget(chart);
    }
    int cell = 0;
    for (int i = 0; i < m_charts.size(); ++i) {
        MetricChart *chart = m_charts.at(i);
        const bool shown = gpus || i >= kGpuCharts;
        chart->setVisible(shown);
        if (shown) {
            m_chartGrid->addWidget(chart, cell / columns, cell % columns);
            ++cell;
        }
    }
}

void MonitorTab::resizeEvent(QResizeEvent *event)
{
    DetailTab::resizeEvent(event);
    layoutCharts();
    // The splitter starts from the widgets' size hints, which hand the process table half the
    // height; the charts get about three quarters until the user drags the handle (the first
    // resize, while the tab was still hidden, is no measure of the window).
    if (!m_splitSized && m_split->height() > 0) {
        const int total = m_split->height();
        const int bottom = qBound(120, total / 4, 260);
        m_split->setSizes({total - bottom, bottom});
    }
}

// Shown again (the tab picked, the window restored): the charts on screen catch up at once, a
// few now and the rest over the next ticks, instead of after a second of stale lines.
void MonitorTab::showEvent(QShowEvent *event)
{
    DetailTab::showEvent(event);
    QTimer::singleShot(0, this, &MonitorTab::tick);
}

// GPU processes (largest memory first) beside the alerts.
QSplitter *MonitorTab::buildProcessesAndAlerts()
{
    m_processes = new ProcessPanel;
    m_processes->setCanKill(false, tr("Connect to the machine to end a process."));
    connect(m_processes, &ProcessPanel::killRequested, this, &MonitorTab::sendKill);

    m_alerts = new AlertsPanel;

    auto *bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(m_processes);
    bottom->addWidget(m_alerts);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    return bottom;
}

ProcessModel *MonitorTab::processModel() const
{
    return m_processes->model();
}

void MonitorTab::setMachine(const SavedHost &host, ssh::Connection *connection)
{
    QObject::disconnect(m_connectionState);
    showMachine(host.name);
    m_connection = connection;
    m_guard->setMachine(host, connection);
    updateKillAvailability();
    if (!connection) {
        return;
    }
    auto startOrStop = [this, host](ssh::ConnectionState state) {
        updateKillAvailability();
        if (state == ssh::ConnectionState::Connected) {
            m_service->startMonitoring(host);
            showMachine(host.name);
        } else if (state == ssh::ConnectionState::Disconnected) {
            m_service->stopMonitoring(host.name);
        }
    };
    m_connectionState = connect(connection, &ssh::Connection::stateChanged, this,
                                [startOrStop](ssh::ConnectionState state, const QString &) { startOrStop(state); });
    if (connection->state() == ssh::ConnectionState::Connected) {
        startOrStop(ssh::ConnectionState::Connected);
    }
}

void MonitorTab::clearMachine()
{
    QObject::disconnect(m_connectionState);
    disconnectMachine();
    if (!m_machine.isEmpty()) {
        m_service->releaseDetail(m_machine);
    }
    m_machine.clear();
    m_connection = nullptr;
    m_guard->clearMachine();
    updateKillAvailability();
    for (MetricChart *chart : std::as_const(m_charts)) {
        chart->setLines({}, 0, 1000);
    }
    m_gpuPanel->setGpus({});
    m_noGpu->hide();
    m_processes->setProcesses({});
    m_alerts->clear();
    updateStatus();
}

void MonitorTab::showMachine(const QString &name)
{
    if (name != m_machine) {
        disconnectMachine();
        // Only the charted machine keeps 10 s history: the fleet's others keep 1 s for 10 min and 2 min.
        if (!m_machine.isEmpty()) {
            m_service->releaseDetail(m_machine);
        }
        m_service->retainDetail(name);
        m_machine = name;
        m_alerts->clear();
        m_processes->setProcesses({});
        m_processes->showResult({});
        m_processes->setMachine(name);
    }
    connectMachine();
    redraw();
}

void MonitorTab::disconnectMachine()
{
    for (const auto &c : std::as_const(m_machineConnections)) {
        QObject::disconnect(c);
    }
    m_machineConnections.clear();
    m_countdown->hide();
}

void MonitorTab::connectMachine()
{
    if (!m_machineConnections.isEmpty() || !m_service->isMonitoring(m_machine)) {
        updateStatus();
        return;
    }
    using gantry::monitor::IdlePolicy;
    using gantry::monitor::MonitorService;
    m_machineConnections.append(connect(m_service, &MonitorService::statusChanged, this,
                                        [this](const QString &name) {
                                            if (name == m_machine) {
                                                updateStatus();
                                            }
                                        }));
    m_machineConnections.append(connect(m_service, &MonitorService::alertRaised, this,
                                        [this](const gantry::monitor::Alert &alert) {
                                            if (alert.host == m_machine) {
                                                addAlert(alert);
                                            }
                                        }));
    if (IdlePolicy *policy = m_service->idlePolicy(m_machine)) {
        m_idleAction->setCurrentIndex(int(policy->action()));
        m_machineConnections.append(connect(policy, &IdlePolicy::countdownStarted, this,
                                            [this](const QString &host, gantry::monitor::IdleAction action, int seconds) {
                                                showCountdown(tr("Every GPU of %1 is idle: %2 in %3 s.")
                                                                  .arg(host, gantry::monitor::idleActionName(action))
                                                                  .arg(seconds));
                                            }));
        m_machineConnections.append(connect(policy, &IdlePolicy::countdownChanged, this,
                                            [this, policy](const QString &host, int seconds) {
                                                showCountdown(tr("Every GPU of %1 is idle: %2 in %3 s.")
                                                                  .arg(host, gantry::monitor::idleActionName(policy->action()))
                                                                  .arg(seconds));
                                            }));
        m_machineConnections.append(connect(policy, &IdlePolicy::countdownCancelled, this,
                                            [this](const QString &, const QString &reason) {
                                                m_countdown->hide();
                                                m_alerts->addNote(tr("Idle countdown stopped: %1").arg(reason));
                                            }));
        m_machineConnections.append(connect(policy, &IdlePolicy::actionBlocked, this,
                                            [this](const QString &, const QString &reason) {
                                                m_countdown->hide();
                                                m_alerts->addNote(reason);
                                            }));
        m_machineConnections.append(connect(policy, &IdlePolicy::actionRequested, this,
                                            [this](const QString &host, gantry::monitor::IdleAction action) {
                                                m_countdown->hide();
                                                m_alerts->addNote(tr("Requested: %1 %2")
                                                                            .arg(gantry::monitor::idleActionName(action), host));
                                            }));
    }
    if (auto *engine = m_service->alerts(m_machine)) {
        for (const auto &alert : engine->active()) {
            addAlert(alert);
        }
    }
    updateStatus();
}

void MonitorTab::showCountdown(const QString &text)
{
    m_countdownLabel->setText(text);
    m_countdown->show();
}

void MonitorTab::redraw()
{
    m_chartDrawnTo.fill(-1, m_charts.size()); // the range, the machine or the layout changed
    showLatest(int(m_charts.size()));
}

// The 1 s timer: new values, and a few of the charts on screen whose data moved on. Redrawing
// and painting all nine costs 15-35 ms; a few per tick keeps the GUI thread responsive.
void MonitorTab::tick()
{
    if (isVisible())
        showLatest(kChartsPerTick);
}

void MonitorTab::showLatest(int chartBudget)
{
    const gantry::monitor::MetricStore *store = m_service->store(m_machine);
    if (!store) {
        return;
    }
    qint64 span = 0;
    resolutionFor(m_range, &span);
    // The right edge is the newest sample, so a stalled host shows where its data stopped.
    const auto &latest = store->latestSample();
    const qint64 to = latest ? latest->time.toMSecsSinceEpoch() : QDateTime::currentMSecsSinceEpoch();
    const bool noDriver = latest && latest->driver == gantry::monitor::DriverState::NoDriver;
    m_noGpu->setVisible(noDriver);
    m_processes->setVisible(!noDriver); // no GPU, no GPU processes: the alerts get the room
    m_gpuPanel->setGpus(latest && !noDriver ? latest->gpus : QList<gantry::monitor::GpuSample>{});
    // GPU history stays visible if the driver went away later; a machine that never had one
    // gets no empty GPU charts.
    const bool gpuCharts = !store->gpuIndexes().isEmpty() || !latest || latest->driver == gantry::monitor::DriverState::Unknown;
    if (gpuCharts != m_gpuChartsShown) {
        m_gpuChartsShown = gpuCharts;
        m_chartsLaidOut = false;
        layoutCharts();
    }
    redrawCharts(*store, to - span, to, chartBudget);
    if (latest) {
        m_processes->setProcesses(latest->processes);
    }
    QString usage = ChartFacts::usageText(m_service->usage(m_machine));
    if (latest && !noDriver && !latest->gpus.isEmpty() && latest->gpm == gantry::monitor::GpmState::Unavailable) {
        // Said rather than guessed: utilization alone cannot tell a busy GPU from one kernel trickling.
        usage += (usage.isEmpty() ? QString() : QStringLiteral("\n"))
            + tr("SM and tensor activity (GPM, Hopper and later): not available here: %1").arg(text::printable(latest->gpmMessage));
    }
    m_usage->setText(usage);
    m_usage->setVisible(!usage.isEmpty());
}

// Charts scrolled out of view, or hidden with the tab, wait until they are seen; the others take
// turns, oldest data first, up to the budget.
void MonitorTab::redrawCharts(const gantry::monitor::MetricStore &store, qint64 from, qint64 to, int budget)
{
    if (m_chartDrawnTo.size() != m_charts.size())
        m_chartDrawnTo.fill(-1, m_charts.size());
    const int n = int(m_charts.size());
    int last = -1;
    for (int k = 0; k < n && budget > 0; ++k) {
        const int c = (m_nextChart + k) % n;
        MetricChart *chart = m_charts.at(c);
        if ((c < kGpuCharts && !m_gpuChartsShown) || m_chartDrawnTo.at(c) == to || !onScreen(chart))
            continue;
        drawChart(store, c, from, to);
        m_chartDrawnTo[c] = to;
        last = c;
        --budget;
    }
    if (last >= 0)
        m_nextChart = (last + 1) % n;
}

void MonitorTab::drawChart(const gantry::monitor::MetricStore &store, int c, qint64 from, qint64 to)
{
    qint64 span = 0;
    const Resolution resolution = resolutionFor(m_range, &span);
    QList<MetricChart::Line> lines;
    for (Metric metric : chartSpecs().at(c).metrics) {
        if (isGpuMetric(metric)) {
            for (int gpu : store.gpuIndexes()) {
                store.points(SeriesKey{gpu, metric}, resolution, from, m_buffer);
                lines.append({tr("GPU %1").arg(gpu), m_buffer, ChartScale::gpuColor(gpu)});
            }
        } else if (store.has(SeriesKey{-1, metric})) {
            store.points(SeriesKey{-1, metric}, resolution, from, m_buffer);
            lines.append({hostLineName(metric), m_buffer, {}});
        }
    }
    const ChartFacts::Decoration facts = ChartFacts::forMetric(chartSpecs().at(c).metrics.first(), store, from, to);
    lines.append(facts.references);
    if (const double scale = chartSpecs().at(c).scale; scale != 1) {
        for (MetricChart::Line &line : lines) {
            for (QPointF &p : line.points) {
                p.setY(p.y() * scale);
            }
        }
    }
    m_charts.at(c)->setLines(lines, from, to);
    m_charts.at(c)->setNote(facts.note);
    m_charts.at(c)->setBands(facts.bands);
}

} // namespace gantry::ui::monitor
