#include "ui/monitor/gpunowpanel.h"

#include "ui/monitor/chartscale.h"
#include "core/util/printable.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace gantry::ui::monitor {

using gantry::monitor::GpuSample;

namespace {
constexpr int kPad = 6;

QString number(std::optional<double> v, int decimals = 0)
{
    return v ? QString::number(*v, 'f', decimals) : QStringLiteral("–");
}

QString memoryText(const GpuSample &g)
{
    if (!g.memoryUsedMib && !g.memoryTotalMib) {
        return GpuNowPanel::tr("n/a");
    }
    // GiB as nvitop shows them; a board under 1 GiB keeps MiB.
    const bool gib = g.memoryTotalMib.value_or(0) >= 1024;
    auto scaled = [gib](std::optional<double> mib) -> std::optional<double> {
        return mib ? std::optional<double>(gib ? *mib / 1024.0 : *mib) : std::nullopt;
    };
    return GpuNowPanel::tr("%1 / %2 %3").arg(number(scaled(g.memoryUsedMib), gib ? 1 : 0), number(scaled(g.memoryTotalMib), gib ? 1 : 0),
                                          gib ? QStringLiteral("GiB") : QStringLiteral("MiB"));
}

QString powerText(const GpuSample &g)
{
    if (!g.powerDrawW) {
        return GpuNowPanel::tr("n/a");
    }
    return g.powerLimitW ? GpuNowPanel::tr("%1 / %2 W").arg(number(g.powerDrawW), number(g.powerLimitW))
                         : GpuNowPanel::tr("%1 W").arg(number(g.powerDrawW));
}

// SM and tensor-core activity from GPM: what a busy "utilization" leaves out.
QString gpmText(const GpuSample &g)
{
    if (!g.gpm.any())
        return QStringLiteral("–");
    return GpuNowPanel::tr("%1 % · %2 %").arg(number(g.gpm.smActivity), number(g.gpm.tensorActivity));
}

QString gpmTip(const GpuSample &g)
{
    if (!g.gpm.any())
        return {};
    return GpuNowPanel::tr("GPM: SM activity %1 %, SM occupancy %2 %, tensor activity %3 %, DRAM activity %4 %")
        .arg(number(g.gpm.smActivity), number(g.gpm.smOccupancy), number(g.gpm.tensorActivity), number(g.gpm.dramActivity));
}

std::optional<double> ratio(std::optional<double> a, std::optional<double> b)
{
    if (!a || !b || *b <= 0) {
        return std::nullopt;
    }
    return qBound(0.0, *a / *b, 1.0);
}
} // namespace

