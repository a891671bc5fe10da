#pragma once

#include <QList>
#include <QPair>

namespace gantry::transfer {

// Current speed as a sliding window over the last ~10 s (WinSCP's approach): one sample per
// add(); resumed bytes are not added, so they never inflate the speed.
class SpeedMeter final
{
public:
    void add(qint64 monotonicMs, quint64 cumulativeBytes);
    void reset() { m_samples.clear(); }
    double bytesPerSecond() const;
    // Seconds left for `remaining` bytes; -1 when unknown (no speed yet).
    qint64 etaSeconds(quint64 remaining) const { return eta(remaining, bytesPerSecond()); }
    // The one rounding (up) for every "time left": a row and the queue's total agree.
    static qint64 eta(quint64 remaining, double bytesPerSecond);

private:
    QList<QPair<qint64, quint64>> m_samples;
};

} // namespace gantry::transfer
