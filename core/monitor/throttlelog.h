// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/monitor/samples.h"

#include <QList>
#include <QString>

#include <limits>

namespace gantry::monitor {

// When a machine's GPUs ran slower than they could, and why: the spans during which a clock-event
// reason that costs speed was active (power cap, thermal and hardware slowdown, power brake; not
// "idle" or an application clock setting). A fixed number of spans, the oldest dropped, so a
// machine that throttles all day holds no more than one that never does.
class ThrottleLog final
{
public:
    static constexpr int kCapacity = 256;
    static constexpr qint64 kMaxGapMs = 10'000; // a longer silence ends a span
    // The reasons that mean lost speed.
    static constexpr quint64 kSlowdownMask = reasons::SwPowerCap | reasons::HwSlowdown | reasons::SwThermalSlowdown
                                             | reasons::HwThermalSlowdown | reasons::HwPowerBrakeSlowdown;

    struct Span
    {
        qint64 fromMs = 0;
        qint64 toMs = 0;     // the last sample that still had these reasons
        quint64 reasons = 0; // kSlowdownMask bits, any GPU
        QList<int> gpus;     // GPU indexes that had one of them
    };

    void add(const MachineSample &sample);
    // Spans that end at or after sinceMs, oldest first.
    QList<Span> spans(qint64 sinceMs = std::numeric_limits<qint64>::min()) const;

    // "power cap (software), thermal slowdown (hardware)": translated, for a tooltip.
    static QString describe(quint64 reasons);

private:
    QList<Span> m_spans; // at most kCapacity
    bool m_open = false; // the newest span is still going
    qint64 m_lastMs = std::numeric_limits<qint64>::min();
};

} // namespace gantry::monitor
