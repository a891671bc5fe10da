#include "ui/monitor/metricchart.h"

#include "ui/monitor/chartscale.h"

#include <QCategoryAxis>
#include <QCursor>
#include <QDateTime>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace gantry::ui::monitor {

MetricChart::MetricChart(const QString &title, const QString &unit, QWidget *parent)
    : QChartView(parent)
    , m_title(title)
    , m_unit(unit)
    , m_chart(new QChart)
    , m_x(new QCategoryAxis)
    , m_y(new QValueAxis)
{
    setUnit(unit);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->legend()->hide();
    // Room on both sides for the edge labels ("-10 min", "now"), which are centred on the plot's edges.
    m_chart->setMargins(QMargins(16, 2, 16, 2));
    m_chart->setBackgroundRoundness(0);
    // Follow the system palette (dark themes) instead of the chart theme's white.
    m_chart->setBackgroundBrush(palette().base());
    m_chart->setTitleBrush(palette().text());
    // Animations re-run on every replace(): at 1 Hz with dozens of charts they cost more than the data.
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_y->setTickType(QValueAxis::TicksDynamic);
    m_y->setTickAnchor(0);
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    m_y->setRange(0, 1);
    m_y->setTickInterval(0.25);
    for (QAbstractAxis *axis : {static_cast<QAbstractAxis *>(m_x), static_cast<QAbstractAxis *>(m_y)}) {
        axis->setLabelsBrush(palette().text());
        axis->setGridLineColor(palette().color(QPalette::Midlight));
    }
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    setChart(m_chart);
    setRenderHint(QPainter::Antialiasing, false);
    setMinimumHeight(190);
    updateTimeAxis();
}

void MetricChart::setFixedRange(double min, double max)
{
    m_fixedRange = true;
    m_fixedMin = min;
    m_fixedMax = max;
    updateValueAxis();
}

// Round ticks, as many as the plot's height leaves room for: QtCharts elides tick labels that
// are closer together than their height.
void MetricChart::updateValueAxis()
{
    const double min = m_fixedRange ? m_fixedMin : 0;
    const ChartScale::ValueAxis axis = ChartScale::niceAxis(m_fixedRange ? m_fixedMax - m_fixedMin : m_maxY * 1.05, m_yIntervals);
    const double max = m_fixedRange ? m_fixedMax : axis.max;
    if (m_y->min() == min && m_y->max() == max && m_y->tickInterval() == axis.step) {
        return;
    }
    // QtCharts lays out every label of the moment's range/interval pair: never pair the new
    // range with the old step (0 … 68995 at a step of 0.25 would be 275 000 labels, briefly).
    if (axis.step > m_y->tickInterval()) {
        m_y->setTickInterval(axis.step);
        m_y->setRange(min, max);
    } else {
        m_y->setRange(min, max);
        m_y->setTickInterval(axis.step);
    }
    m_y->setLabelFormat(QStringLiteral("%.") + QString::number(axis.decimals) + QLatin1Char('f'));
}

void MetricChart::setLegendVisible(bool visible)
{
    // On the right: under the plot it would take the height the tick labels need.
    m_chart->legend()->setAlignment(Qt::AlignRight);
    m_chart->legend()->setVisible(visible);
}

QString MetricChart::formatValue(double value, const QString &unit)
{
    return QString::number(value, 'f', value < 10 ? 1 : 0) + QLatin1Char(' ') + unit;
}

void MetricChart::setUnit(const QString &unit)
{
    if (unit == m_unit && !m_chart->title().isEmpty())
        return;
    m_unit = unit;
    updateTitle();
}

void MetricChart::setNote(const QString &note)
{
    if (note == m_note)
        return;
    m_note = note;
    updateTitle();
}

void MetricChart::updateTitle()
{
    QString title = m_unit.isEmpty() ? m_title : m_title + QStringLiteral(" (") + m_unit + QLatin1Char(')');
    if (!m_note.isEmpty())
        title += QStringLiteral(" · ") + m_note;
    m_chart->setTitle(title);
}

void MetricChart::setBands(const QList<Band> &bands)
{
    m_bands = bands;
    scene()->update();
}

