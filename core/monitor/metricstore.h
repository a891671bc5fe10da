#pragma once

#include "core/monitor/samples.h"
#include "core/monitor/throttlelog.h"
#include "core/util/result.h"

#include <QHash>
#include <QList>
#include <QPointF>
#include <QString>

#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

class QIODevice;

namespace gantry::monitor {

enum class Metric
{
    // per GPU
    GpuUtilization,
    GpuMemoryUtilization,
    GpuMemoryUsedMib,
    GpuTemperature,
    GpuPower,
    GpuSmClock,
    // host (gpu index -1)
    HostCpu,
    HostCpuMaxCore,
    HostMemoryUsedPercent,
    HostLoad1,
    HostNetRx,
    HostNetTx,
    HostDiskRead,
    HostDiskWrite,
};
QString metricName(Metric metric); // stable, for CSV headers ("gpu_utilization", …)

struct SeriesKey
{
    int gpu = -1; // -1: host metric
    Metric metric = Metric::HostCpu;
    bool operator==(const SeriesKey &) const = default;
};
inline size_t qHash(const SeriesKey &key, size_t seed = 0)
{
    return ::qHash(key.gpu * 64 + int(key.metric), seed);
}

// Every machine keeps the last 10 minutes at 1 s (the default chart, shown at once when the user
// switches machines) and 48 h at 2 min; the 3 h chart's 10 s ring, the largest, is kept only while
// a chart shows the machine (MetricStore::setDetailed).
enum class Resolution
{
    Seconds1,  // 1 s × 600   = 10 min, every machine
    Seconds10, // 10 s × 1080 = 3 h, detailed machines only
    Minutes2,  // 120 s × 1440 = 48 h, every machine
};
inline constexpr int kResolutionCount = 3;
qint64 resolutionBucketMs(Resolution r);
int resolutionCapacity(Resolution r);

// A fixed ring of time buckets on a regular grid: bucket b covers [b·width, (b+1)·width). Missing
// buckets (a stalled host) hold NaN, so gaps stay gaps and time needs no storage. Capacity is
// allocated once: memory never grows, however long it runs.
class BucketRing final
{
public:
    BucketRing(qint64 bucketMs, int capacity, bool withMinMax);

    // Completed bucket value. Buckets older than the newest are ignored.
    void put(qint64 bucket, float min, float avg, float max);
    struct Point
    {
        qint64 tMs;
        float min, avg, max;
    };
    // Points with a value, oldest first, no older than sinceMs.
    void forEach(qint64 sinceMs, const std::function<void(const Point &)> &fn) const;
    int capacity() const { return m_capacity; }
    qint64 newestBucket() const { return m_newest; }
    // Time of the oldest bucket still in the ring; max() when empty.
    qint64 oldestMs() const;
    size_t memoryBytes() const;

private:
    qint64 m_bucketMs;
    int m_capacity;
    bool m_minMax;
    qint64 m_newest = std::numeric_limits<qint64>::min();
    qint64 m_first = std::numeric_limits<qint64>::max(); // first bucket ever put
    std::vector<float> m_avg;
    std::vector<float> m_min;
    std::vector<float> m_max;
};

// The history of one machine: every metric of every GPU and of the host. Every machine keeps
// 10 min at 1 s and 48 h at 2 min (min/avg/max of the raw samples in each bucket); a machine a
// chart shows is "detailed" and also keeps 3 h at 10 s (min/avg/max). A fleet of 64 machines × 8
// GPUs then holds about 1.1 MiB per machine instead of 2.7, in fixed-size rings (qBittorrent's
// speed graph keeps its resolutions the same way). Owned by the GUI thread.
class MetricStore final
{
public:
    explicit MetricStore(QString host);
    ~MetricStore();
    Q_DISABLE_COPY_MOVE(MetricStore)

    const QString &host() const { return m_host; }
    // Detail on: the 10 s ring is allocated and filled from the next sample. Off: it is freed. points() at a chart resolution falls back to the 2 min history for the time
    // before detail began, so a chart opened late still shows the past, coarser.
    void setDetailed(bool on);
    bool detailed() const { return m_detailed; }
    void add(const MachineSample &sample);
    void addValue(SeriesKey key, qint64 tMs, double value);

    QList<SeriesKey> keys() const { return m_order; }
    bool has(SeriesKey key) const { return m_series.contains(key); }
    QList<int> gpuIndexes() const;
    QString gpuName(int index) const { return m_gpuNames.value(index); }
    std::optional<double> latest(SeriesKey key) const;
    const std::optional<MachineSample> &latestSample() const { return m_latest; }
    // When the GPUs were slowed down and why (charts shade these spans).
    const ThrottleLog &throttle() const { return m_throttle; }

    enum class Aggregate { Min, Avg, Max };
    // x: ms since epoch, y: value. Only points at or after sinceMs. At Seconds1/Seconds10 the time
    // before the ring's oldest bucket (or all of it, for Seconds10 on a machine without detail)
    // comes from the 2 min history.
    QList<QPointF> points(SeriesKey key, Resolution resolution, qint64 sinceMs = 0,
                          Aggregate aggregate = Aggregate::Avg) const;
    // The same, into a caller-kept buffer (no allocation once it is large enough).
    void points(SeriesKey key, Resolution resolution, qint64 sinceMs, QList<QPointF> &out,
                Aggregate aggregate = Aggregate::Avg) const;

    // One row per bucket: time, then min/avg/max (avg only at 1 s) of every series.
    Result<void> exportCsv(QIODevice *device, Resolution resolution) const;

    size_t memoryBytes() const;

private:
    struct Accumulator
    {
        qint64 bucket = std::numeric_limits<qint64>::min();
        double sum = 0;
        float min = 0, max = 0;
        int count = 0;
    };
    struct Series
    {
        explicit Series(bool detailed);
        void setDetailed(bool on);
        // Seconds10 only while detailed; Seconds1 and Minutes2 always.
        std::array<std::optional<BucketRing>, kResolutionCount> rings;
        std::array<Accumulator, kResolutionCount> acc;
        double latest = std::nan("");
    };
    Series &series(SeriesKey key);
    void forEachPoint(const Series &s, Resolution resolution, qint64 sinceMs,
                      const std::function<void(const BucketRing::Point &)> &fn) const;

    QString m_host;
    QHash<SeriesKey, Series *> m_series;
    QList<SeriesKey> m_order;
    QHash<int, QString> m_gpuNames;
    std::optional<MachineSample> m_latest;
    ThrottleLog m_throttle;
    bool m_detailed = true; // standalone stores (tests, CLI) keep everything; MonitorService decides
};

} // namespace gantry::monitor
