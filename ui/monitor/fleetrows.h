#pragma once

#include <QFont>
#include <QHash>
#include <QList>
#include <QPointF>
#include <QPolygonF>
#include <QStaticText>
#include <QStringList>
#include <QWidget>

namespace gantry::monitor {
class MonitorService;
}

namespace gantry::ui::monitor {

// FleetOverview's painted rows: one per machine, no child widget per cell.
class FleetRows final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FleetRows)

public:
    FleetRows(gantry::monitor::MonitorService *service, QWidget *parent = nullptr);

    void setOrder(const QStringList &machines);
    const QStringList &order() const { return m_order; }
    QString machineAt(const QPoint &pos) const;
    QString selected() const { return m_selected; }
    int paintCount() const { return m_paints; }
    static int rowHeight();
    // Texts drawn in a machine's row, in order (tests check the numbers and that nothing is cut).
    QStringList rowTexts(const QString &machine) const;
    QStringList elidedTexts() const { return m_elided; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void activated(const QString &machine);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;

private:
    struct Layout
    {
        QRect name, price, badge, cpu;
        QList<QRect> gpus;
    };
    Layout layoutFor(const QRect &row, int gpuCount) const;
    void paintRow(QPainter &painter, const QRect &rect, const QString &name);
    void paintGpuCell(QPainter &painter, const QRect &cell, const QString &name, int gpu);
    void paintBar(QPainter &painter, const QRectF &rect, std::optional<double> fraction, const QString &text, const QColor &fill);
    void drawFitted(QPainter &painter, const QRect &rect, int flags, const QString &text);
    // The fonts a row uses, made once (and again when the widget's font changes), and each
    // text's laid-out form by font: most texts come back every second ("97%", "63/80G"), so
    // they are shaped once, not 600 times a second for 64 machines.
    enum class FontRole { Normal, Bold, Small };
    void useFont(QPainter &painter, FontRole role);
    const QStaticText &laidOut(const QString &text);
    QString tooltipAt(const QPoint &pos) const;
    QString subText(const QString &name) const;

    gantry::monitor::MonitorService *m_service;
    QStringList m_order;
    QString m_selected;
    int m_paints = 0;
    QStringList m_elided;
    QFont m_fonts[3];
    bool m_fontsMade = false;
    FontRole m_role = FontRole::Normal;
    QHash<QString, QStaticText> m_laidOut[3];
};

} // namespace gantry::ui::monitor