GpuNowPanel::GpuNowPanel(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void GpuNowPanel::setGpus(const QList<GpuSample> &gpus)
{
    bool same = gpus.size() == m_gpus.size();
    for (qsizetype i = 0; same && i < gpus.size(); ++i) {
        const GpuSample &a = gpus.at(i);
        const GpuSample &b = m_gpus.at(i);
        same = a.index == b.index && a.utilizationGpu == b.utilizationGpu && a.memoryUsedMib == b.memoryUsedMib
               && a.temperatureC == b.temperatureC && a.powerDrawW == b.powerDrawW && a.name == b.name
               && a.gpm.smActivity == b.gpm.smActivity && a.gpm.tensorActivity == b.gpm.tensorActivity
               && a.gpm.smOccupancy == b.gpm.smOccupancy && a.gpm.dramActivity == b.gpm.dramActivity;
    }
    if (same) {
        return;
    }
    const bool resized = gpus.size() != m_gpus.size();
    m_gpus = gpus;
    if (resized) {
        updateGeometry();
    }
    update();
}

int GpuNowPanel::rowHeight() const
{
    return fontMetrics().height() + 6;
}

QSize GpuNowPanel::sizeHint() const
{
    return QSize(720, m_gpus.isEmpty() ? 0 : int(m_gpus.size() + 1) * rowHeight() + 2);
}

QSize GpuNowPanel::minimumSizeHint() const
{
    return QSize(420, sizeHint().height());
}

bool GpuNowPanel::showsGpm() const
{
    return std::any_of(m_gpus.cbegin(), m_gpus.cend(), [](const GpuSample &g) { return g.gpm.any(); });
}

GpuNowPanel::Columns GpuNowPanel::columnsFor(const QRect &row) const
{
    const QFontMetrics fm = fontMetrics();
    Columns c;
    const int labelW = fm.horizontalAdvance(tr("GPU %1").arg(88)) + 18;
    const int tempW = fm.horizontalAdvance(QStringLiteral("100 °C")) + kPad * 2;
    const int utilW = qMax(fm.horizontalAdvance(QStringLiteral("100 %")) + 2 * kPad, row.width() / 6);
    const int memW = qMax(fm.horizontalAdvance(QStringLiteral("79.6 / 79.6 GiB")) + 2 * kPad, row.width() / 4);
    const int powerW = qMax(fm.horizontalAdvance(QStringLiteral("700 / 700 W")) + 2 * kPad, row.width() / 5);
    const int gpmW = showsGpm() ? qMax(fm.horizontalAdvance(tr("SM · Tensor")), fm.horizontalAdvance(tr("%1 % · %2 %").arg(100).arg(100))) + 2 * kPad : 0;
    int x = row.left();
    c.label = QRect(x, row.top(), labelW, row.height());
    x += labelW;
    const int nameW = qMax(0, row.width() - labelW - utilW - gpmW - memW - tempW - powerW - (gpmW > 0 ? 5 : 4) * kPad);
    c.name = QRect(x, row.top(), nameW, row.height());
    x += nameW + kPad;
    c.util = QRect(x, row.top() + 2, utilW, row.height() - 4);
    x += utilW + kPad;
    if (gpmW > 0) {
        c.gpm = QRect(x, row.top() + 2, gpmW, row.height() - 4);
        x += gpmW + kPad;
    }
    c.memory = QRect(x, row.top() + 2, memW, row.height() - 4);
    x += memW + kPad;
    c.temperature = QRect(x, row.top(), tempW, row.height());
    x += tempW + kPad;
    c.power = QRect(x, row.top() + 2, powerW, row.height() - 4);
    return c;
}

QStringList GpuNowPanel::rowTexts(int row) const
{
    const GpuSample &g = m_gpus.at(row);
    return {tr("GPU %1").arg(g.index), text::printable(g.name), number(g.utilizationGpu) + QStringLiteral(" %"), memoryText(g),
            g.temperatureC ? number(g.temperatureC) + QStringLiteral(" °C") : tr("n/a"), powerText(g), gpmText(g)};
}

QStringList GpuNowPanel::elidedTexts() const
{
    QStringList elided;
    const QFontMetrics fm = fontMetrics();
    for (int i = 0; i < m_gpus.size(); ++i) {
        const Columns c = columnsFor(QRect(0, 0, width(), rowHeight()));
        const QStringList t = rowTexts(i);
        const QList<QRect> cells{c.label, c.util, c.memory, c.temperature, c.power, c.gpm};
        const QList<int> which{0, 2, 3, 4, 5, 6};
        for (int k = 0; k < cells.size(); ++k) {
            if (cells.at(k).isEmpty())
                continue;
            if (fm.horizontalAdvance(t.at(which.at(k))) > cells.at(k).width() - (k == 0 ? 16 : 4)) {
                elided.append(t.at(which.at(k)));
            }
        }
    }
    return elided;
}

void GpuNowPanel::paintBar(QPainter &painter, const QRect &rect, std::optional<double> fraction, const QString &text) const
{
    painter.setPen(Qt::NoPen);
    painter.setBrush(palette().alternateBase());
    painter.drawRect(rect);
    if (fraction) {
        QColor fill = palette().color(QPalette::Highlight);
        fill.setAlpha(*fraction > 0.9 ? 200 : 130);
        painter.setBrush(fill);
        painter.drawRect(QRect(rect.left(), rect.top(), int(rect.width() * *fraction), rect.height()));
    }
    painter.setBrush(Qt::NoBrush);
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(rect.adjusted(0, 0, -1, -1));
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(rect, Qt::AlignCenter, text);
}

void GpuNowPanel::paintEvent(QPaintEvent *)
{
    if (m_gpus.isEmpty()) {
        return;
    }
    QPainter painter(this);
    const int h = rowHeight();
    const QColor dim = palette().color(QPalette::PlaceholderText);
    const Columns head = columnsFor(QRect(0, 0, width(), h));
    painter.setPen(dim);
    painter.drawText(head.util, Qt::AlignCenter, tr("Utilization"));
    if (!head.gpm.isEmpty())
        painter.drawText(head.gpm, Qt::AlignCenter, tr("SM · Tensor"));
    painter.drawText(head.memory, Qt::AlignCenter, tr("Memory"));
    painter.drawText(head.temperature, Qt::AlignCenter, tr("Temp."));
    painter.drawText(head.power, Qt::AlignCenter, tr("Power"));
    for (int i = 0; i < m_gpus.size(); ++i) {
        const GpuSample &g = m_gpus.at(i);
        const Columns c = columnsFor(QRect(0, (i + 1) * h, width(), h));
        const QStringList t = rowTexts(i);
        painter.fillRect(QRect(c.label.left() + 2, c.label.center().y() - 5, 10, 10), ChartScale::gpuColor(g.index));
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(c.label.adjusted(16, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, t.at(0));
        painter.setPen(dim);
        painter.drawText(c.name, Qt::AlignLeft | Qt::AlignVCenter, fontMetrics().elidedText(t.at(1), Qt::ElideRight, c.name.width()));
        paintBar(painter, c.util, g.utilizationGpu ? std::optional<double>(qBound(0.0, *g.utilizationGpu / 100.0, 1.0)) : std::nullopt, t.at(2));
        if (!c.gpm.isEmpty())
            paintBar(painter, c.gpm, g.gpm.smActivity ? std::optional<double>(qBound(0.0, *g.gpm.smActivity / 100.0, 1.0)) : std::nullopt, t.at(6));
        paintBar(painter, c.memory, ratio(g.memoryUsedMib, g.memoryTotalMib), t.at(3));
        painter.setPen(g.temperatureC.value_or(0) >= 85 ? QColor(0xd3, 0x2f, 0x2f) : palette().color(QPalette::Text));
        painter.drawText(c.temperature, Qt::AlignCenter, t.at(4));
        paintBar(painter, c.power, ratio(g.powerDrawW, g.powerLimitW), t.at(5));
    }
}

// The GPU's full name and UUID on hover (the name column may be cut short).
bool GpuNowPanel::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const int row = help->pos().y() / rowHeight() - 1;
        if (row >= 0 && row < m_gpus.size()) {
            const GpuSample &g = m_gpus.at(row);
            QString tip = text::printable(g.name + QLatin1Char('\n') + g.uuid);
            if (g.gpm.any())
                tip += QLatin1Char('\n') + gpmTip(g);
            QToolTip::showText(help->globalPos(), tip, this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace gantry::ui::monitor
