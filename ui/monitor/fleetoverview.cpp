#include "ui/monitor/fleetoverview.h"

#include "ui/monitor/fleetrows.h"
#include "core/monitor/monitorservice.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>

namespace gantry::ui::monitor {

using gantry::monitor::Metric;
using gantry::monitor::SeriesKey;

namespace {
// Mean utilization of the machine's GPUs now; machines without a GPU reading sort after them.
double meanUtilization(const gantry::monitor::MonitorService &service, const QString &name)
{
    const gantry::monitor::MetricStore *store = service.store(name);
    if (!store) {
        return 1000;
    }
    double sum = 0;
    int n = 0;
    for (int gpu : store->gpuIndexes()) {
        if (const auto u = store->latest(SeriesKey{gpu, Metric::GpuUtilization})) {
            sum += *u;
            ++n;
        }
    }
    return n ? sum / n : 1000;
}
} // namespace

FleetOverview::FleetOverview(gantry::monitor::MonitorService *service, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_sortBox(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_scroll(new QScrollArea(this))
    , m_rows(new FleetRows(service))
    , m_otherTitle(new QLabel(tr("Other machines")))
{
    m_sortBox->addItem(tr("Sort by name"));
    m_sortBox->addItem(tr("Idle GPUs first"));
    m_sortBox->addItem(tr("Most expensive first"));
    connect(m_sortBox, &QComboBox::currentIndexChanged, this, [this](int i) { setSort(Sort(i)); });
    auto *content = new QWidget;
    auto *stack = new QVBoxLayout(content);
    stack->setContentsMargins(0, 0, 0, 0);
    stack->setSpacing(2);
    m_otherTitle->setVisible(false);
    stack->addWidget(m_otherTitle);
    stack->addWidget(m_rows);
    stack->addStretch(1);
    m_scroll->setWidget(content);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    auto *head = new QHBoxLayout;
    head->addWidget(m_summary, 1);
    head->addWidget(m_sortBox);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(head);
    layout->addWidget(m_scroll, 1);
    connect(m_rows, &FleetRows::activated, this, &FleetOverview::machineActivated);

    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, &FleetOverview::tick);
    m_timer.start();
    auto markDirty = [this] { m_dirty = true; };
    connect(m_service, &gantry::monitor::MonitorService::sampleArrived, this, markDirty);
    connect(m_service, &gantry::monitor::MonitorService::statusChanged, this, markDirty);
    connect(m_service, &gantry::monitor::MonitorService::alertRaised, this, markDirty);
    auto machinesChanged = [this] {
        rebuildGroups();
        updateSummary();
        m_dirty = true;
    };
    connect(m_service, &gantry::monitor::MonitorService::machineAdded, this, machinesChanged);
    connect(m_service, &gantry::monitor::MonitorService::machineRemoved, this, machinesChanged);
    m_rows->setOrder(order());
    updateSummary();
}

void FleetOverview::setClusterSource(std::function<ClusterGroups()> source)
{
    m_clusterSource = std::move(source);
    rebuildGroups();
}

// One header and row set per cluster with a monitored node, above the machines in none.
void FleetOverview::rebuildGroups()
{
    for (Group &group : m_groups) {
        delete group.title;
        delete group.rows;
    }
    m_groups.clear();
    const ClusterGroups clusters = m_clusterSource ? m_clusterSource() : ClusterGroups{};
    const QStringList machines = m_service->machines();
    auto *stack = static_cast<QVBoxLayout *>(m_scroll->widget()->layout());
    for (const auto &[name, nodes] : clusters) {
        QStringList members;
        for (const QString &node : nodes) {
            if (machines.contains(node) && !members.contains(node))
                members << node;
        }
        if (members.isEmpty())
            continue;
        auto *title = new QLabel(tr("Cluster %1 · %n node(s)", nullptr, int(members.size())).arg(name));
        QFont bold = title->font();
        bold.setBold(true);
        title->setFont(bold);
        auto *rows = new FleetRows(m_service);
        connect(rows, &FleetRows::activated, this, &FleetOverview::machineActivated);
        const int at = int(m_groups.size()) * 2;
        stack->insertWidget(at, title);
        stack->insertWidget(at + 1, rows);
        m_groups.push_back(Group{title, rows, members});
    }
    QFont bold = m_otherTitle->font();
    bold.setBold(true);
    m_otherTitle->setFont(bold);
    applyOrder();
}

// Every row set in the chosen sort; a cluster's nodes under its header, the rest under "Other machines".
void FleetOverview::applyOrder()
{
    const QStringList all = order();
    QStringList others = all;
    for (Group &group : m_groups) {
        QStringList mine;
        for (const QString &m : all) {
            if (group.members.contains(m))
                mine << m;
        }
        for (const QString &m : std::as_const(mine))
            others.removeAll(m);
        group.rows->setOrder(mine);
        group.rows->update();
    }
    m_otherTitle->setVisible(!m_groups.empty() && !others.isEmpty());
    m_rows->setOrder(others);
    m_rows->update();
}

QStringList FleetOverview::groupTitles() const
{
    QStringList titles;
    for (const Group &group : m_groups)
        titles << group.title->text();
    if (m_otherTitle->isVisibleTo(this))
        titles << m_otherTitle->text();
    return titles;
}

QStringList FleetOverview::groupMachines(int group) const
{
    if (group >= 0 && group < int(m_groups.size()))
        return m_groups[size_t(group)].rows->order();
    return m_rows->order();
}

QSize FleetOverview::sizeHint() const
{
    const QSize rows = m_scroll->widget()->sizeHint();
    return QSize(rows.width() + 12, rows.height() + m_sortBox->sizeHint().height() + 16);
}

// Re-sorts and repaints once a second, and only when something arrived.
void FleetOverview::tick()
{
    if (!m_dirty) {
        return;
    }
    m_dirty = false;
    applyOrder();
    updateSummary();
}

void FleetOverview::setSort(Sort sort)
{
    m_sort = sort;
    if (m_sortBox->currentIndex() != int(sort)) {
        m_sortBox->setCurrentIndex(int(sort));
    }
    applyOrder();
}

QStringList FleetOverview::order() const
{
    QStringList machines = m_service->machines();
    switch (m_sort) {
    case Sort::Name:
        std::sort(machines.begin(), machines.end(), [](const QString &a, const QString &b) { return a.localeAwareCompare(b) < 0; });
        break;
    case Sort::IdleFirst: {
        QHash<QString, double> util;
        for (const QString &m : std::as_const(machines)) {
            util.insert(m, meanUtilization(*m_service, m));
        }
        std::stable_sort(machines.begin(), machines.end(), [&util](const QString &a, const QString &b) { return util.value(a) < util.value(b); });
        break;
    }
    case Sort::CostFirst:
        std::stable_sort(machines.begin(), machines.end(), [this](const QString &a, const QString &b) {
            return m_service->hourlyPrice(a) > m_service->hourlyPrice(b);
        });
        break;
    }
    return machines;
}

void FleetOverview::updateSummary()
{
    m_summary->setText(summaryText());
}

QString FleetOverview::summaryText() const
{
    const QStringList machines = m_service->machines();
    double perHour = 0;
    int gpus = 0;
    int idle = 0;
    for (const QString &m : machines) {
        perHour += m_service->hourlyPrice(m);
        if (const auto *store = m_service->store(m)) {
            for (int gpu : store->gpuIndexes()) {
                ++gpus;
                const auto u = store->latest(SeriesKey{gpu, Metric::GpuUtilization});
                idle += u && *u < 5 ? 1 : 0;
            }
        }
    }
    return tr("%n machine(s)", nullptr, int(machines.size())) + QStringLiteral(" · ") + tr("%n GPU(s)", nullptr, gpus)
           + QStringLiteral(" · ") + tr("%n idle", nullptr, idle) + QStringLiteral(" · ") + tr("$%1/h").arg(perHour, 0, 'f', 2);
}

QWidget *FleetOverview::rows() const
{
    return m_rows;
}

int FleetOverview::paintCount() const
{
    int count = m_rows->paintCount();
    for (const Group &group : m_groups)
        count += group.rows->paintCount();
    return count;
}

QString FleetOverview::machineAt(const QPoint &pos) const
{
    return m_rows->machineAt(pos);
}

} // namespace gantry::ui::monitor
