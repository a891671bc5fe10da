#include "core/monitor/metricstore.h"

#include <QIODevice>
#include <QTextStream>

#include <algorithm>
#include <map>

namespace gantry::monitor {

QString metricName(Metric metric)
{
    switch (metric) {
    case Metric::GpuUtilization: return QStringLiteral("utilization_gpu");
    case Metric::GpuMemoryUtilization: return QStringLiteral("utilization_memory");
    case Metric::GpuMemoryUsedMib: return QStringLiteral("memory_used_mib");
    case Metric::GpuTemperature: return QStringLiteral("temperature_c");
    case Metric::GpuPower: return QStringLiteral("power_draw_w");
    case Metric::GpuSmClock: return QStringLiteral("sm_clock_mhz");
    case Metric::HostCpu: return QStringLiteral("cpu_percent");
    case Metric::HostCpuMaxCore: return QStringLiteral("cpu_max_core_percent");
    case Metric::HostMemoryUsedPercent: return QStringLiteral("memory_used_percent");
    case Metric::HostLoad1: return QStringLiteral("load1");
    case Metric::HostNetRx: return QStringLiteral("net_rx_bytes_per_s");
    case Metric::HostNetTx: return QStringLiteral("net_tx_bytes_per_s");
    case Metric::HostDiskRead: return QStringLiteral("disk_read_bytes_per_s");
    case Metric::HostDiskWrite: return QStringLiteral("disk_write_bytes_per_s");
    }
    return QStringLiteral("unknown");
}

qint64 resolutionBucketMs(Resolution r)
{
    switch (r) {
    case Resolution::Seconds1: return 1000;
    case Resolution::Seconds10: return 10000;
    case Resolution::Minutes2: return 120000;
    }
    return 1000;
}

int resolutionCapacity(Resolution r)
{
    switch (r) {
    case Resolution::Seconds1: return 600;
    case Resolution::Seconds10: return 1080;
    case Resolution::Minutes2: return 1440;
    }
    return 600;
}

BucketRing::BucketRing(qint64 bucketMs, int capacity, bool withMinMax)
    : m_bucketMs(bucketMs)
    , m_capacity(capacity)
    , m_minMax(withMinMax)
    , m_avg(size_t(capacity), std::nanf(""))
{
    if (withMinMax) {
        m_min.assign(size_t(capacity), std::nanf(""));
        m_max.assign(size_t(capacity), std::nanf(""));
    }
}

void BucketRing::put(qint64 bucket, float min, float avg, float max)
{
    if (m_newest != std::numeric_limits<qint64>::min()) {
        if (bucket < m_newest - m_capacity + 1) {
            return; // older than the window
        }
        // Clear the skipped buckets so a gap reads as a gap, not as data from a lap ago.
        const qint64 gap = std::min<qint64>(bucket - m_newest - 1, m_capacity);
        for (qint64 i = 1; i <= gap; ++i) {
            const size_t slot = size_t(((m_newest + i) % m_capacity + m_capacity) % m_capacity);
            m_avg[slot] = std::nanf("");
            if (m_minMax) {
                m_min[slot] = m_max[slot] = std::nanf("");
            }
        }
    }
    const size_t slot = size_t((bucket % m_capacity + m_capacity) % m_capacity);
    m_avg[slot] = avg;
    if (m_minMax) {
        m_min[slot] = min;
        m_max[slot] = max;
    }
    m_newest = std::max(m_newest, bucket);
    m_first = std::min(m_first, bucket);
}

qint64 BucketRing::oldestMs() const
{
    if (m_newest == std::numeric_limits<qint64>::min()) {
        return std::numeric_limits<qint64>::max();
    }
    return std::max(m_first, m_newest - m_capacity + 1) * m_bucketMs;
}

void BucketRing::forEach(qint64 sinceMs, const std::function<void(const Point &)> &fn) const
{
    if (m_newest == std::numeric_limits<qint64>::min()) {
        return;
    }
    const qint64 first = std::max(m_newest - m_capacity + 1, sinceMs / m_bucketMs);
    for (qint64 b = first; b <= m_newest; ++b) {
        const size_t slot = size_t((b % m_capacity + m_capacity) % m_capacity);
        const float avg = m_avg[slot];
        if (std::isnan(avg)) {
            continue;
        }
        fn(Point{b * m_bucketMs, m_minMax ? m_min[slot] : avg, avg, m_minMax ? m_max[slot] : avg});
    }
}

size_t BucketRing::memoryBytes() const
{
    return (m_avg.capacity() + m_min.capacity() + m_max.capacity()) * sizeof(float);
}

namespace {
BucketRing makeRing(Resolution r)
{
    return BucketRing(resolutionBucketMs(r), resolutionCapacity(r), r != Resolution::Seconds1);
}
} // namespace

MetricStore::Series::Series(bool detailed)
{
    rings[size_t(Resolution::Seconds1)].emplace(makeRing(Resolution::Seconds1));
    rings[size_t(Resolution::Minutes2)].emplace(makeRing(Resolution::Minutes2));
    setDetailed(detailed);
}

void MetricStore::Series::setDetailed(bool on)
{
    auto &ring = rings[size_t(Resolution::Seconds10)];
    if (on && !ring) {
        ring.emplace(makeRing(Resolution::Seconds10));
    } else if (!on) {
        ring.reset();
    }
    acc[size_t(Resolution::Seconds10)] = Accumulator{}; // a half bucket from before would mix two regimes
}

void MetricStore::setDetailed(bool on)
{
    if (on == m_detailed) {
        return;
    }
    m_detailed = on;
    for (Series *s : std::as_const(m_series)) {
        s->setDetailed(on);
    }
}

MetricStore::MetricStore(QString host)
    : m_host(std::move(host))
{
}

MetricStore::~MetricStore()
{
    qDeleteAll(m_series);
}

MetricStore::Series &MetricStore::series(SeriesKey key)
{
    auto it = m_series.find(key);
    if (it == m_series.end()) {
        it = m_series.insert(key, new Series(m_detailed));
        m_order.append(key);
        std::sort(m_order.begin(), m_order.end(), [](const SeriesKey &a, const SeriesKey &b) {
            // GPUs in index order, the host last (CSV columns and legends read better that way).
            const int ga = a.gpu < 0 ? std::numeric_limits<int>::max() : a.gpu;
            const int gb = b.gpu < 0 ? std::numeric_limits<int>::max() : b.gpu;
            return ga != gb ? ga < gb : int(a.metric) < int(b.metric);
        });
    }
    return **it;
}

void MetricStore::addValue(SeriesKey key, qint64 tMs, double value)
{
    if (std::isnan(value)) {
        return;
    }
    Series &s = series(key);
    s.latest = value;
    const float v = float(value);
    for (int r = 0; r < kResolutionCount; ++r) {
        if (!s.rings[size_t(r)]) {
            continue; // no detail: no 10 s ring
        }
        const qint64 width = resolutionBucketMs(Resolution(r));
        const qint64 bucket = tMs / width;
        Accumulator &a = s.acc[size_t(r)];
        if (a.count > 0 && bucket != a.bucket) {
            // The bucket is complete: min/avg/max of the raw samples it saw.
            s.rings[size_t(r)]->put(a.bucket, a.min, float(a.sum / a.count), a.max);
            a = Accumulator{};
        }
        if (a.count == 0) {
            a.bucket = bucket;
            a.min = a.max = v;
        }
        a.sum += value;
        a.min = std::min(a.min, v);
        a.max = std::max(a.max, v);
        ++a.count;
        if (r == 0) {
            // The 1 s ring shows the newest sample at once (several in one second average).
            s.rings[0]->put(a.bucket, a.min, float(a.sum / a.count), a.max);
        }
    }
}

void MetricStore::add(const MachineSample &sample)
{
    const qint64 t = sample.time.toMSecsSinceEpoch();
    auto put = [&](int gpu, Metric m, const std::optional<double> &v) {
        if (v) {
            addValue(SeriesKey{gpu, m}, t, *v);
        }
    };
    for (const GpuSample &g : sample.gpus) {
        if (g.index < 0) {
            continue;
        }
        m_gpuNames.insert(g.index, g.name);
        put(g.index, Metric::GpuUtilization, g.utilizationGpu);
        put(g.index, Metric::GpuMemoryUtilization, g.utilizationMemory);
        put(g.index, Metric::GpuMemoryUsedMib, g.memoryUsedMib);
        put(g.index, Metric::GpuTemperature, g.temperatureC);
        put(g.index, Metric::GpuPower, g.powerDrawW);
        put(g.index, Metric::GpuSmClock, g.smClockMhz);
    }
    if (const auto &h = sample.hostMetrics) {
        put(-1, Metric::HostCpu, h->cpuBusyPercent);
        if (!h->coreBusyPercent.isEmpty()) {
            put(-1, Metric::HostCpuMaxCore, h->maxCoreBusyPercent());
        }
        put(-1, Metric::HostMemoryUsedPercent, h->memUsedPercent());
        put(-1, Metric::HostLoad1, h->load1);
        put(-1, Metric::HostNetRx, h->netRxBytesPerS);
        put(-1, Metric::HostNetTx, h->netTxBytesPerS);
        put(-1, Metric::HostDiskRead, h->diskReadBytesPerS);
        put(-1, Metric::HostDiskWrite, h->diskWriteBytesPerS);
    }
    m_throttle.add(sample);
    m_latest = sample;
}

QList<int> MetricStore::gpuIndexes() const
{
    QList<int> out = m_gpuNames.keys();
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<double> MetricStore::latest(SeriesKey key) const
{
    const Series *s = m_series.value(key, nullptr);
    if (!s || std::isnan(s->latest)) {
        return std::nullopt;
    }
    return s->latest;
}

QList<QPointF> MetricStore::points(SeriesKey key, Resolution resolution, qint64 sinceMs, Aggregate aggregate) const
{
    QList<QPointF> out;
    points(key, resolution, sinceMs, out, aggregate);
    return out;
}

void MetricStore::points(SeriesKey key, Resolution resolution, qint64 sinceMs, QList<QPointF> &out,
                         Aggregate aggregate) const
{
    out.clear();
    const Series *s = m_series.value(key, nullptr);
    if (!s) {
        return;
    }
    out.reserve(resolutionCapacity(resolution));
    forEachPoint(*s, resolution, sinceMs, [&](const BucketRing::Point &p) {
        const float v = aggregate == Aggregate::Min ? p.min : aggregate == Aggregate::Max ? p.max : p.avg;
        out.append(QPointF(double(p.tMs), double(v)));
    });
}

void MetricStore::forEachPoint(const Series &s, Resolution resolution, qint64 sinceMs,
                               const std::function<void(const BucketRing::Point &)> &fn) const
{
    const auto &ring = s.rings[size_t(resolution)];
    const qint64 fineFrom = ring ? ring->oldestMs() : std::numeric_limits<qint64>::max();
    if (resolution != Resolution::Minutes2 && fineFrom > sinceMs) {
        // Only buckets that end before the finer data begins: one that overlaps it holds the same
        // samples, and its start would draw a point from before the first of them.
        const qint64 width = resolutionBucketMs(Resolution::Minutes2);
        s.rings[size_t(Resolution::Minutes2)]->forEach(sinceMs, [&](const BucketRing::Point &p) {
            if (p.tMs + width <= fineFrom) {
                fn(p);
            }
        });
    }
    if (ring) {
        ring->forEach(sinceMs, fn);
    }
}

Result<void> MetricStore::exportCsv(QIODevice *device, Resolution resolution) const
{
    if (!device || !device->isWritable()) {
        return Error{ErrorCode::Io, QStringLiteral("The CSV file is not open for writing.")};
    }
    const bool minMax = resolution != Resolution::Seconds1;
    QTextStream out(device);
    out << "time";
    for (const SeriesKey &k : m_order) {
        const QString prefix = k.gpu < 0 ? QStringLiteral("host_") : QStringLiteral("gpu%1_").arg(k.gpu);
        if (minMax) {
            out << ',' << prefix << metricName(k.metric) << "_min";
        }
        out << ',' << prefix << metricName(k.metric);
        if (minMax) {
            out << ',' << prefix << metricName(k.metric) << "_max";
        }
    }
    out << '\n';
    // Rows by time; a series without a value at that time leaves its cells empty.
    std::map<qint64, QList<std::optional<BucketRing::Point>>> rows;
    for (int i = 0; i < m_order.size(); ++i) {
        const Series *s = m_series.value(m_order.at(i));
        forEachPoint(*s, resolution, 0, [&](const BucketRing::Point &p) {
            auto &row = rows[p.tMs];
            if (row.isEmpty()) {
                row.resize(m_order.size());
            }
            row[i] = p;
        });
    }
    for (const auto &[t, row] : rows) {
        out << QDateTime::fromMSecsSinceEpoch(t, Qt::UTC).toString(Qt::ISODate);
        for (const auto &p : row) {
            if (minMax) {
                out << ',' << (p ? QString::number(p->min) : QString());
            }
            out << ',' << (p ? QString::number(p->avg) : QString());
            if (minMax) {
                out << ',' << (p ? QString::number(p->max) : QString());
            }
        }
        out << '\n';
    }
    out.flush();
    if (out.status() != QTextStream::Ok) {
        return Error{ErrorCode::Io, QStringLiteral("Writing the CSV file failed (disk full or removed?).")};
    }
    return {};
}

size_t MetricStore::memoryBytes() const
{
    size_t bytes = 0;
    for (const Series *s : m_series) {
        bytes += sizeof(Series);
        for (const auto &r : s->rings) {
            bytes += r ? r->memoryBytes() : 0;
        }
    }
    return bytes;
}

} // namespace gantry::monitor
