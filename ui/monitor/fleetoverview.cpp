#include "fleetoverview.h"

#include "monitor/monitorservice.h"

#include <QMouseEvent>
#include <QPainter>

namespace gantry::ui::monitor {

using gantry::monitor::Metric;
using gantry::monitor::Resolution;
using gantry::monitor::SamplerStatus;
using gantry::monitor::SeriesKey;

namespace {
constexpr int kRowHeight = 40;
constexpr int kNameWidth = 200;
constexpr int kCellWidth = 96;
constexpr int kMaxGpuCells = 8;
constexpr qint64 kWindowMs = 120 * 1000;

QColor statusColor(SamplerStatus s)
{
    switch (s) {
    case SamplerStatus::Live: return QColor(0x2e, 0x9e, 0x44);
    case SamplerStatus::NoDriver: return QColor(0x3b, 0x82, 0xc4);
    case SamplerStatus::Stale:
    case SamplerStatus::Reconnecting:
    case SamplerStatus::Connecting: return QColor(0xe0, 0xa1, 0x00);
    case SamplerStatus::Failed: return QColor(0xc6, 0x28, 0x28);
    case SamplerStatus::Idle: break;
    }
    return QColor(0x9e, 0x9e, 0x9e);
}
} // namespace

FleetOverview::FleetOverview(gantry::monitor::MonitorService *service, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_dirty) {
            m_dirty = false;
            update();
        }
    });
    m_timer.start();
    auto markDirty = [this] { m_dirty = true; };
    connect(m_service, &gantry::monitor::MonitorService::sampleArrived, this, markDirty);
    connect(m_service, &gantry::monitor::MonitorService::statusChanged, this, markDirty);
    connect(m_service, &gantry::monitor::MonitorService::machineAdded, this, [this] {
        updateGeometry();
        m_dirty = true;
    });
    connect(m_service, &gantry::monitor::MonitorService::machineRemoved, this, [this] {
        updateGeometry();
        m_dirty = true;
    });
}

QSize FleetOverview::sizeHint() const
{
    return QSize(kNameWidth + 110 + (kMaxGpuCells + 1) * kCellWidth, qMax(1, int(m_service->machines().size())) * kRowHeight + 4);
}

QSize FleetOverview::minimumSizeHint() const
{
    return QSize(kNameWidth + 110 + 2 * kCellWidth, kRowHeight);
}

QString FleetOverview::machineAt(const QPoint &pos) const
{
    const int row = pos.y() / kRowHeight;
    const QStringList machines = m_service->machines();
    return row >= 0 && row < machines.size() ? machines.at(row) : QString();
}

void FleetOverview::mousePressEvent(QMouseEvent *event)
{
    const QString name = machineAt(event->position().toPoint());
    if (!name.isEmpty()) {
        emit machineActivated(name);
    }
    QWidget::mousePressEvent(event);
}

void FleetOverview::paintEvent(QPaintEvent *event)
{
    ++m_paints;
    QPainter painter(this);
    painter.fillRect(event->rect(), palette().base());
    const QStringList machines = m_service->machines();
    if (machines.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("No machine is being monitored. Connect to one to see it here."));
        return;
    }
    for (int i = 0; i < machines.size(); ++i) {
        const QRect row(0, i * kRowHeight, width(), kRowHeight);
        if (!row.intersects(event->rect())) {
            continue;
        }
        if (i % 2) {
            painter.fillRect(row, palette().alternateBase());
        }
        paintRow(painter, row, machines.at(i));
    }
}

