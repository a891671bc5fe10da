#pragma once

#include "core/monitor/samples.h"
#include "core/util/result.h"

#include <QHash>
#include <QList>
#include <QPointF>
#include <QString>

#include <array>
#include <cmath>
#include <functional>
#include <limits>
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

enum class Resolution
{
    Seconds1,  // 1 s × 600   = 10 min
    Seconds10, // 10 s × 1080 = 3 h
    Minutes1,  // 60 s × 2880 = 48 h
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
    size_t memoryBytes() const;

private:
    qint64 m_bucketMs;
    int m_capacity;
    bool m_minMax;
    qint64 m_newest = std::numeric_limits<qint64>::min();
    std::vector<float> m_avg;
    std::vector<float> m_min;
    std::vector<float> m_max;
};

// The history of one machine: every metric of every GPU and of the host at three resolutions
// (1 s for 10 min, 10 s for 3 h, 1 min for 48 h; the coarse ones keep min/avg/max of the raw
// samples in their bucket). Owned by the GUI thread.
class MetricStore final
{
public:
    explicit MetricStore(QString host);
    ~MetricStore();
    Q_DISABLE_COPY_MOVE(MetricStore)

    const QString &host() const { return m_host; }
    void add(const MachineSample &sample);
    void addValue(SeriesKey key, qint64 tMs, double value);

    QList<SeriesKey> keys() const { return m_order; }
    bool has(SeriesKey key) const { return m_series.contains(key); }
    QList<int> gpuIndexes() const;
    QString gpuName(int index) const { return m_gpuNames.value(index); }
    std::optional<double> latest(SeriesKey key) const;
    const std::optional<MachineSample> &latestSample() const { return m_latest; }

    enum class Aggregate { Min, Avg, Max };
    // x: ms since epoch, y: value. Only points at or after sinceMs.
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
        Series();
        std::array<BucketRing, kResolutionCount> rings;
        std::array<Accumulator, kResolutionCount> acc;
        double latest = std::nan("");
    };
    Series &series(SeriesKey key);

    QString m_host;
    QHash<SeriesKey, Series *> m_series;
    QList<SeriesKey> m_order;
    QHash<int, QString> m_gpuNames;
    std::optional<MachineSample> m_latest;
};

} // namespace gantry::monitor
