#pragma once

#include <QList>
#include <QPair>
#include <QTimer>

#include <functional>
#include <vector>
#include <QWidget>

class QComboBox;
class QLabel;
class QScrollArea;

namespace gantry::monitor {
class MonitorService;
}

namespace gantry::ui::monitor {

class FleetRows;

// Every monitored machine on one screen, for someone watching a fleet: per machine its status,
// how long it has been running, $/h, an alert badge, and per GPU a compact utilization bar and
// memory bar with their numbers (plus host CPU). Sortable by name, idle GPUs first, or cost;
// double-click opens the machine. Samples only mark the rows dirty; a 1 s timer repaints once,
// so 16 machines × 8 GPUs at 1 Hz cost one paint per second, not 128.
class FleetOverview final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FleetOverview)

public:
    enum class Sort
    {
        Name,
        IdleFirst, // lowest mean GPU utilization first: what to stop
        CostFirst, // highest $/h first
    };

    // A cluster's name and the monitored machines (saved host names) that are its nodes.
    using ClusterGroups = QList<QPair<QString, QStringList>>;

    explicit FleetOverview(gantry::monitor::MonitorService *service, QWidget *parent = nullptr);

    // Groups the rows by cluster: a header per cluster with its nodes beneath, then the machines
    // in no cluster under "Other machines". Asked again whenever machines come or go.
    void setClusterSource(std::function<ClusterGroups()> source);
    // The headers as shown (empty without clusters), and the machines under one of them.
    QStringList groupTitles() const;
    QStringList groupMachines(int group) const;

    QSize sizeHint() const override;
    void setSort(Sort sort);
    Sort sort() const { return m_sort; }
    QStringList order() const; // the machines as the rows show them
    QString summaryText() const;

    // The painted rows (tests click and grab them).
    QWidget *rows() const; // the machines in no cluster (all of them without clusters)
    int paintCount() const;
    // Row under a point of rows(), or an empty string.
    QString machineAt(const QPoint &pos) const;
    void setRepaintIntervalMs(int ms) { m_timer.setInterval(ms); }
    // The 1 s timer's work: re-sort and schedule one repaint when a sample arrived (benchmark).
    void tick();

signals:
    void machineActivated(const QString &name);

private:
    void updateSummary();
    void rebuildGroups();
    void applyOrder();

    struct Group
    {
        QLabel *title;
        FleetRows *rows;
        QStringList members;
    };

    gantry::monitor::MonitorService *m_service;
    Sort m_sort = Sort::Name;
    QTimer m_timer;
    bool m_dirty = false;
    QComboBox *m_sortBox;
    QLabel *m_summary;
    QScrollArea *m_scroll;
    FleetRows *m_rows;
    QLabel *m_otherTitle;
    std::function<ClusterGroups()> m_clusterSource;
    std::vector<Group> m_groups;
};

} // namespace gantry::ui::monitor
