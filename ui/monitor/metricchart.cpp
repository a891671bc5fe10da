#include "metricchart.h"

#include <QDateTime>
#include <QCursor>
#include <QLineSeries>
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
    , m_x(new QValueAxis)
    , m_y(new QValueAxis)
{
    m_chart->setTitle(unit.isEmpty() ? title : title + QStringLiteral(" (") + unit + QLatin1Char(')'));
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    // Animations re-run on every replace(): at 1 Hz with dozens of charts they cost more than the data.
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    m_y->setRange(0, 1);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    setChart(m_chart);
    setRenderHint(QPainter::Antialiasing, false);
    setMinimumHeight(180);
}

void MetricChart::setFixedRange(double min, double max)
{
    m_fixedRange = true;
    m_fixedMin = min;
    m_fixedMax = max;
    m_y->setRange(min, max);
}

QString MetricChart::formatValue(double value, const QString &unit)
{
    if (unit == QLatin1StringView("B/s")) {
        static const char *units[] = {"B/s", "KiB/s", "MiB/s", "GiB/s"};
        int i = 0;
        while (value >= 1024 && i < 3) {
            value /= 1024;
            ++i;
        }
        return QString::number(value, 'f', 1) + QLatin1Char(' ') + QString::fromLatin1(units[i]);
    }
    return QString::number(value, 'f', value < 10 ? 1 : 0) + QLatin1Char(' ') + unit;
}

QLineSeries *MetricChart::seriesFor(const QString &name)
{
    if (QLineSeries *s = m_series.value(name)) {
        return s;
    }
    auto *series = new QLineSeries(m_chart);
    series->setName(name);
    m_chart->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    connect(series, &QLineSeries::hovered, this, [this, series](const QPointF &point, bool state) {
        if (!state) {
            QToolTip::hideText();
            return;
        }
        const qint64 t = m_toMs + qint64(point.x() * m_unitMs);
        const QString when = QDateTime::fromMSecsSinceEpoch(t).toString(QStringLiteral("HH:mm:ss"));
        QToolTip::showText(QCursor::pos(), tr("%1: %2 at %3").arg(series->name(), formatValue(point.y(), m_unit), when), this);
    });
    m_series.insert(name, series);
    return series;
}

void MetricChart::setLines(const QList<Line> &lines, qint64 fromMs, qint64 toMs)
{
    m_toMs = toMs;
    const bool hours = toMs - fromMs > 6 * 3600 * 1000LL;
    m_unitMs = hours ? 3600000.0 : 60000.0;
    QStringList wanted;
    double maxY = 0;
    QList<QPointF> relative;
    for (const Line &line : lines) {
        wanted.append(line.name);
        relative.resize(line.points.size());
        for (qsizetype i = 0; i < line.points.size(); ++i) {
            const QPointF &p = line.points.at(i);
            relative[i] = QPointF((p.x() - double(toMs)) / m_unitMs, p.y());
            maxY = std::max(maxY, p.y());
        }
        seriesFor(line.name)->replace(relative);
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
    m_x->setRange(-double(std::max<qint64>(toMs - fromMs, 1000)) / m_unitMs, 0);
    m_x->setTitleText(hours ? tr("hours ago") : tr("minutes ago"));
    // Round steps whatever the span: 2 min for 10 min, 30 min for 3 h, 8 h for 48 h.
    const double span = double(toMs - fromMs) / m_unitMs;
    const double step = span <= 15 ? 2 : span <= 240 ? 30 : 8;
    // The spans are whole multiples of the step, so fixed ticks land on round values.
    m_x->setTickCount(qBound(2, int(std::lround(span / step)) + 1, 13));
    if (!m_fixedRange) {
        m_y->setRange(0, maxY > 0 ? maxY * 1.15 : 1);
        m_y->setLabelFormat(maxY < 10 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    }
}

qsizetype MetricChart::pointCount() const
{
    qsizetype n = 0;
    for (const QLineSeries *s : m_series) {
        n += s->count();
    }
    return n;
}

} // namespace gantry::ui::monitor
