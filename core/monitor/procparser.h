#pragma once

#include "core/monitor/samples.h"

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace gantry::monitor {

// Turns consecutive /proc snapshots into host metrics. The remote loop sends, once per interval,
// /proc/uptime (the clock rates are computed against, immune to network jitter), the cpu lines of
// /proc/stat, MemTotal/MemAvailable, /proc/loadavg, /proc/net/dev and /proc/diskstats. Rates need
// two snapshots: the first one yields memory and load only.
class ProcParser final
{
public:
    void begin(double uptimeSeconds);
    void addStatLine(const QString &line);      // "cpu  …", "cpu3 …"
    void addMeminfoLine(const QString &line);   // "MemTotal:  16314144 kB"
    void addLoadavgLine(const QString &line);   // "0.52 0.58 0.59 1/467 12345"
    void addNetDevLine(const QString &line);    // "  eth0: 1234 …"
    void addDiskstatsLine(const QString &line); // "   8       0 sda 1234 …"
    HostMetrics finish();

    // Whole disks only: partitions and virtual devices would count the same bytes twice.
    static bool isWholeDisk(const QString &name);

private:
    struct CpuTimes
    {
        quint64 busy = 0;
        quint64 total = 0;
        quint64 iowait = 0;
    };
    struct Snapshot
    {
        double uptime = 0;
        std::optional<CpuTimes> all;
        QList<CpuTimes> cores;
        std::optional<quint64> netRx, netTx, diskRead, diskWrite; // bytes
    };

    Snapshot m_current;
    std::optional<Snapshot> m_previous;
    HostMetrics m_metrics;
};

} // namespace gantry::monitor
