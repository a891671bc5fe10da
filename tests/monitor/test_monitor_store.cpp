#include "core/monitor/metricstore.h"
#include "core/monitor/monitorservice.h"

#include <QBuffer>
#include <QTest>

using namespace gantry::monitor;

namespace {
MachineSample makeSample(qint64 tMs, int gpus, double util)
{
    MachineSample s;
    s.time = QDateTime::fromMSecsSinceEpoch(tMs, Qt::UTC);
    s.host = QStringLiteral("m");
    for (int i = 0; i < gpus; ++i) {
        GpuSample g;
        g.index = i;
        g.name = QStringLiteral("NVIDIA H100 80GB HBM3");
        g.utilizationGpu = util;
        g.memoryUsedMib = 1000 + i;
        g.powerDrawW = 100;
        s.gpus.append(g);
    }
    HostMetrics h;
    h.cpuBusyPercent = 25;
    h.coreBusyPercent = {10, 90};
    s.hostMetrics = h;
    return s;
}
} // namespace

class TestMonitorStore : public QObject
{
    Q_OBJECT

private slots:
    void ringKeepsCapacityAndGaps()
    {
        BucketRing ring(1000, 5, false);
        for (qint64 b = 0; b < 12; ++b) {
            ring.put(b, 0, float(b), 0);
        }
        QList<qint64> times;
        ring.forEach(0, [&](const BucketRing::Point &p) { times.append(p.tMs); });
        QCOMPARE(times, (QList<qint64>{7000, 8000, 9000, 10000, 11000}));
        // A gap of two buckets stays a gap, not old data from a lap ago.
        ring.put(14, 0, 14, 0);
        times.clear();
        ring.forEach(0, [&](const BucketRing::Point &p) { times.append(p.tMs); });
        QCOMPARE(times, (QList<qint64>{10000, 11000, 14000}));
    }

