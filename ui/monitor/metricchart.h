#pragma once

#include <QChartView>
#include <QHash>
#include <QList>
#include <QPointF>
#include <QString>

class QLineSeries;
class QValueAxis;

namespace gantry::ui::monitor {

// One metric family (utilization, memory, …) with one line per GPU. Lines are replaced wholesale
// from the ring buffer each refresh (QXYSeries::replace), so a chart never holds more points than
// the selected ring: it cannot grow however long the app runs.
class MetricChart final : public QChartView
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MetricChart)

public:
    struct Line
    {
        QString name;
        QList<QPointF> points; // x: ms since epoch (UTC), y: value
    };

    MetricChart(const QString &title, const QString &unit, QWidget *parent = nullptr);

    // A fixed y range (percentages); otherwise 0 … max with headroom.
    void setFixedRange(double min, double max);
    // Lines absent from `lines` are removed; x axis spans [fromMs, toMs], labelled relative to toMs.
    void setLines(const QList<Line> &lines, qint64 fromMs, qint64 toMs);

    QString title() const { return m_title; }
    QString unit() const { return m_unit; }
    int lineCount() const { return int(m_series.size()); }
    qsizetype pointCount() const;

private:
    QLineSeries *seriesFor(const QString &name);
    static QString formatValue(double value, const QString &unit);

    QString m_title;
    QString m_unit;
    QChart *m_chart;
    QValueAxis *m_x;   // time relative to the newest sample ("-10 … 0 min"): labels stay short
    qint64 m_toMs = 0;
    double m_unitMs = 60000;
    QValueAxis *m_y;
    QHash<QString, QLineSeries *> m_series;
    bool m_fixedRange = false;
    double m_fixedMin = 0;
    double m_fixedMax = 100;
};

} // namespace gantry::ui::monitor
