// SPDX-License-Identifier: Apache-2.0
#include "core/monitor/throttlelog.h"

#include "core/monitor/monitortext.h"

#include <QStringList>

namespace gantry::monitor {

void ThrottleLog::add(const MachineSample &sample)
{
    const qint64 t = sample.time.toMSecsSinceEpoch();
    quint64 mask = 0;
    QList<int> gpus;
    for (const GpuSample &g : sample.gpus) {
        if (g.clocksEventReasons && (*g.clocksEventReasons & kSlowdownMask)) {
            mask |= *g.clocksEventReasons & kSlowdownMask;
            gpus.append(g.index);
        }
    }
    const bool continues = m_open && t - m_lastMs <= kMaxGapMs;
    m_lastMs = t;
    if (mask == 0) {
        m_open = false;
        return;
    }
    if (continues && m_spans.last().reasons == mask && m_spans.last().gpus == gpus) {
        m_spans.last().toMs = t;
        return;
    }
    if (m_spans.size() == kCapacity) {
        m_spans.removeFirst();
    }
    m_spans.append(Span{t, t, mask, gpus});
    m_open = true;
}

QList<ThrottleLog::Span> ThrottleLog::spans(qint64 sinceMs) const
{
    QList<Span> out;
    for (const Span &s : m_spans) {
        if (s.toMs >= sinceMs) {
            out.append(s);
        }
    }
    return out;
}

QString ThrottleLog::describe(quint64 reasons)
{
    QStringList names;
    if (reasons & reasons::SwPowerCap) {
        names.append(MonitorText::tr("power cap (software)"));
    }
    if (reasons & reasons::HwSlowdown) {
        names.append(MonitorText::tr("hardware slowdown"));
    }
    if (reasons & reasons::SwThermalSlowdown) {
        names.append(MonitorText::tr("thermal slowdown (software)"));
    }
    if (reasons & reasons::HwThermalSlowdown) {
        names.append(MonitorText::tr("thermal slowdown (hardware)"));
    }
    if (reasons & reasons::HwPowerBrakeSlowdown) {
        names.append(MonitorText::tr("power brake (hardware)"));
    }
    return names.join(QStringLiteral(", "));
}

} // namespace gantry::monitor