    void boundedHoweverLongItRuns()
    {
        MetricStore store(QStringLiteral("m"));
        const qint64 start = 1'700'000'000'000;
        store.add(makeSample(start, 8, 50));
        const size_t afterFirst = store.memoryBytes();
        QVERIFY(afterFirst > 0);
        // 11 minutes of full samples: past the 1 s ring's 10 minutes, and not one byte more.
        for (qint64 s = 1; s < 11 * 60; ++s) {
            store.add(makeSample(start + s * 1000, 8, double(s % 100)));
        }
        QCOMPARE(store.memoryBytes(), afterFirst);
        // The 1 s ring holds the last 10 minutes; before them the 2 min history fills in.
        QCOMPARE(store.points(SeriesKey{7, Metric::GpuPower}, Resolution::Seconds1, start + 60'000).size(), 600);
        QCOMPARE(store.gpuIndexes().size(), 8);
        // 50 simulated hours of one series at 1 Hz: every ring full, still the same memory.
        const SeriesKey key{3, Metric::GpuUtilization};
        for (qint64 s = 11 * 60; s < 50 * 3600; ++s) {
            store.addValue(key, start + s * 1000, double(s % 100));
        }
        QCOMPARE(store.memoryBytes(), afterFirst);
        const qint64 end = start + 50 * 3600 * 1000LL;
        QCOMPARE(store.points(key, Resolution::Seconds1, end - 600'000).size(), 600);
        QCOMPARE(store.points(key, Resolution::Seconds10, end - 3 * 3600'000 - 10'000).size(), 1080);
        QCOMPARE(store.points(key, Resolution::Minutes2).size(), 1440);
    }

    void downsamplingKeepsMinAvgMax()
    {
        MetricStore store(QStringLiteral("m"));
        const SeriesKey key{0, Metric::GpuUtilization};
        const qint64 t0 = 600'000; // bucket aligned for 10 s and 120 s
        for (int s = 0; s < 130; ++s) {
            store.addValue(key, t0 + s * 1000, s < 120 ? double(s) : 0.0);
        }
        const auto avg10 = store.points(key, Resolution::Seconds10);
        QCOMPARE(avg10.size(), 12); // completed 10 s buckets
        QCOMPARE(avg10.first().x(), double(t0));
        QCOMPARE(avg10.first().y(), 4.5);
        QCOMPARE(store.points(key, Resolution::Seconds10, 0, MetricStore::Aggregate::Min).first().y(), 0.0);
        QCOMPARE(store.points(key, Resolution::Seconds10, 0, MetricStore::Aggregate::Max).first().y(), 9.0);
        const auto min2 = store.points(key, Resolution::Minutes2, 0, MetricStore::Aggregate::Max);
        QCOMPARE(min2.size(), 1);
        QCOMPARE(min2.first().y(), 119.0);
        QCOMPARE(store.points(key, Resolution::Minutes2).first().y(), 59.5);
        // Since filter.
        QCOMPARE(store.points(key, Resolution::Seconds1, t0 + 125'000).size(), 5);
        QCOMPARE(*store.latest(key), 0.0);
    }

    // A fleet of 64 machines × 8 GPUs with the Monitor tab on one of them: only that one keeps the
    // 3 h history at 10 s; the others keep 10 min at 1 s and 48 h at 2 min, which the 3 h chart
    // falls back to when the user switches machines, so nothing they saw disappears.
    void onlyChartedMachinesKeepDetail()
    {
        MonitorService service(nullptr);
        const QString charted = QStringLiteral("node-00");
        service.retainDetail(charted);
        QStringList names;
        for (int m = 0; m < 64; ++m) {
            names.append(QStringLiteral("node-%1").arg(m, 2, 10, QLatin1Char('0')));
            service.addMachine(names.last());
        }
        const qint64 start = 1'700'000'040'000; // 2 min aligned
        for (int s = 0; s < 300; ++s) {
            for (const QString &name : std::as_const(names)) {
                service.injectSample(name, makeSample(start + s * 1000, 8, 50));
            }
        }
        const SeriesKey key{2, Metric::GpuUtilization};
        MetricStore *shown = service.store(charted);
        MetricStore *other = service.store(names.at(1));
        QVERIFY(shown->detailed());
        QVERIFY(!other->detailed());
        QCOMPARE(shown->points(key, Resolution::Seconds1).size(), 300);
        QCOMPARE(other->points(key, Resolution::Seconds1).size(), 300);
        QCOMPARE(shown->points(key, Resolution::Seconds10).size(), 29);
        QCOMPARE(other->points(key, Resolution::Seconds10).size(), 2); // two complete 2 min buckets
        QVERIFY(other->memoryBytes() * 3 < shown->memoryBytes() * 2);
        size_t total = 0;
        for (const QString &name : std::as_const(names)) {
            total += service.store(name)->memoryBytes();
        }
        qInfo("64 x 8 GPUs, one charted: %.1f MiB of history", double(total) / 1048576.0);
        // Every machine at 1 s, 10 s and 1 min, as before, held 79 MiB for these 26 series each.
        QVERIFY(total < 40u * 1048576u);

        // The user switches to another machine: its 3 h chart starts with the 2 min past, then 10 s.
        service.releaseDetail(charted);
        service.retainDetail(names.at(1));
        QVERIFY(!shown->detailed());
        QVERIFY(other->detailed());
        for (int s = 300; s <= 330; ++s) {
            service.injectSample(names.at(1), makeSample(start + s * 1000, 8, 50));
        }
        const QList<QPointF> mixed = other->points(key, Resolution::Seconds10);
        QCOMPARE(mixed.size(), 5);
        QCOMPARE(mixed.at(1).x() - mixed.at(0).x(), 120'000.0);
        QCOMPARE(mixed.at(2).x(), double(start + 300'000));
        QCOMPARE(mixed.last().x() - mixed.at(3).x(), 10'000.0);
        // Two views of one machine: closing one keeps the other's detail.
        service.retainDetail(names.at(1));
        service.releaseDetail(names.at(1));
        QVERIFY(other->detailed());
    }

    void unknownValuesAreNotStored()
    {
        MetricStore store(QStringLiteral("m"));
        MachineSample s = makeSample(1000, 1, 0);
        s.gpus[0].utilizationGpu.reset();
        store.add(s);
        QVERIFY(!store.has(SeriesKey{0, Metric::GpuUtilization}));
        QVERIFY(store.has(SeriesKey{0, Metric::GpuMemoryUsedMib}));
        QCOMPARE(*store.latest(SeriesKey{-1, Metric::HostCpuMaxCore}), 90.0);
    }

    void csvExport()
    {
        MetricStore store(QStringLiteral("m"));
        for (int s = 0; s < 30; ++s) {
            store.add(makeSample(1'000'000 + s * 1000, 2, s));
        }
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QVERIFY(store.exportCsv(&buffer, Resolution::Seconds1).ok());
        const QList<QByteArray> lines = buffer.data().split('\n');
        QVERIFY(lines.first().startsWith("time,gpu0_utilization_gpu,")); // GPUs first, host last
        QVERIFY(lines.first().contains("host_cpu_percent"));
        QCOMPARE(lines.size(), 1 + 30 + 1); // header, rows, trailing empty
        QVERIFY(lines.at(1).startsWith("1970-01-01T00:16:40Z,0,"));

        QBuffer coarse;
        coarse.open(QIODevice::WriteOnly);
        QVERIFY(store.exportCsv(&coarse, Resolution::Seconds10).ok());
        QVERIFY(coarse.data().startsWith("time,gpu0_utilization_gpu_min,gpu0_utilization_gpu,gpu0_utilization_gpu_max"));

        QBuffer closed;
        QVERIFY(!store.exportCsv(&closed, Resolution::Seconds1).ok());
    }
};

QTEST_GUILESS_MAIN(TestMonitorStore)
#include "test_monitor_store.moc"
