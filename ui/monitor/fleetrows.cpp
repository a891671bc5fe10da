#include "ui/monitor/fleetrows.h"

#include "ui/monitor/chartscale.h"
#include "ui/monitor/fleetoverview.h"
#include "ui/common/themecolors.h"
#include "core/monitor/monitorservice.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace gantry::ui::monitor {

using gantry::monitor::AlertSeverity;
using gantry::monitor::Metric;
using gantry::monitor::SamplerStatus;
using gantry::monitor::SeriesKey;

namespace {
constexpr int kNameWidth = 220;
constexpr int kPriceWidth = 80;
constexpr int kBadgeWidth = 34;
constexpr int kMaxCell = 100;
constexpr int kMinCell = 58;
constexpr int kMaxGpuCells = 8;

// Colours from the widget's palette (themecolors.h), so dots and badges stay visible on dark themes.
QColor statusColor(SamplerStatus s, const QPalette &palette)
{
    switch (s) {
    case SamplerStatus::Live: return toneColor(Tone::Good, palette);
    case SamplerStatus::NoDriver: return palette.color(QPalette::Link);
    case SamplerStatus::Stale:
    case SamplerStatus::Reconnecting:
    case SamplerStatus::Connecting: return toneColor(Tone::Warning, palette);
    case SamplerStatus::Failed: return toneColor(Tone::Error, palette);
    case SamplerStatus::Idle: break;
    }
    return palette.color(QPalette::PlaceholderText);
}

QString statusWord(SamplerStatus s)
{
    switch (s) {
    case SamplerStatus::Live: return FleetOverview::tr("live");
    case SamplerStatus::NoDriver: return FleetOverview::tr("no GPU");
    case SamplerStatus::Stale: return FleetOverview::tr("no recent sample");
    case SamplerStatus::Reconnecting: return FleetOverview::tr("reconnecting");
    case SamplerStatus::Connecting: return FleetOverview::tr("connecting");
    case SamplerStatus::Failed: return FleetOverview::tr("failed");
    case SamplerStatus::Idle: break;
    }
    return FleetOverview::tr("not monitoring");
}

QString durationText(double seconds)
{
    const qint64 minutes = qint64(seconds / 60);
    if (minutes < 60) {
        return FleetOverview::tr("%1 min").arg(minutes);
    }
    if (minutes < 48 * 60) {
        return FleetOverview::tr("%1 h %2 min").arg(minutes / 60).arg(minutes % 60);
    }
    return FleetOverview::tr("%1 d %2 h").arg(minutes / 1440).arg((minutes % 1440) / 60);
}

QColor severityColor(AlertSeverity s, const QPalette &palette)
{
    switch (s) {
    case AlertSeverity::Critical: return toneColor(Tone::Error, palette);
    case AlertSeverity::Warning: return toneColor(Tone::Warning, palette);
    case AlertSeverity::Hint: break;
    }
    return palette.color(QPalette::Link);
}
} // namespace

FleetRows::FleetRows(gantry::monitor::MonitorService *service, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(false);
}

int FleetRows::rowHeight()
{
    return 44;
}

void FleetRows::setOrder(const QStringList &machines)
{
    if (machines.size() != m_order.size()) {
        updateGeometry();
    }
    m_order = machines;
}

QSize FleetRows::sizeHint() const
{
    return QSize(kNameWidth + kPriceWidth + kBadgeWidth + (kMaxGpuCells + 1) * (kMaxCell - 8), qMax(1, int(m_order.size())) * rowHeight() + 2);
}

QSize FleetRows::minimumSizeHint() const
{
    return QSize(kNameWidth + kPriceWidth + kBadgeWidth + 3 * kMinCell, rowHeight());
}

QString FleetRows::machineAt(const QPoint &pos) const
{
    const int row = pos.y() / rowHeight();
    return pos.y() >= 0 && row < m_order.size() ? m_order.at(row) : QString();
}

FleetRows::Layout FleetRows::layoutFor(const QRect &row, int gpuCount) const
{
    Layout l;
    l.name = QRect(row.left() + 20, row.top(), kNameWidth - 24, row.height());
    l.price = QRect(row.left() + kNameWidth, row.top(), kPriceWidth, row.height());
    l.badge = QRect(l.price.right() + 4, row.top() + row.height() / 2 - 10, kBadgeWidth - 8, 20);
    const int left = row.left() + kNameWidth + kPriceWidth + kBadgeWidth;
    const int cells = qMin(gpuCount, kMaxGpuCells) + 1; // + host CPU
    const int cell = qBound(kMinCell, (row.right() - left) / qMax(1, cells), kMaxCell);
    for (int i = 0; i < qMin(gpuCount, kMaxGpuCells); ++i) {
        l.gpus.append(QRect(left + i * cell, row.top() + 3, cell - 6, row.height() - 6));
    }
    l.cpu = QRect(left + int(l.gpus.size()) * cell, row.top() + 3, cell - 6, row.height() - 6);
    return l;
}