QRectF MetricChart::bandRect(const Band &band) const
{
    const QRectF plot = m_chart->mapRectToScene(m_chart->plotArea());
    auto x = [&](qint64 ms) {
        const double rel = std::clamp(double(ms - m_toMs) / 1000.0, -m_spanSeconds, 0.0);
        return plot.left() + (rel + m_spanSeconds) / m_spanSeconds * plot.width();
    };
    // A span of one sample still gets a visible sliver.
    const double left = x(band.fromMs);
    const double right = std::max(x(band.toMs), left + 2);
    return QRectF(left, plot.top(), right - left, plot.height());
}

void MetricChart::drawForeground(QPainter *painter, const QRectF &rect)
{
    QChartView::drawForeground(painter, rect);
    QColor shade = ChartScale::throttleColor();
    for (const Band &band : std::as_const(m_bands)) {
        painter->fillRect(bandRect(band), shade);
    }
}

QString MetricChart::bandTextAt(const QPoint &viewPos) const
{
    const QPointF scenePos = mapToScene(viewPos);
    for (const Band &band : m_bands) {
        if (bandRect(band).contains(scenePos))
            return band.text;
    }
    return {};
}

void MetricChart::mouseMoveEvent(QMouseEvent *event)
{
    QChartView::mouseMoveEvent(event);
    if (const QString text = bandTextAt(event->position().toPoint()); !text.isEmpty())
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void MetricChart::showCurrentValue(QLineSeries *series, const QString &name, const QList<QPointF> &points)
{
    if (!m_chart->legend()->isVisible())
        return;
    const QString text = points.isEmpty() ? name : tr("%1: %2").arg(name, formatValue(points.constLast().y(), m_unit));
    for (QLegendMarker *marker : m_chart->legend()->markers(series)) {
        if (marker->label() != text)
            marker->setLabel(text);
    }
}

QStringList MetricChart::legendTexts() const
{
    QStringList texts;
    for (const QLegendMarker *marker : m_chart->legend()->markers())
        texts.append(marker->label());
    return texts;
}

QLineSeries *MetricChart::seriesFor(const Line &line)
{
    if (QLineSeries *s = m_series.value(line.name)) {
        return s;
    }
    auto *series = new QLineSeries(m_chart);
    series->setName(line.name);
    m_chart->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    if (line.color.isValid()) {
        series->setColor(line.color);
    }
    {
        // One device pixel, as charts of many GPUs are drawn in nvtop and Grafana: wider lines go
        // through the stroker's joins (atan2 and hypot per segment), 9 charts × 8 GPUs every second.
        QPen pen = series->pen();
        pen.setWidthF(1.0);
        series->setPen(pen);
    }
    if (line.dashed) {
        QPen pen = series->pen();
        pen.setStyle(Qt::DashLine);
        pen.setColor(palette().color(QPalette::Text));
        series->setPen(pen);
    }
    connect(series, &QLineSeries::hovered, this, [this, series](const QPointF &point, bool state) {
        if (!state) {
            QToolTip::hideText();
            return;
        }
        const qint64 t = m_toMs + qint64(point.x() * 1000);
        const QString when = QDateTime::fromMSecsSinceEpoch(t).toString(QStringLiteral("HH:mm:ss"));
        QToolTip::showText(QCursor::pos(), tr("%1: %2 at %3").arg(series->name(), formatValue(point.y(), m_unit), when), this);
    });
    m_series.insert(line.name, series);
    return series;
}

void MetricChart::setLines(const QList<Line> &lines, qint64 fromMs, qint64 toMs)
{
    m_toMs = toMs;
    const double span = double(std::max<qint64>(toMs - fromMs, 1000)) / 1000.0;
    const bool spanChanged = span != m_spanSeconds;
    m_spanSeconds = span;
    QStringList wanted;
    const qsizetype seriesBefore = m_series.size();
    double divisor = 1;
    if (m_byteRate) {
        double rawMax = 0;
        for (const Line &line : lines) {
            for (const QPointF &p : line.points)
                rawMax = std::max(rawMax, p.y());
        }
        const ChartScale::RateUnit rate = ChartScale::rateUnit(rawMax);
        divisor = rate.divisor;
        setUnit(rate.unit);
    }
    double maxY = 0;
    QList<QPointF> relative;
    for (const Line &line : lines) {
        wanted.append(line.name);
        relative.resize(line.points.size());
        for (qsizetype i = 0; i < line.points.size(); ++i) {
            const QPointF &p = line.points.at(i);
            relative[i] = QPointF((p.x() - double(toMs)) / 1000.0, p.y() / divisor);
            maxY = std::max(maxY, relative[i].y());
        }
        QLineSeries *series = seriesFor(line);
        series->replace(relative);
        showCurrentValue(series, line.name, relative);
    }
    for (auto it = m_series.begin(); it != m_series.end();) {
        if (!wanted.contains(it.key())) {
            m_chart->removeSeries(it.value());
            delete it.value();
            it = m_series.erase(it);
        } else {
            ++it;
        }
    }
    const bool seriesChanged = m_series.size() != seriesBefore;
    if (spanChanged || seriesChanged) {
        updateTimeAxis();
    }
    m_maxY = maxY;
    updateValueAxis();
}

void MetricChart::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event);
    const int lineHeight = QFontMetrics(m_y->labelsFont()).height();
    const int titleHeight = QFontMetrics(m_chart->titleFont()).height();
    const int plotHeight = height() - titleHeight - lineHeight - 36;
    const int intervals = qBound(1, plotHeight / (lineHeight * 2), 4);
    if (intervals != m_yIntervals) {
        m_yIntervals = intervals;
        updateValueAxis();
    }
    updateTimeAxis();
}

