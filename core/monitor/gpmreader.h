// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/monitor/samples.h"

#include <QHash>
#include <QString>
#include <QStringList>

namespace gantry::monitor {

// The metrics the stream asks `nvidia-smi dmon --gpm-metrics` for, in its order.
inline constexpr const char *kGpmMetricIds = "2,3,5,10";

// Reads `nvidia-smi dmon --gpm-metrics …` as it prints: a "# gpu …" header naming the columns
// (driver-dependent: found by name, never by position), a "# Idx …" units line, then one row per
// GPU per second, "-" where a metric has no value (not supported, or not measured yet). Anything
// else is nvidia-smi's own words: kept as the reason when dmon ends without a row, as it does on
// a GPU or driver without GPM ("Not supported on the device(s)").
class GpmReader final
{
public:
    // `nowMs`: a monotonic clock, so a row that stops coming is not shown as the current one.
    void line(const QString &text, qint64 nowMs = 0);
    // dmon ended: without a single row, GPM is not available and reason() says why.
    void ended();

    const QHash<int, GpmValues> &latest() const { return m_latest; } // by GPU index
    // A GPU's values, or none once its last row is older than kStaleMs (dmon stalled, the GPU
    // fell off the bus): never the last second's figures shown as the present.
    GpmValues current(int gpu, qint64 nowMs) const;
    static constexpr qint64 kStaleMs = 5000;
    bool available() const { return m_valueRows > 0 && !m_ended; }
    // dmon ended, or kept printing rows of "-" only (past the first seconds it needs), before
    // any value came: GPM is not there to show, and reason() says what nvidia-smi said.
    bool unavailable() const;
    QString reason() const;

    // Rows of "-" only in a row before a GPU counts as reporting none (dmon prints one or two
    // such rows while its first measurement runs).
    static constexpr int kEmptyRowsBeforeUnavailable = 5;

private:
    QStringList m_columns; // lower case, "gpu" first
    QHash<int, GpmValues> m_latest;
    QHash<int, int> m_emptyRows;
    QHash<int, qint64> m_seenAt;
    int m_valueRows = 0;
    bool m_ended = false;
    QString m_message;
};

} // namespace gantry::monitor
