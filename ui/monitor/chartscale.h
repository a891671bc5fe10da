#pragma once

#include <QColor>
#include <QCoreApplication>
#include <QList>
#include <QString>

namespace gantry::ui::monitor {

// Axis arithmetic of the monitor charts, apart from the widgets so it can be tested exactly:
// y ticks on "nice" numbers (1, 2, 2.5, 5 × 10^k) and time ticks as "-10 min … now".
class ChartScale
{
    Q_DECLARE_TR_FUNCTIONS(gantry::ui::monitor::ChartScale)

public:
    struct ValueAxis
    {
        double max = 1;
        double step = 1;
        int decimals = 0; // enough to tell neighbouring ticks apart
    };
    // 0 … a nice number ≥ maxValue, in at most maxTicks steps.
    static ValueAxis niceAxis(double maxValue, int maxTicks = 5);

    struct TimeTick
    {
        double offsetSeconds = 0; // ≤ 0: seconds before the newest sample
        QString label;            // "now", "-30 s", "-5 min", "-3 h"
    };
    // Ticks over the last spanSeconds, the step the smallest round one that keeps the number of
    // labels at most maxLabels.
    static QList<TimeTick> timeTicks(double spanSeconds, int maxLabels);
    // The widest label timeTicks() can produce, for measuring.
    static QString widestTimeLabel();

    struct RateUnit
    {
        double divisor = 1; // bytes per second / divisor = shown value
        QString unit;       // "B/s", "KB/s", "MB/s", "GB/s" (1024-based, as file sizes are shown)
    };
    // The unit that keeps the largest rate shown between 1 and 1024 (B/s below 1 KB/s).
    static RateUnit rateUnit(double maxBytesPerSecond);

    // One colour per GPU, the same in every chart, the current-values panel and the fleet view.
    static QColor gpuColor(int index);
    // The translucent shade behind a chart while the GPUs were throttled.
    static QColor throttleColor() { return QColor(230, 126, 34, 60); }
};

} // namespace gantry::ui::monitor