// Under the name: words only for what needs attention (the dot says "live"), then how long it
// has been up. An instance's age since launch is what bills; an own host's OS uptime says less,
// and says so.
QString FleetRows::subText(const QString &name) const
{
    const gantry::monitor::MetricStore *store = m_service->store(name);
    const SamplerStatus status = m_service->status(name);
    const auto &latest = store ? store->latestSample() : std::optional<gantry::monitor::MachineSample>{};
    const bool fine = status == SamplerStatus::Live || (status == SamplerStatus::Idle && latest);
    QString sub = fine ? QString() : statusWord(status);
    QString up;
    if (const QDateTime launched = m_service->launchedAt(name); launched.isValid()) {
        up = FleetOverview::tr("launched %1 ago").arg(durationText(double(qMax<qint64>(0, launched.secsTo(QDateTime::currentDateTimeUtc())))));
    } else if (latest && latest->hostMetrics && latest->hostMetrics->uptimeSeconds) {
        up = FleetOverview::tr("OS up %1").arg(durationText(*latest->hostMetrics->uptimeSeconds));
    }
    if (!up.isEmpty())
        sub = sub.isEmpty() ? up : sub + QStringLiteral(" · ") + up;
    return sub;
}

QStringList FleetRows::rowTexts(const QString &name) const
{
    QStringList texts{name};
    const double price = m_service->hourlyPrice(name);
    texts.append(price > 0 ? QStringLiteral("$%1/h").arg(price, 0, 'f', 2) : FleetOverview::tr("free"));
    if (const QString sub = subText(name); !sub.isEmpty())
        texts.append(sub);
    const gantry::monitor::MetricStore *store = m_service->store(name);
    if (!store) {
        return texts;
    }
    for (int gpu : store->gpuIndexes()) {
        const auto util = store->latest(SeriesKey{gpu, Metric::GpuUtilization});
        texts.append(util ? QStringLiteral("%1%").arg(qRound(*util)) : FleetOverview::tr("n/a"));
        const auto &latest = store->latestSample();
        for (const auto &g : latest ? latest->gpus : QList<gantry::monitor::GpuSample>{}) {
            if (g.index == gpu && g.memoryUsedMib && g.memoryTotalMib) {
                texts.append(QStringLiteral("%1/%2G").arg(qRound(*g.memoryUsedMib / 1024)).arg(qRound(*g.memoryTotalMib / 1024)));
            }
        }
    }
    return texts;
}

void FleetRows::paintEvent(QPaintEvent *event)
{
    ++m_paints;
    m_elided.clear();
    if (!m_fontsMade || m_fonts[int(FontRole::Normal)] != font()) { // first paint, or the font changed
        m_fontsMade = true;
        m_fonts[int(FontRole::Normal)] = font();
        m_fonts[int(FontRole::Bold)] = font();
        m_fonts[int(FontRole::Bold)].setBold(true);
        m_fonts[int(FontRole::Small)] = font();
        m_fonts[int(FontRole::Small)].setPointSizeF(font().pointSizeF() * 0.8);
        for (auto &texts : m_laidOut)
            texts.clear();
    }
    QPainter painter(this);
    useFont(painter, FontRole::Normal);
    painter.fillRect(event->rect(), palette().base());
    if (m_order.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, FleetOverview::tr("No machine is being monitored. Connect to one to see it here."));
        return;
    }
    for (int i = 0; i < m_order.size(); ++i) {
        const QRect row(0, i * rowHeight(), width(), rowHeight());
        if (!row.intersects(event->rect())) {
            continue;
        }
        if (m_order.at(i) == m_selected) {
            painter.fillRect(row, palette().highlight().color().lighter(m_selected.isEmpty() ? 100 : 170));
        } else if (i % 2) {
            painter.fillRect(row, palette().alternateBase());
        }
        paintRow(painter, row, m_order.at(i));
    }
}

void FleetRows::useFont(QPainter &painter, FontRole role)
{
    m_role = role;
    painter.setFont(m_fonts[int(role)]);
}

const QStaticText &FleetRows::laidOut(const QString &text)
{
    QHash<QString, QStaticText> &texts = m_laidOut[int(m_role)];
    auto found = texts.constFind(text);
    if (found != texts.constEnd())
        return *found;
    if (texts.size() > 4096) // machine names and numbers: bounded, but never without limit
        texts.clear();
    QStaticText laid(text);
    laid.setTextFormat(Qt::PlainText);
    laid.setPerformanceHint(QStaticText::AggressiveCaching);
    laid.prepare(QTransform(), m_fonts[int(m_role)]);
    return *texts.insert(text, laid);
}

