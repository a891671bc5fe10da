#pragma once

#include <QChartView>
#include <QColor>
#include <QHash>
#include <QList>
#include <QPointF>
#include <QString>

class QCategoryAxis;
class QLineSeries;
class QValueAxis;

namespace gantry::ui::monitor {

// One metric family (utilization, memory, …) with one line per GPU. Lines are replaced wholesale
// from the ring buffer each refresh (QXYSeries::replace), so a chart never holds more points than
// the selected ring: it cannot grow however long the app runs. The x axis reads "-10 min … now",
// the y axis steps on round numbers, the unit is in the title; GPU lines take their colour from
// ChartScale::gpuColor so one GPU looks the same everywhere and the charts need no legend.
class MetricChart final : public QChartView
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MetricChart)

public:
    struct Line
    {
        QString name;
        QList<QPointF> points; // x: ms since epoch (UTC), y: value
        QColor color;          // invalid: the theme's next colour
        bool dashed = false;   // a reference (power limit, maximum clock), not a measurement
    };
    // A stretch of time shaded behind the lines (the GPUs were throttled); its text is the
    // tooltip when the pointer is over it.
    struct Band
    {
        qint64 fromMs = 0;
        qint64 toMs = 0;
        QString text;
    };

    MetricChart(const QString &title, const QString &unit, QWidget *parent = nullptr);

    // A fixed y range (percentages); otherwise 0 … a round number above the maximum.
    void setFixedRange(double min, double max);
    // A legend beside the plot (host charts, whose lines are not GPUs), each entry with the
    // line's current (newest) value: "received: 1.2 MB/s".
    void setLegendVisible(bool visible);
    // Values are bytes per second: the unit follows the largest value shown (B/s … GB/s), so a
    // quiet link reads 12 KB/s rather than 0.000 MiB/s.
    void setByteRate(bool byteRate) { m_byteRate = byteRate; }
    // Lines absent from `lines` are removed; x axis spans [fromMs, toMs], labelled relative to toMs.
    void setLines(const QList<Line> &lines, qint64 fromMs, qint64 toMs);
    // Replaces the shaded bands (call after setLines: they are placed on its time axis).
    void setBands(const QList<Band> &bands);
    const QList<Band> &bands() const { return m_bands; }
    // Said after the title: "GPU power (W) · limit 700 W". Empty: nothing.
    void setNote(const QString &note);
    // The text of the band under a point of the view ("" when none): what the tooltip says.
    QString bandTextAt(const QPoint &viewPos) const;

    QString title() const { return m_title; }
    QString unit() const { return m_unit; }
    // The legend's texts as drawn (name and current value of each line).
    QStringList legendTexts() const;
    // The time of the newest sample shown (the right edge, "now").
    qint64 toMs() const { return m_toMs; }
    int lineCount() const { return int(m_series.size()); }
    qsizetype pointCount() const;
    // Every text the chart draws (title, tick labels, legend), as drawn: tests check for elision.
    QStringList renderedTexts() const;
    QStringList timeLabels() const;
    QList<double> valueTicks() const;

protected:
    void resizeEvent(QResizeEvent *event) override;
    void drawForeground(QPainter *painter, const QRectF &rect) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    QLineSeries *seriesFor(const Line &line);
    void updateTimeAxis();
    void updateValueAxis();
    static QString formatValue(double value, const QString &unit);
    void setUnit(const QString &unit);
    void updateTitle();
    QRectF bandRect(const Band &band) const; // in scene coordinates
    void showCurrentValue(QLineSeries *series, const QString &name, const QList<QPointF> &points);

    QString m_title;
    QString m_unit;
    QString m_note;
    QList<Band> m_bands;
    QChart *m_chart;
    QCategoryAxis *m_x; // seconds relative to the newest sample, labelled "-10 min … now"
    QValueAxis *m_y;
    qint64 m_toMs = 0;
    double m_spanSeconds = 600;
    QHash<QString, QLineSeries *> m_series;
    double m_maxY = 0;
    int m_yIntervals = 4;
    bool m_fixedRange = false;
    bool m_byteRate = false;
    double m_fixedMin = 0;
    double m_fixedMax = 100;
};

} // namespace gantry::ui::monitor