// As many time labels as fit the plot's width with room to spare: QtCharts elides a label
// that is wider than the distance to its neighbours.
void MetricChart::updateTimeAxis()
{
    const QFontMetrics metrics(m_x->labelsFont());
    const int labelWidth = metrics.horizontalAdvance(ChartScale::widestTimeLabel()) + metrics.averageCharWidth() * 3;
    // The legend (host charts) sits right of the plot: its widest name plus the marker.
    double legendWidth = 0;
    if (m_chart->legend()->isVisible()) {
        const QFontMetrics legendMetrics(m_chart->legend()->font());
        // Room for the current value after the name, at its widest ("888 KB/s").
        const QString value = tr("%1: %2").arg(QString(), formatValue(888, m_byteRate ? ChartScale::rateUnit(1 << 20).unit : m_unit));
        for (auto it = m_series.cbegin(); it != m_series.cend(); ++it) {
            legendWidth = std::max(legendWidth, double(legendMetrics.horizontalAdvance(it.key() + value)) + 48);
        }
    }
    const double plotWidth = std::max(60.0, double(width()) - 70.0 - legendWidth);
    const int maxLabels = std::max(2, int(plotWidth / labelWidth));
    const QList<ChartScale::TimeTick> ticks = ChartScale::timeTicks(m_spanSeconds, maxLabels);
    for (const QString &label : m_x->categoriesLabels()) {
        m_x->remove(label);
    }
    // The first label sits on the left edge: its category starts a hair before it.
    m_x->setStartValue(-m_spanSeconds - 1e-3);
    for (const ChartScale::TimeTick &tick : ticks) {
        m_x->append(tick.label, tick.offsetSeconds);
    }
    m_x->setRange(-m_spanSeconds, 0);
}

qsizetype MetricChart::pointCount() const
{
    qsizetype n = 0;
    for (const QLineSeries *s : m_series) {
        n += s->count();
    }
    return n;
}

QStringList MetricChart::renderedTexts() const
{
    QStringList texts;
    for (const QGraphicsItem *item : scene()->items()) {
        if (!item->isVisible()) {
            continue;
        }
        if (const auto *text = dynamic_cast<const QGraphicsTextItem *>(item)) {
            texts.append(text->toPlainText());
        } else if (const auto *simple = dynamic_cast<const QGraphicsSimpleTextItem *>(item)) {
            texts.append(simple->text());
        }
    }
    return texts;
}

QStringList MetricChart::timeLabels() const
{
    return m_x->categoriesLabels();
}

QList<double> MetricChart::valueTicks() const
{
    QList<double> ticks;
    for (double v = m_y->min(); v <= m_y->max() + 1e-9 && m_y->tickInterval() > 0; v += m_y->tickInterval()) {
        ticks.append(v);
    }
    return ticks;
}

} // namespace gantry::ui::monitor
