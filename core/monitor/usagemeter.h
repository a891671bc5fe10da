// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/monitor/samples.h"

#include <QString>

#include <optional>

namespace gantry::monitor {

// What a machine's GPUs used and what that cost, integrated sample by sample since monitoring
// began: energy from the summed power draw, and the money spent while the GPUs were mostly idle
// (mean utilization under 30 %: the machine was paid for and did little). A gap longer than
// kMaxGapMs (the host stalled, the link dropped) is not integrated: nobody knows what happened
// in it, and guessing would overstate both figures.
class UsageMeter final
{
public:
    static constexpr double kUnderusedPercent = 30;
    static constexpr qint64 kMaxGapMs = 10'000;

    // maxGapMs: the longest interval still integrated (a managed run polls less often than the
    // monitor samples).
    explicit UsageMeter(qint64 maxGapMs = kMaxGapMs) : m_maxGapMs(maxGapMs) {}

    // hourlyPriceUsd: what the machine bills now (0: unknown, no money is counted).
    void add(const MachineSample &sample, double hourlyPriceUsd);

    double energyKwh() const { return m_energyWh / 1000.0; }
    double meteredSeconds() const { return m_meteredMs / 1000.0; }
    double underusedSeconds() const { return m_underusedMs / 1000.0; }
    // How long the GPUs' utilization was known (what underusedUsd() can speak for).
    double observedSeconds() const { return m_observedMs / 1000.0; }
    double underusedUsd() const { return m_underusedUsd; }
    // Whether any sample had a power reading / a price: "unknown" must not read as 0.
    bool hasPower() const { return m_hasPower; }
    bool hasPrice() const { return m_hasPrice; }

    // "12.3 kWh", "0.042 kWh".
    static QString formatKwh(double kwh);

private:
    qint64 m_maxGapMs;
    qint64 m_lastMs = -1;
    std::optional<double> m_lastPowerW;
    std::optional<double> m_lastUtilization;
    double m_lastPrice = 0;
    double m_energyWh = 0;
    qint64 m_meteredMs = 0;
    qint64 m_underusedMs = 0;
    qint64 m_observedMs = 0;
    double m_underusedUsd = 0;
    bool m_hasPower = false;
    bool m_hasPrice = false;
};

} // namespace gantry::monitor
