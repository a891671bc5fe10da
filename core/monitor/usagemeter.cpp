// SPDX-License-Identifier: Apache-2.0
#include "core/monitor/usagemeter.h"

namespace gantry::monitor {

namespace {

std::optional<double> totalPower(const MachineSample &sample)
{
    std::optional<double> sum;
    for (const GpuSample &g : sample.gpus) {
        if (g.powerDrawW) {
            sum = sum.value_or(0) + *g.powerDrawW;
        }
    }
    return sum;
}

std::optional<double> meanUtilization(const MachineSample &sample)
{
    double sum = 0;
    int n = 0;
    for (const GpuSample &g : sample.gpus) {
        if (g.utilizationGpu) {
            sum += *g.utilizationGpu;
            ++n;
        }
    }
    return n > 0 ? std::optional<double>(sum / n) : std::nullopt;
}

} // namespace

// The interval since the previous sample is charged at the previous sample's values (what the
// machine was doing during it).
void UsageMeter::add(const MachineSample &sample, double hourlyPriceUsd)
{
    const qint64 t = sample.time.toMSecsSinceEpoch();
    if (m_lastMs >= 0 && t > m_lastMs && t - m_lastMs <= m_maxGapMs) {
        const qint64 dt = t - m_lastMs;
        if (m_lastPowerW) {
            m_energyWh += *m_lastPowerW * double(dt) / 3'600'000.0;
            m_meteredMs += dt;
        }
        if (m_lastUtilization)
            m_observedMs += dt;
        if (m_lastUtilization && *m_lastUtilization < kUnderusedPercent) {
            m_underusedMs += dt;
            m_underusedUsd += m_lastPrice * double(dt) / 3'600'000.0;
        }
    }
    if (t > m_lastMs) {
        m_lastMs = t;
        m_lastPowerW = totalPower(sample);
        m_lastUtilization = meanUtilization(sample);
        m_lastPrice = hourlyPriceUsd;
        m_hasPower = m_hasPower || m_lastPowerW.has_value();
        m_hasPrice = m_hasPrice || hourlyPriceUsd > 0;
    }
}

QString UsageMeter::formatKwh(double kwh)
{
    return QString::number(kwh, 'f', kwh < 1 ? 3 : kwh < 100 ? 2 : 1) + QStringLiteral(" kWh");
}

} // namespace gantry::monitor