// Draws text cut to its rect; a cut text is recorded so tests can insist on none.
void FleetRows::drawFitted(QPainter &painter, const QRect &rect, int flags, const QString &text)
{
    const QStaticText &laid = laidOut(text);
    const QSizeF size = laid.size();
    if (size.width() <= rect.width()) {
        qreal x = rect.left();
        if (flags & Qt::AlignRight)
            x = rect.right() + 1 - size.width();
        else if (flags & Qt::AlignHCenter)
            x = rect.left() + (rect.width() - size.width()) / 2;
        painter.drawStaticText(QPointF(x, rect.top() + (rect.height() - size.height()) / 2), laid);
        return;
    }
    const QString shown = painter.fontMetrics().elidedText(text, Qt::ElideMiddle, rect.width());
    if (shown != text) {
        m_elided.append(text);
    }
    painter.drawText(rect, flags, shown);
}

void FleetRows::paintRow(QPainter &painter, const QRect &rect, const QString &name)
{
    const gantry::monitor::MetricStore *store = m_service->store(name);
    const SamplerStatus status = m_service->status(name);
    const QList<int> gpus = store ? store->gpuIndexes() : QList<int>{};
    const Layout l = layoutFor(rect, int(gpus.size()));
    const QColor text = palette().color(QPalette::Text);
    const QColor dim = palette().color(QPalette::PlaceholderText);

    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(Qt::NoPen);
    painter.setBrush(statusColor(status, palette()));
    painter.drawEllipse(QPointF(rect.left() + 10, rect.top() + rect.height() / 4.0 + 1), 5, 5);
    painter.setBrush(Qt::NoBrush);

    useFont(painter, FontRole::Bold);
    painter.setPen(text);
    const QRect top(l.name.left(), rect.top() + 2, l.name.width(), rect.height() / 2 - 2);
    const QRect bottom(l.name.left(), rect.top() + rect.height() / 2, l.name.width(), rect.height() / 2 - 2);
    drawFitted(painter, top, Qt::AlignLeft | Qt::AlignVCenter, name);
    useFont(painter, FontRole::Normal);
    painter.setPen(dim);
    const QString sub = subText(name);
    drawFitted(painter, bottom, Qt::AlignLeft | Qt::AlignVCenter, sub);

    const double price = m_service->hourlyPrice(name);
    painter.setPen(text);
    drawFitted(painter, l.price.adjusted(0, 0, -4, 0), Qt::AlignRight | Qt::AlignVCenter,
               price > 0 ? QStringLiteral("$%1/h").arg(price, 0, 'f', 2) : FleetOverview::tr("free"));

    if (const auto *engine = m_service->alerts(name)) {
        const QList<gantry::monitor::Alert> active = engine->active();
        if (!active.isEmpty()) {
            AlertSeverity worst = AlertSeverity::Hint;
            for (const auto &a : active) {
                worst = qMax(worst, a.severity);
            }
            painter.setPen(Qt::NoPen);
            painter.setBrush(severityColor(worst, palette()));
            painter.drawRoundedRect(l.badge, 9, 9);
            painter.setBrush(Qt::NoBrush);
            // The window colour on the tone: light on the dark badge of a light theme, and the reverse.
            painter.setPen(palette().color(QPalette::Window));
            painter.drawText(l.badge, Qt::AlignCenter, QString::number(active.size()));
        }
    }
    painter.setRenderHint(QPainter::Antialiasing, false); // the bars are upright rectangles
    if (!store) {
        return;
    }
    for (int i = 0; i < l.gpus.size(); ++i) {
        paintGpuCell(painter, l.gpus.at(i), name, gpus.at(i));
    }
    const auto cpu = store->latest(SeriesKey{-1, Metric::HostCpu});
    const auto ram = store->latest(SeriesKey{-1, Metric::HostMemoryUsedPercent});
    const QRectF cpuTop(l.cpu.left(), l.cpu.top(), l.cpu.width(), l.cpu.height() / 2.0 - 1);
    const QRectF cpuBottom(l.cpu.left(), l.cpu.top() + l.cpu.height() / 2.0 + 1, l.cpu.width(), l.cpu.height() / 2.0 - 1);
    // Host bars in purple, away from the GPUs' hues, at a lightness that suits the theme.
    const QColor host = QColor::fromHsl(290, 150, isDarkPalette(palette()) ? 135 : 95);
    paintBar(painter, cpuTop, cpu ? std::optional<double>(*cpu / 100) : std::nullopt,
             FleetOverview::tr("CPU %1").arg(cpu ? QString::number(qRound(*cpu)) + QLatin1Char('%') : FleetOverview::tr("n/a")), host);
    paintBar(painter, cpuBottom, ram ? std::optional<double>(*ram / 100) : std::nullopt,
             FleetOverview::tr("RAM %1").arg(ram ? QString::number(qRound(*ram)) + QLatin1Char('%') : FleetOverview::tr("n/a")), host);
}