void FleetOverview::paintRow(QPainter &painter, const QRect &rect, const QString &name)
{
    const gantry::monitor::MetricStore *store = m_service->store(name);
    const SamplerStatus status = m_service->status(name);
    const QColor text = palette().color(QPalette::Text);

    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(Qt::NoPen);
    painter.setBrush(statusColor(status));
    painter.drawEllipse(QPointF(rect.left() + 10, rect.center().y() + 0.5), 5, 5);
    painter.setBrush(Qt::NoBrush);

    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(text);
    const QRect nameRect(rect.left() + 20, rect.top() + 2, kNameWidth - 24, rect.height() / 2);
    painter.drawText(nameRect, Qt::AlignLeft | Qt::AlignVCenter, painter.fontMetrics().elidedText(name, Qt::ElideMiddle, nameRect.width()));
    painter.setFont(font());
    const QRect subRect(rect.left() + 20, rect.top() + rect.height() / 2, kNameWidth - 24, rect.height() / 2 - 2);
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(subRect, Qt::AlignLeft | Qt::AlignVCenter, gantry::monitor::samplerStatusName(status));

    const double price = m_service->hourlyPrice(name);
    painter.setPen(text);
    painter.drawText(QRect(rect.left() + kNameWidth, rect.top(), 100, rect.height()), Qt::AlignRight | Qt::AlignVCenter,
                     price > 0 ? QStringLiteral("$%1/h").arg(price, 0, 'f', 2) : tr("free"));
    if (!store) {
        return;
    }
    const auto &latest = store->latestSample();
    const qint64 to = latest ? latest->time.toMSecsSinceEpoch() : 0;
    const qint64 from = to - kWindowMs;
    int x = rect.left() + kNameWidth + 110;
    const QList<int> gpus = store->gpuIndexes();
    for (int i = 0; i < gpus.size() && i < kMaxGpuCells; ++i) {
        const QRectF cell(x, rect.top() + 3, kCellWidth - 6, rect.height() - 6);
        store->points(SeriesKey{gpus.at(i), Metric::GpuUtilization}, Resolution::Seconds1, from, m_buffer);
        const auto util = store->latest(SeriesKey{gpus.at(i), Metric::GpuUtilization});
        const QColor color = util && *util < 5 ? QColor(0xe0, 0x8a, 0x00) : QColor(0x1e, 0x88, 0xe5);
        paintSparkline(painter, cell, m_buffer, from, to, 100, color);
        painter.setPen(text);
        painter.drawText(cell.adjusted(2, 0, -2, 0), Qt::AlignRight | Qt::AlignTop,
                         QStringLiteral("%1: %2").arg(gpus.at(i)).arg(util ? QString::number(qRound(*util)) + QLatin1Char('%') : QStringLiteral("n/a")));
        x += kCellWidth;
    }
    // Host CPU, for the data-loading story next to the GPUs.
    const QRectF cpuCell(rect.right() - kCellWidth + 3, rect.top() + 3, kCellWidth - 6, rect.height() - 6);
    store->points(SeriesKey{-1, Metric::HostCpu}, Resolution::Seconds1, from, m_buffer);
    paintSparkline(painter, cpuCell, m_buffer, from, to, 100, QColor(0x8e, 0x24, 0xaa));
    const auto cpu = store->latest(SeriesKey{-1, Metric::HostCpu});
    painter.setPen(text);
    painter.drawText(cpuCell.adjusted(2, 0, -2, 0), Qt::AlignRight | Qt::AlignTop,
                     tr("CPU %1").arg(cpu ? QString::number(qRound(*cpu)) + QLatin1Char('%') : QStringLiteral("n/a")));
}

void FleetOverview::paintSparkline(QPainter &painter, const QRectF &rect, const QList<QPointF> &points, qint64 from,
                                   qint64 to, double maxY, const QColor &color)
{
    painter.setPen(QPen(palette().color(QPalette::Mid), 0));
    painter.drawRect(rect);
    if (points.isEmpty() || to <= from) {
        return;
    }
    m_polygon.clear();
    m_polygon.reserve(points.size());
    const double sx = rect.width() / double(to - from);
    const double sy = rect.height() / maxY;
    for (const QPointF &p : points) {
        m_polygon.append(QPointF(rect.left() + (p.x() - double(from)) * sx,
                                 rect.bottom() - qBound(0.0, p.y(), maxY) * sy));
    }
    painter.setPen(QPen(color, 1.2));
    painter.drawPolyline(m_polygon);
}

} // namespace gantry::ui::monitor
