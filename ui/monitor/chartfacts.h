// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/monitor/metricstore.h"
#include "core/monitor/usagemeter.h"
#include "ui/monitor/metricchart.h"

#include <QCoreApplication>

namespace gantry::ui::monitor {

// What the Monitor's charts say beyond the measured lines, so a reading cannot mislead: the
// power limit and the maximum SM clock as dashed lines (a GPU at 300 W of 700 is not "busy"),
// the stretches when the GPUs were throttled and why, and the machine's energy and the money
// spent while its GPUs were mostly idle.
class ChartFacts
{
    Q_DECLARE_TR_FUNCTIONS(gantry::ui::monitor::ChartFacts)

public:
    struct Decoration
    {
        QList<MetricChart::Line> references; // dashed
        QString note;                        // after the chart's title
        QList<MetricChart::Band> bands;      // throttled spans
    };
    // For the chart of `metric` (GPU power and SM clock get one; others nothing).
    static Decoration forMetric(gantry::monitor::Metric metric, const gantry::monitor::MetricStore &store,
                                qint64 fromMs, qint64 toMs);
    // "Energy 12.34 kWh · under 30 % GPU utilization 1 h 5 min, $2.71" ("" before any sample).
    static QString usageText(const gantry::monitor::UsageMeter *usage);
    static QString formatDuration(double seconds);
};

} // namespace gantry::ui::monitor
