#pragma once

#include <QList>
#include <QPointF>
#include <QPolygonF>
#include <QTimer>
#include <QWidget>

namespace gantry::monitor {
class MonitorService;
}

namespace gantry::ui::monitor {

// Every monitored machine on one screen: a compact row per machine with its status, $/h and a
// custom-painted utilization sparkline per GPU (plus host CPU), last two minutes. Samples only
// mark the widget dirty; a 1 s timer repaints once, so 16 machines × 8 GPUs at 1 Hz cost one
// paint per second, not 128.
class FleetOverview final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FleetOverview)

public:
    explicit FleetOverview(gantry::monitor::MonitorService *service, QWidget *parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    int paintCount() const { return m_paints; }
    // Row under a point, or an empty string.
    QString machineAt(const QPoint &pos) const;
    void setRepaintIntervalMs(int ms) { m_timer.setInterval(ms); }

signals:
    void machineActivated(const QString &name);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    void paintRow(QPainter &painter, const QRect &rect, const QString &name);
    void paintSparkline(QPainter &painter, const QRectF &rect, const QList<QPointF> &points, qint64 from, qint64 to,
                        double maxY, const QColor &color);

    gantry::monitor::MonitorService *m_service;
    QTimer m_timer;
    bool m_dirty = false;
    int m_paints = 0;
    QList<QPointF> m_buffer;
    QPolygonF m_polygon;
};

} // namespace gantry::ui::monitor
