#pragma once

#include "ui/common/detailtab.h"
#include "core/monitor/metricstore.h"

#include <QList>
#include <QPointer>
#include <QTimer>

class QComboBox;
class QGridLayout;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QScrollArea;
class QSplitter;
class QWidget;

namespace gantry::guard {
class MachineGuards;
}

namespace gantry::monitor {
class MonitorService;
struct Alert;
enum class KillSignal;
enum class SamplerStatus;
}

namespace gantry::ui::monitor {

class AlertsPanel;
class GpuNowPanel;
class GuardPanel;
class MetricChart;
class ProcessModel;
class ProcessPanel;

// The Monitor tab of one machine: the current value of each GPU (numbers and bars), a chart per
// metric family with a line per GPU, host CPU/RAM/network/disk, a time range that picks the ring
// resolution, the GPU process table with Kill, the alerts and the idle countdown. Without a GPU
// it says so once and shows the host charts only. It reads the MonitorService; charts redraw on
// a 1 s timer (not while the tab is hidden or the chart scrolled away, a few a tick), never per sample.
class MonitorTab final : public DetailTab
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MonitorTab)

public:
    enum class Range
    {
        Minutes10,
        Hours3,
        Hours48,
    };

    // configDir: where guards.json remembers each machine's idle guard (empty: not remembered).
    // guards: the application core's (AppCore::guards()); tests may leave it to the idle guard panel.
    explicit MonitorTab(gantry::monitor::MonitorService *service, const QString &configDir = {},
                        gantry::guard::MachineGuards *guards = nullptr, QWidget *parent = nullptr);
    ~MonitorTab() override;

    QString title() const override { return tr("Monitor"); }
    // Starts the machine's background sampler once its connection is up (and stops it when the
    // user disconnects); a reconnect after a lost link is the sampler's own job.
    void setMachine(const SavedHost &host, ssh::Connection *connection) override;
    void clearMachine() override;

    // Shows a machine the service already monitors (FleetOverview's click, tests, benchmark).
    void showMachine(const QString &name);
    QString machine() const { return m_machine; }

    void setRange(Range range);
    Range range() const { return m_range; }
    // Current values, processes and every chart on screen from the store (the range, the machine or
    // Refresh changed). The 1 s timer redraws a few charts a tick, those whose data moved on.
    void redraw();
    // The 1 s timer's work (tests call it).
    void tick();
    QList<MetricChart *> charts() const { return m_charts; }
    ProcessModel *processModel() const;
    ProcessPanel *processPanel() const { return m_processes; }
    GpuNowPanel *gpuPanel() const { return m_gpuPanel; }
    QString usageText() const;
    GuardPanel *guardPanel() const { return m_guard; }
    QString noGpuText() const; // empty while the machine has GPUs (or is not known yet)
    int alertCount() const;
    AlertsPanel *alertsPanel() const { return m_alerts; }
    QString countdownText() const;

    Result<void> exportCsv(const QString &path) const;

public slots:
    // Asks the machine again (reconnect with a fresh probe: a driver installed meanwhile shows
    // up) and redraws: the Refresh button, and F5 where the window wires it.
    void refresh();

protected:
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void buildUi();
    QHBoxLayout *buildToolbar();
    void buildCountdownBar();
    QScrollArea *buildCharts();
    QSplitter *buildProcessesAndAlerts();
    void connectMachine();
    void disconnectMachine();
    void updateStatus();
    void addAlert(const gantry::monitor::Alert &alert);
    void chooseExportFile();
    void showCountdown(const QString &text);
    void layoutCharts();
    // New values and up to chartBudget charts (those on screen whose data is older than the store's).
    void showLatest(int chartBudget);
    void redrawCharts(const gantry::monitor::MetricStore &store, qint64 from, qint64 to, int budget);
    void drawChart(const gantry::monitor::MetricStore &store, int chart, qint64 from, qint64 to);
    void updateKillAvailability();
    void sendKill(qint64 pid, gantry::monitor::KillSignal signal);
    static QString statusText(gantry::monitor::SamplerStatus status);
    static gantry::monitor::Resolution resolutionFor(Range range, qint64 *spanMs);

    gantry::monitor::MonitorService *m_service;
    QString m_machine;
    Range m_range = Range::Minutes10;
    QTimer m_refresh;
    QList<MetricChart *> m_charts;
    QLabel *m_status = nullptr;
    QLabel *m_usage = nullptr; // energy and money spent under 30 % utilization
    QComboBox *m_rangeBox = nullptr;
    QComboBox *m_idleAction = nullptr;
    QPushButton *m_export = nullptr;
    QPushButton *m_refreshButton = nullptr;
    GpuNowPanel *m_gpuPanel = nullptr;
    GuardPanel *m_guard = nullptr;
    QLabel *m_noGpu = nullptr;
    QGridLayout *m_chartGrid = nullptr;
    int m_chartColumns = 0;
    bool m_gpuChartsShown = true;
    bool m_chartsLaidOut = false;
    QSplitter *m_split = nullptr;
    bool m_splitSized = false;
    QWidget *m_countdown = nullptr;
    QLabel *m_countdownLabel = nullptr;
    ProcessPanel *m_processes = nullptr;
    QPointer<ssh::Connection> m_connection;
    AlertsPanel *m_alerts = nullptr;
    QList<QMetaObject::Connection> m_machineConnections;
    QMetaObject::Connection m_connectionState;
    QList<QPointF> m_buffer;
    QList<qint64> m_chartDrawnTo; // per chart: the newest sample time it shows; -1: to redraw
    int m_nextChart = 0;
};

} // namespace gantry::ui::monitor