// Utilization on top, memory used/total below, each a bar with its number.
void FleetRows::paintGpuCell(QPainter &painter, const QRect &cell, const QString &name, int gpu)
{
    const gantry::monitor::MetricStore *store = m_service->store(name);
    const auto util = store->latest(SeriesKey{gpu, Metric::GpuUtilization});
    const auto used = store->latest(SeriesKey{gpu, Metric::GpuMemoryUsedMib});
    std::optional<double> total;
    if (const auto &latest = store->latestSample()) {
        for (const auto &g : latest->gpus) {
            if (g.index == gpu) {
                total = g.memoryTotalMib;
            }
        }
    }
    const QRectF top(cell.left(), cell.top(), cell.width(), cell.height() / 2.0 - 1);
    const QRectF bottom(cell.left(), cell.top() + cell.height() / 2.0 + 1, cell.width(), cell.height() / 2.0 - 1);
    // An idle GPU stands out: what a person watching the bill looks for.
    const QColor utilColor = util && *util < 5 ? toneColor(Tone::Warning, palette()) : ChartScale::gpuColor(gpu);
    paintBar(painter, top, util ? std::optional<double>(*util / 100) : std::nullopt,
             util ? QString::number(qRound(*util)) + QLatin1Char('%') : FleetOverview::tr("n/a"), utilColor);
    // The GPU's index, small and dim in the corner, so "3%" never reads as "0 3%".
    useFont(painter, FontRole::Small);
    painter.setPen(palette().color(QPalette::PlaceholderText));
    drawFitted(painter, top.adjusted(3, 0, 0, 0).toRect(), Qt::AlignLeft | Qt::AlignVCenter, QString::number(gpu));
    useFont(painter, FontRole::Normal);
    const bool known = used && total && *total > 0;
    paintBar(painter, bottom, known ? std::optional<double>(*used / *total) : std::nullopt,
             known ? QStringLiteral("%1/%2G").arg(qRound(*used / 1024)).arg(qRound(*total / 1024)) : FleetOverview::tr("n/a"),
             ChartScale::gpuColor(gpu).lighter(130));
}

void FleetRows::paintBar(QPainter &painter, const QRectF &rect, std::optional<double> fraction, const QString &text, const QColor &fill)
{
    painter.setPen(Qt::NoPen);
    painter.setBrush(palette().alternateBase());
    painter.drawRect(rect);
    if (fraction) {
        QColor c = fill;
        c.setAlpha(150);
        painter.setBrush(c);
        painter.drawRect(QRectF(rect.left(), rect.top(), rect.width() * qBound(0.0, *fraction, 1.0), rect.height()));
    }
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(palette().color(QPalette::Mid), 0));
    painter.drawRect(rect);
    painter.setPen(palette().color(QPalette::Text));
    drawFitted(painter, rect.toRect(), Qt::AlignCenter, text);
}

void FleetRows::mousePressEvent(QMouseEvent *event)
{
    m_selected = machineAt(event->position().toPoint());
    update();
    QWidget::mousePressEvent(event);
}

void FleetRows::mouseDoubleClickEvent(QMouseEvent *event)
{
    const QString name = machineAt(event->position().toPoint());
    if (!name.isEmpty()) {
        emit activated(name);
    }
    QWidget::mouseDoubleClickEvent(event);
}

QString FleetRows::tooltipAt(const QPoint &pos) const
{
    const QString name = machineAt(pos);
    if (name.isEmpty()) {
        return {};
    }
    const int row = int(m_order.indexOf(name));
    const gantry::monitor::MetricStore *store = m_service->store(name);
    const Layout l = layoutFor(QRect(0, row * rowHeight(), width(), rowHeight()), store ? int(store->gpuIndexes().size()) : 0);
    if (l.badge.contains(pos)) {
        QStringList lines;
        if (const auto *engine = m_service->alerts(name)) {
            for (const auto &a : engine->active()) {
                lines.append(a.message);
            }
        }
        return lines.join(QLatin1Char('\n'));
    }
    for (int i = 0; store && i < l.gpus.size(); ++i) {
        if (l.gpus.at(i).contains(pos)) {
            const int gpu = store->gpuIndexes().at(i);
            return FleetOverview::tr("%1 GPU %2 (%3)").arg(name).arg(gpu).arg(store->gpuName(gpu));
        }
    }
    return FleetOverview::tr("%1: double-click to open").arg(name);
}

bool FleetRows::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const QString tip = tooltipAt(help->pos());
        if (tip.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(help->globalPos(), tip, this);
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace gantry::ui::monitor
