// SPDX-License-Identifier: Apache-2.0
// GPU Performance Monitoring (`nvidia-smi dmon --gpm-metrics`): the reader against a recorded
// capture (tests/fixtures/nvidia-smi/INDEX.md, "GPM"), a real dmon capture without GPM columns and
// a derived training variant; the stream decoder hands the values to each GPU's sample, and says
// "unavailable" with nvidia-smi's words when dmon refuses — never a guessed figure.
#include "core/monitor/gpmreader.h"
#include "core/monitor/remotescript.h"
#include "core/monitor/streamdecoder.h"
#include "core/util/clock.h"

#include <QFile>
#include <QTest>

using namespace gantry;
using namespace gantry::monitor;

namespace {

QStringList fixtureLines(const QString &name)
{
    QFile file(QStringLiteral(GANTRY_FIXTURES_DIR "/nvidia-smi/") + name);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
}

GpmReader read(const QString &fixture)
{
    GpmReader reader;
    for (const QString &line : fixtureLines(fixture))
        reader.line(line);
    return reader;
}

} // namespace

class TestMonitorGpm final : public QObject
{
    Q_OBJECT

private slots:
    // The recorded capture: GPU 0 still "-" (no value yet), GPU 1 measured at 0 %.
    void recordedCapture()
    {
        const GpmReader reader = read(QStringLiteral("dmon-gpm-8gpu-driver570.124.06-linux-idle-blogpost-excerpt.txt"));
        QVERIFY(reader.available());
        QVERIFY(!reader.unavailable());
        QVERIFY(!reader.latest().value(0).any());
        const GpmValues one = reader.latest().value(1);
        QCOMPARE(one.smActivity.value_or(-1), 0.0);
        QCOMPARE(one.smOccupancy.value_or(-1), 0.0);
        QCOMPARE(one.tensorActivity.value_or(-1), 0.0);
        QCOMPARE(one.dramActivity.value_or(-1), 0.0);
    }

    // Columns are found by name: the derived file's values land in the right fields.
    void valuesByColumnName()
    {
        const GpmReader reader = read(QStringLiteral("dmon-gpm-derived-training.txt"));
        QVERIFY(reader.available());
        QCOMPARE(*reader.latest().value(0).smActivity, 31.0);
        QCOMPARE(*reader.latest().value(0).tensorActivity, 2.0);
        QCOMPARE(*reader.latest().value(1).smActivity, 88.0);
        QCOMPARE(*reader.latest().value(1).smOccupancy, 47.0);
        QCOMPARE(*reader.latest().value(1).tensorActivity, 71.0);
        QCOMPARE(*reader.latest().value(1).dramActivity, 64.0);
    }

    // A real dmon capture (H100, no --gpm-metrics): rows, but no GPM column, so after a few
    // seconds GPM counts as unavailable rather than 0 %.
    void dmonWithoutGpmColumns()
    {
        const GpmReader reader = read(QStringLiteral("dmon-h100-80gb-hbm3-driver590.48.01-linux-load-nvgpuexp.txt"));
        QVERIFY(!reader.available());
        QVERIFY(reader.unavailable());
        QVERIFY(!reader.latest().value(0).any());
    }

    // nvidia-smi refuses (the message the helper's survey found for dmon on an unsupported device):
    // unavailable, in its words; the first rows of "-" alone are not yet a verdict.
    void refusedAndWarmingUp()
    {
        GpmReader refused;
        refused.line(QStringLiteral("Not supported on the device(s)"));
        refused.line(QStringLiteral("Failed to process command line"));
        QVERIFY(!refused.unavailable());
        refused.ended();
        QVERIFY(refused.unavailable());
        QCOMPARE(refused.reason(), QStringLiteral("Not supported on the device(s)"));

        GpmReader warming;
        const QStringList lines = fixtureLines(QStringLiteral("dmon-gpm-derived-training.txt"));
        for (int i = 0; i < 4; ++i)
            warming.line(lines.at(i));
        QVERIFY(!warming.available());
        QVERIFY(!warming.unavailable());
    }

    // Through the stream decoder: each GPU's sample carries its GPM values; the machine's state
    // says available; after dmon ends they are dropped, never shown stale.
    void decoderCarriesGpm()
    {
        ManualClock clock;
        StreamDecoder d(QStringLiteral("box"), {QStringLiteral("index"), QStringLiteral("count"), QStringLiteral("utilization.gpu")}, 1000, clock);
        QList<MachineSample> samples;
        d.onSample = [&](const MachineSample &s) { samples.append(s); };
        d.feed("G 0, 2, 100\nG 1, 2, 100\n");
        QCOMPARE(samples.last().gpm, GpmState::Unknown);
        for (const QString &line : fixtureLines(QStringLiteral("dmon-gpm-derived-training.txt")))
            d.feedLine(QStringLiteral("V ") + line);
        d.feed("G 0, 2, 100\nG 1, 2, 100\n");
        QCOMPARE(samples.last().gpm, GpmState::Available);
        QCOMPARE(*samples.last().gpus.at(0).gpm.smActivity, 31.0);
        QCOMPARE(*samples.last().gpus.at(1).gpm.tensorActivity, 71.0);
        // dmon stalls while the query loop goes on: after 5 s its figures are no longer shown.
        clock.advanceSeconds(6);
        d.feed("G 0, 2, 100\nG 1, 2, 100\n");
        QVERIFY(!samples.last().gpus.at(1).gpm.any());
        d.feed("Y\nG 0, 2, 100\nG 1, 2, 100\n");
        QVERIFY(!samples.last().gpus.at(0).gpm.any());
        QCOMPARE(samples.last().gpm, GpmState::Unknown);
    }

    // The sandbox's simulated GPU (resources/sandbox/nvidia-smi.py) refuses dmon: unavailable.
    void decoderSaysWhyNot()
    {
        ManualClock clock;
        StreamDecoder d(QStringLiteral("box"), {QStringLiteral("index"), QStringLiteral("count")}, 1000, clock);
        QList<MachineSample> samples;
        d.onSample = [&](const MachineSample &s) { samples.append(s); };
        d.feed("V Gantry simulated GPU: no device monitor or GPM metrics without a real GPU.\nY\nG 0, 1\n");
        QCOMPARE(samples.last().gpm, GpmState::Unavailable);
        QVERIFY(samples.last().gpmMessage.contains(QStringLiteral("simulated")));
    }

    // The stream asks dmon for exactly the metrics the reader reads.
    void streamAsksForTheseMetrics()
    {
        const QString command = streamCommand({QStringLiteral("index")}, StreamSettings{1000, 5000});
        QVERIFY(command.contains(QStringLiteral("dmon --gpm-metrics 2,3,5,10")));
    }
};

QTEST_GUILESS_MAIN(TestMonitorGpm)
#include "test_monitor_gpm.moc"
