#pragma once

#include "common/detailtab.h"
#include "monitor/metricstore.h"

#include <QList>
#include <QPointer>
#include <QTimer>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QListWidget;
class QPushButton;
class QScrollArea;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;
class QWidget;

namespace gantry::monitor {
class MonitorService;
struct Alert;
}

namespace gantry::ui::monitor {

class MetricChart;
class ProcessModel;

// The Monitor tab of one machine: a chart per metric family with a line per GPU, host CPU/RAM/
// network/disk, a time range that picks the ring resolution, the GPU process table, the alerts
// and the idle countdown. It only reads the MonitorService; charts refresh on a 1 s timer (and
// not at all while the tab is hidden), never per sample.
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

    explicit MonitorTab(gantry::monitor::MonitorService *service, QWidget *parent = nullptr);
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
    void refresh();
    QList<MetricChart *> charts() const { return m_charts; }
    ProcessModel *processModel() const { return m_processModel; }
    int alertCount() const;
    QString countdownText() const;

    Result<void> exportCsv(const QString &path) const;

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

    gantry::monitor::MonitorService *m_service;
    QString m_machine;
    Range m_range = Range::Minutes10;
    QTimer m_refresh;
    QList<MetricChart *> m_charts;
    QLabel *m_status = nullptr;
    QComboBox *m_rangeBox = nullptr;
    QComboBox *m_idleAction = nullptr;
    QPushButton *m_export = nullptr;
    QWidget *m_countdown = nullptr;
    QLabel *m_countdownLabel = nullptr;
    QTableView *m_processView = nullptr;
    ProcessModel *m_processModel = nullptr;
    QSortFilterProxyModel *m_processProxy = nullptr;
    QListWidget *m_alerts = nullptr;
    QList<QMetaObject::Connection> m_machineConnections;
    QMetaObject::Connection m_connectionState;
    QList<QPointF> m_buffer;
};

} // namespace gantry::ui::monitor
