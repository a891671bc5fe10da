#include "ui/monitor/chartscale.h"

#include <array>
#include <cmath>

namespace gantry::ui::monitor {

ChartScale::ValueAxis ChartScale::niceAxis(double maxValue, int maxTicks)
{
    ValueAxis axis;
    maxTicks = qMax(1, maxTicks);
    if (!(maxValue > 0) || !std::isfinite(maxValue)) {
        return axis; // 0 … 1
    }
    const double raw = maxValue / maxTicks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    static constexpr std::array<double, 5> factors{1, 2, 2.5, 5, 10};
    double step = 10 * magnitude;
    for (double f : factors) {
        if (f * magnitude >= raw) {
            step = f * magnitude;
            break;
        }
    }
    axis.step = step;
    axis.max = std::ceil(maxValue / step - 1e-9) * step;
    // The fewest decimals that show the step exactly (2.5 needs one, 0.25 two).
    while (axis.decimals < 3) {
        const double scaled = step * std::pow(10.0, axis.decimals);
        if (std::abs(scaled - std::round(scaled)) < 1e-6) {
            break;
        }
        ++axis.decimals;
    }
    return axis;
}

QList<ChartScale::TimeTick> ChartScale::timeTicks(double spanSeconds, int maxLabels)
{
    static constexpr std::array<int, 16> steps{10, 15, 20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400};
    maxLabels = qMax(2, maxLabels);
    int step = steps.back();
    for (int s : steps) {
        if (spanSeconds / s + 1 <= maxLabels + 1e-9) {
            step = s;
            break;
        }
    }
    QList<TimeTick> ticks;
    for (int k = 0; k * step <= spanSeconds + 1e-6; ++k) {
        const int seconds = k * step;
        QString label;
        if (seconds == 0) {
            label = tr("now");
        } else if (step < 60) {
            label = tr("-%1 s").arg(seconds);
        } else if (step < 3600) {
            label = tr("-%1 min").arg(seconds / 60);
        } else {
            label = tr("-%1 h").arg(seconds / 3600);
        }
        ticks.prepend({-double(seconds), label});
    }
    return ticks;
}

QString ChartScale::widestTimeLabel()
{
    return tr("-%1 min").arg(55);
}

ChartScale::RateUnit ChartScale::rateUnit(double maxBytesPerSecond)
{
    static const std::array<const char *, 4> units{QT_TR_NOOP("B/s"), QT_TR_NOOP("KB/s"), QT_TR_NOOP("MB/s"), QT_TR_NOOP("GB/s")};
    RateUnit unit;
    size_t step = 0;
    while (step + 1 < units.size() && maxBytesPerSecond >= unit.divisor * 1024) {
        unit.divisor *= 1024;
        ++step;
    }
    unit.unit = tr(units.at(step));
    return unit;
}

QColor ChartScale::gpuColor(int index)
{
    // Distinct on light and dark backgrounds (Tableau 10).
    static constexpr std::array<QRgb, 10> colors{0x4e79a7, 0xf28e2b, 0x59a14f, 0xe15759, 0x76b7b2,
                                                 0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};
    return QColor::fromRgb(colors.at(size_t(qMax(0, index)) % colors.size()));
}

} // namespace gantry::ui::monitor
