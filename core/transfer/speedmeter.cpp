#include "core/transfer/speedmeter.h"

#include <cmath>

namespace gantry::transfer {

namespace {
constexpr qint64 kWindowMs = 10000;
}

void SpeedMeter::add(qint64 monotonicMs, quint64 cumulativeBytes)
{
    if (!m_samples.isEmpty() && cumulativeBytes < m_samples.last().second) m_samples.clear();
    m_samples.append({monotonicMs, cumulativeBytes});
    while (m_samples.size() > 2 && m_samples.first().first < monotonicMs - kWindowMs) m_samples.removeFirst();
}

double SpeedMeter::bytesPerSecond() const
{
    if (m_samples.size() < 2) return 0;
    const qint64 dt = m_samples.last().first - m_samples.first().first;
    if (dt <= 0) return 0;
    return double(m_samples.last().second - m_samples.first().second) * 1000.0 / double(dt);
}

qint64 SpeedMeter::eta(quint64 remaining, double speed)
{
    if (speed <= 1) return remaining == 0 ? 0 : -1;
    return qint64(std::ceil(double(remaining) / speed));
}

} // namespace gantry::transfer
