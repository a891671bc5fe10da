// SPDX-License-Identifier: Apache-2.0
#include "ui/monitor/chartfacts.h"

#include "core/monitor/throttlelog.h"

#include <algorithm>

namespace gantry::ui::monitor {

using gantry::monitor::GpuSample;
using gantry::monitor::Metric;

namespace {

// The highest reference over the GPUs (they normally share one; a lowered limit on one GPU
// shows on its own power line).
std::optional<double> highest(const QList<GpuSample> &gpus, std::optional<double> GpuSample::*field)
{
    std::optional<double> best;
    for (const GpuSample &g : gpus) {
        if (const auto &v = g.*field) {
            best = std::max(best.value_or(*v), *v);
        }
    }
    return best;
}

} // namespace

ChartFacts::Decoration ChartFacts::forMetric(Metric metric, const gantry::monitor::MetricStore &store, qint64 fromMs,
                                             qint64 toMs)
{
    Decoration d;
    if (metric != Metric::GpuPower && metric != Metric::GpuSmClock) {
        return d;
    }
    const auto &latest = store.latestSample();
    const bool power = metric == Metric::GpuPower;
    const auto reference = latest ? highest(latest->gpus, power ? &GpuSample::powerLimitW : &GpuSample::smClockMaxMhz)
                                  : std::nullopt;
    if (reference) {
        const QString value = QString::number(*reference, 'f', 0);
        d.note = power ? tr("limit %1 W").arg(value) : tr("max %1 MHz").arg(value);
        d.references.append({power ? tr("power limit") : tr("maximum SM clock"),
                             {QPointF(double(fromMs), *reference), QPointF(double(toMs), *reference)}, {}, true});
    }
    for (const auto &span : store.throttle().spans(fromMs)) {
        QStringList gpus;
        for (int gpu : span.gpus) {
            gpus.append(QString::number(gpu));
        }
        d.bands.append({span.fromMs, span.toMs,
                        tr("Clocks held back: %1 (GPU %2)")
                            .arg(gantry::monitor::ThrottleLog::describe(span.reasons), gpus.join(QStringLiteral(", ")))});
    }
    return d;
}

QString ChartFacts::formatDuration(double seconds)
{
    const qint64 minutes = qint64(seconds / 60);
    if (minutes < 60) {
        return tr("%1 min").arg(minutes);
    }
    return tr("%1 h %2 min").arg(minutes / 60).arg(minutes % 60);
}

QString ChartFacts::usageText(const gantry::monitor::UsageMeter *usage)
{
    if (!usage || usage->meteredSeconds() <= 0) {
        return {};
    }
    const QString energy = usage->hasPower() ? gantry::monitor::UsageMeter::formatKwh(usage->energyKwh())
                                             : tr("not reported by the driver");
    const QString idle = formatDuration(usage->underusedSeconds());
    const QString money = usage->hasPrice() ? QStringLiteral("$%1").arg(usage->underusedUsd(), 0, 'f', 2)
                                            : tr("price unknown");
    return tr("Energy since monitoring began: %1 · GPUs under 30 % utilization: %2 (%3)").arg(energy, idle, money);
}

} // namespace gantry::ui::monitor
