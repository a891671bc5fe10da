#include "core/monitor/nvidiasmiparser.h"
#include "core/monitor/procparser.h"
#include "core/monitor/remotescript.h"
#include "core/monitor/streamdecoder.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace gantry;
using namespace gantry::monitor;

namespace {
QString fixtureDir()
{
    return QStringLiteral(GANTRY_FIXTURES_DIR "/nvidia-smi");
}

QString readFixture(const QString &name)
{
    QFile f(fixtureDir() + QLatin1Char('/') + name);
    if (!f.open(QIODevice::ReadOnly)) {
        qFatal("missing fixture %s", qPrintable(name));
    }
    return QString::fromUtf8(f.readAll());
}
} // namespace

class TestMonitorParser : public QObject
{
    Q_OBJECT

private slots:
    void placeholdersAreUnknown()
    {
        const QStringList unknown = {QStringLiteral("[N/A]"), QStringLiteral("[Not Supported]"),
                                     QStringLiteral("[Unknown Error]"), QStringLiteral("N/A"),
                                     QStringLiteral("[Insufficient Permissions]"), QStringLiteral("[GPU is lost]"),
                                     QStringLiteral(" [Requested functionality has been deprecated] "), QString()};
        for (const QString &c : unknown) {
            QVERIFY2(!nvsmi::parseNumber(c).has_value(), qPrintable(c));
            QVERIFY2(!nvsmi::parseInteger(c).has_value(), qPrintable(c));
        }
        QCOMPARE(*nvsmi::parseNumber(QStringLiteral("81559 MiB")), 81559.0);
        QCOMPARE(*nvsmi::parseNumber(QStringLiteral("0 %")), 0.0);
        QCOMPARE(*nvsmi::parseNumber(QStringLiteral("433.78 W")), 433.78);
        QCOMPARE(*nvsmi::parseHex(QStringLiteral("0x0000000000000004")), quint64(4));
        QCOMPARE(nvsmi::canonicalField(QStringLiteral("memory.used [MiB]")), QStringLiteral("memory.used"));
        QCOMPARE(nvsmi::canonicalField(QStringLiteral("clocks_throttle_reasons.active")),
                 QStringLiteral("clocks_event_reasons.active"));
        QCOMPARE(nvsmi::canonicalField(QStringLiteral("clocks.sm")), QStringLiteral("clocks.current.sm"));
    }

    // Every CSV capture parses without crashing; every GPU table yields GPUs.
    void everyCsvFixtureParses()
    {
        const QStringList files = QDir(fixtureDir()).entryList({QStringLiteral("csv-*")}, QDir::Files, QDir::Name);
        QVERIFY2(files.size() >= 60, qPrintable(QString::number(files.size())));
        int gpuTables = 0;
        for (const QString &name : files) {
            const QString text = readFixture(name);
            const auto csv = nvsmi::parseGpuCsv(text);
            const auto apps = nvsmi::parseComputeApps(text);
            const QString firstLine = text.section(QLatin1Char('\n'), 0, 0);
            const bool gpuHeader = nvsmi::classifyLine(firstLine) == nvsmi::LineKind::Header
                                   && (firstLine.startsWith(QLatin1StringView("index")) || firstLine.contains(QLatin1StringView("memory.used"))
                                       || firstLine.startsWith(QLatin1StringView("name")));
            if (gpuHeader) {
                ++gpuTables;
                QVERIFY2(!csv.gpus.isEmpty(), qPrintable(name));
                for (const GpuSample &g : csv.gpus) {
                    QVERIFY2(g.index >= 0, qPrintable(name));
                    if (csv.fields.contains(QLatin1StringView("memory.total"))) {
                        QVERIFY2(g.memoryTotalMib.has_value() && *g.memoryTotalMib > 0, qPrintable(name));
                    }
                }
            }
            if (name.startsWith(QLatin1StringView("csv-compute-apps")) && text.count(QLatin1Char('\n')) > 1) {
                QVERIFY2(!apps.isEmpty(), qPrintable(name));
                for (const GpuProcess &p : apps) {
                    QVERIFY2(p.pid > 0, qPrintable(name));
                }
            }
        }
        QVERIFY(gpuTables >= 20);
    }

    void allFieldsH100MigUnderLoad()
    {
        const auto csv = nvsmi::parseGpuCsv(
            readFixture(QStringLiteral("csv-query-gpu-allfields-h100-80gb-hbm3-mig-driver590.48.01-linux-load-nvgpuexp.txt")));
        QCOMPARE(csv.gpus.size(), 1);
        const GpuSample &g = csv.gpus.first();
        QCOMPARE(g.index, 0);
        QCOMPARE(g.name, QStringLiteral("NVIDIA H100 80GB HBM3"));
        QVERIFY(!g.utilizationGpu.has_value()); // MIG: [N/A], not 0
        QVERIFY(!g.utilizationMemory.has_value());
        QCOMPARE(*g.memoryUsedMib, 11125.0);
        QCOMPARE(*g.memoryTotalMib, 81559.0);
        QCOMPARE(*g.powerDrawW, 433.78);
        QCOMPARE(*g.powerLimitW, 700.0);
        QCOMPARE(*g.smClockMhz, 1980.0);
        QCOMPARE(*g.smClockMaxMhz, 1980.0);
        QCOMPARE(g.pstate, QStringLiteral("P0"));
        QCOMPARE(*g.clocksEventReasons, quint64(0));
        QCOMPARE(*g.pcieGen, 5);
        QCOMPARE(*g.pcieWidthMax, 16);
        QCOMPARE(*g.eccUncorrected, qint64(0));
        QCOMPARE(*g.temperatureC, 53.0);
    }

    void oldDriverThrottleReasonsAndBareNA()
    {
        const auto csv = nvsmi::parseGpuCsv(readFixture(QStringLiteral("csv-rtx2080super-driver465.27-linux-nvgpuexp-samples.txt")));
        QCOMPARE(csv.gpus.size(), 1);
        const GpuSample &g = csv.gpus.first();
        QCOMPARE(*g.clocksEventReasons, quint64(1)); // clocks_throttle_reasons.active on 465
        QCOMPARE(*g.pcieGen, 1);
        QCOMPARE(*g.pcieGenMax, 3);
        QVERIFY(!g.eccUncorrected.has_value());
        QCOMPARE(*g.memoryTotalMib, 7979.0);
        QCOMPARE(g.uuid, QStringLiteral("GPU-df6e7a7c-7314-46f8-abc4-b88b36dcf3aa"));
    }

    void eightGpuBoxes()
    {
        const auto v100 = nvsmi::parseGpuCsv(readFixture(QStringLiteral("csv-v100sxm2-32gbx8-recorded-fixture.txt")));
        QCOMPARE(v100.gpus.size(), 8);
        QCOMPARE(*v100.gpus.at(5).memoryTotalMib, 32764.0);
        QCOMPARE(*v100.gpus.at(6).utilizationGpu, 100.0);
        QCOMPARE(*v100.gpus.at(6).memoryUsedMib, 13928.0);
        QCOMPARE(v100.gpus.at(7).name, QStringLiteral("Tesla V100-SXM2-32GB"));

        const QString h200Text = readFixture(QStringLiteral("csv-h200x8-uuid-and-compute-apps-NotFound.txt"));
        const auto h200 = nvsmi::parseGpuCsv(h200Text);
        QCOMPARE(h200.gpus.size(), 8);
        QCOMPARE(*h200.gpus.at(2).memoryUsedMib, 105851.0);
        QCOMPARE(h200.gpus.at(0).uuid, QStringLiteral("GPU-a44622e3-2296-6285-0a86-84d0f6c67900"));
        const auto apps = nvsmi::parseComputeApps(h200Text);
        QVERIFY(!apps.isEmpty());
        bool notFound = false;
        for (const GpuProcess &p : apps) {
            notFound = notFound || p.processName == QLatin1StringView("[Not Found]");
            QVERIFY(p.gpuUuid.startsWith(QLatin1StringView("GPU-")));
        }
        QVERIFY(notFound);
    }

    void noheaderWithFieldList()
    {
        const QStringList fields = QStringLiteral(
            "memory.total,memory.free,memory.used,temperature.gpu,fan.speed,utilization.gpu,utilization.memory")
                                       .split(QLatin1Char(','));
        const auto csv = nvsmi::parseGpuCsv(readFixture(QStringLiteral("csv-2gbgpu-NA-noheader-nounits-i3pystatus776-new.txt")), fields);
        QCOMPARE(csv.gpus.size(), 1);
        QCOMPARE(*csv.gpus.first().memoryTotalMib, 2004.0);
        QCOMPARE(*csv.gpus.first().memoryUsedMib, 0.0);
        QCOMPARE(*csv.gpus.first().temperatureC, 44.0);

        const QStringList gtx = QStringLiteral("gpu_name,utilization.gpu,utilization.memory,temperature.gpu,power.draw,"
                                               "power.limit,fan.speed,pstate,clocks.current.graphics,clocks.current.memory,"
                                               "power.max_limit,power.default_limit")
                                    .split(QLatin1Char(','));
        const auto old = nvsmi::parseGpuCsv(readFixture(QStringLiteral("csv-gtx770-NotSupported-noheader-windows-megaminer235.txt")), gtx);
        QCOMPARE(old.gpus.size(), 1);
        const GpuSample &g = old.gpus.first();
        QCOMPARE(g.name, QStringLiteral("GeForce GTX 770"));
        QVERIFY(!g.utilizationGpu.has_value());
        QVERIFY(!g.powerDrawW.has_value());
        QCOMPARE(*g.temperatureC, 52.0);
        QCOMPARE(g.pstate, QStringLiteral("P0"));
    }

    void unknownErrorAndBlankLineAfterHeader()
    {
        const auto csv = nvsmi::parseGpuCsv(
            readFixture(QStringLiteral("csv-rtx2080ti-UnknownError-nounits-driver442.19-windows-mindminer627.txt")));
        QCOMPARE(csv.gpus.size(), 1);
        QCOMPARE(*csv.gpus.first().utilizationGpu, 100.0);
        QCOMPARE(*csv.gpus.first().powerDrawW, 228.82); // above the limit: kept as reported
        QCOMPARE(*csv.gpus.first().powerLimitW, 210.0);
    }

    void computeApps()
    {
        const auto win = nvsmi::parseComputeApps(
            readFixture(QStringLiteral("csv-compute-apps-rtx2080super-driver610.62-windows-load-nvgpuexp.txt")));
        QVERIFY(win.size() >= 4);
        QCOMPARE(win.first().pid, qint64(2140));
        QCOMPARE(win.first().processName, QStringLiteral("C:\\Windows\\System32\\dwm.exe"));
        QVERIFY(!win.first().usedMemoryMib.has_value());

        const auto vllm = nvsmi::parseComputeApps(readFixture(QStringLiteral("csv-compute-apps-vllm-enginecore.txt")));
        QCOMPARE(vllm.size(), 2);
        QCOMPARE(vllm.first().processName, QStringLiteral("VLLM::EngineCore"));
        QCOMPARE(*vllm.first().usedMemoryMib, 6265.0);

        // Gantry's own noheader order; a comma in the title stays in the title.
        const QStringList fields = computeAppsFields();
        const auto row = nvsmi::parseComputeAppsRow(
            {QStringLiteral("pid"), QStringLiteral("uuid"), QStringLiteral("used_gpu_memory"), QStringLiteral("process_name")},
            QStringLiteral("4242, GPU-1, 1024, python train.py --tags a, b"));
        QVERIFY(row.has_value());
        QCOMPARE(row->processName, QStringLiteral("python train.py --tags a, b"));
        QCOMPARE(fields.last(), QStringLiteral("process_name"));
    }

    void errorOutputs()
    {
        QCOMPARE(nvsmi::invalidFieldName(readFixture(QStringLiteral("err-invalid-field-cuda_version-rtx4090-agentlog.txt"))),
                 QStringLiteral("cuda_version"));
        QCOMPARE(nvsmi::invalidFieldName(readFixture(QStringLiteral("err-invalid-field-encoder-stats-driver376.33-windows-telegraf6573.txt"))),
                 QStringLiteral("encoder.stats.sessionCount"));
        const QStringList failures = {
            QStringLiteral("err-driver-not-communicating-shinecluster50.txt"),
            QStringLiteral("err-gpu-lost-device-handle-owod81.txt"),
            QStringLiteral("err-nvml-mismatch-driver470-popos18.txt"),
            QStringLiteral("err-nvml-mismatch-with-library-version-driver570-tinygrad47.txt"),
            QStringLiteral("err-unknown-error-device-handle-dcgmexporter604.txt"),
        };
        for (const QString &f : failures) {
            const QString first = readFixture(f).section(QLatin1Char('\n'), 0, 0);
            QCOMPARE(nvsmi::classifyLine(first), nvsmi::LineKind::DriverFailure);
            QVERIFY(nvsmi::parseGpuCsv(readFixture(f), selectGpuFields({})).gpus.isEmpty());
        }
        QCOMPARE(nvsmi::classifyLine(readFixture(QStringLiteral("err-no-devices-found-rtx5090-ogkm862.txt"))),
                 nvsmi::LineKind::NoDevices);
        QVERIFY(!nvsmi::parseGpuRow(selectGpuFields({}), QStringLiteral("[GPU is lost], [GPU is lost]")).has_value());
    }

    void helpQueryGpuSelectsSupportedFields()
    {
        const QStringList old = nvsmi::parseHelpQueryGpu(readFixture(QStringLiteral("help-query-gpu-driver465.27-linux-nvgpuexp-samples.txt")));
        QVERIFY(old.contains(QStringLiteral("clocks_throttle_reasons.active")));
        QVERIFY(!old.contains(QStringLiteral("clocks_event_reasons.active")));
        QVERIFY(old.contains(QStringLiteral("gpu_name")));
        QVERIFY(!old.contains(QStringLiteral("Default")));
        const QStringList oldSel = selectGpuFields(old);
        QVERIFY(oldSel.contains(QStringLiteral("clocks_throttle_reasons.active")));
        QVERIFY(oldSel.contains(QStringLiteral("pcie.link.gen.max")));

        const QStringList fresh = nvsmi::parseHelpQueryGpu(readFixture(QStringLiteral("help-query-gpu-h100-80gb-hbm3-driver590.48.01-linux-nvgpuexp.txt")));
        const QStringList sel = selectGpuFields(fresh);
        QCOMPARE(sel, baseGpuFields() + optionalGpuFields());
        // A help text without some optional fields drops exactly those.
        QStringList partial = fresh;
        partial.removeAll(QStringLiteral("ecc.errors.corrected.volatile.total"));
        QVERIFY(!selectGpuFields(partial).contains(QStringLiteral("ecc.errors.corrected.volatile.total")));
    }

    // The hand-written token scan gives what the regular expressions it replaced gave, on every
    // captured help text and on quoting a host could get wrong.
    void helpQueryGpuMatchesThePatternItReplaced()
    {
        const auto reference = [](const QString &text) {
            static const QRegularExpression token(QStringLiteral("\"([^\"]*)\""));
            static const QRegularExpression fieldName(QStringLiteral("^[a-z_][A-Za-z0-9_.]*$"));
            QStringList fields;
            bool afterEmpty = true;
            for (const QString &raw : text.split(QLatin1Char('\n'))) {
                const QString line = raw.trimmed();
                if (line.isEmpty()) {
                    afterEmpty = true;
                    continue;
                }
                for (auto it = token.globalMatch(line); afterEmpty && line.startsWith(QLatin1Char('"')) && it.hasNext();) {
                    const QString name = it.next().captured(1);
                    if (fieldName.match(name).hasMatch() && !fields.contains(name))
                        fields.append(name);
                }
                afterEmpty = false;
            }
            return fields;
        };
        QStringList texts = {
            QStringLiteral("\"a\" or \"b.c\" \"a\" \"\" \"Bad\" \"_x9\" \"unterminated"),
            QStringLiteral("\n\"x\"\"y\"\n\"not_after_empty\"\n\n  \"z\" \"\u00e9\" \"1a\" \"a b\"\r"),
        };
        for (const QString &name : QDir(fixtureDir()).entryList({QStringLiteral("help-*.txt")}))
            texts << readFixture(name);
        QVERIFY(texts.size() > 10);
        for (const QString &text : texts)
            QCOMPARE(nvsmi::parseHelpQueryGpu(text), reference(text));
    }

    // A hostile host's output of megabytes parses in linear time. Each of these took n² (help) or
    // n·m steps before (the columns it looks up are last in the header, so every row scanned
    // them all): 35-140 s of CPU at these sizes, past this test's timeout; now well under a
    // second. What comes out is counted, so the parse cannot have skipped the work.
    void hostileOutputsParseInLinearTime()
    {
        constexpr int names = 300000;
        QString help;
        for (int i = 0; i < names; ++i)
            help += QStringLiteral("\"f%1\" ").arg(i);
        QVERIFY(help.size() > 2000000);
        const QStringList fields = nvsmi::parseHelpQueryGpu(help + QStringLiteral("\"f0\""));
        QCOMPARE(fields.size(), names);
        QCOMPARE(fields.last(), QStringLiteral("f%1").arg(names - 1));

        // A header of many columns, then many rows that cannot fit it, then a real table.
        constexpr int columns = 100000;
        constexpr int rows = 400000;
        QString wide;
        for (int i = 0; i < columns; ++i)
            wide += QStringLiteral("c.%1, ").arg(i);
        QString junk;
        for (int i = 0; i < rows; ++i)
            junk += QStringLiteral("7\n");
        const QString apps = wide + QStringLiteral("pid, process_name\n") + junk
            + QStringLiteral("pid, process_name\n42, python\n");
        QVERIFY(apps.size() > 1000000);
        const QList<GpuProcess> processes = nvsmi::parseComputeApps(apps);
        QCOMPARE(processes.size(), 1);
        QCOMPARE(processes.first().pid, qint64(42));
        const QString gpus = wide + QStringLiteral("index, name\n") + junk
            + QStringLiteral("index, name\n3, H100\n");
        const nvsmi::GpuCsv csv = nvsmi::parseGpuCsv(gpus);
        QCOMPARE(csv.gpus.size(), 1);
        QCOMPARE(csv.gpus.first().index, 3);
        QCOMPARE(csv.gpus.first().name, QStringLiteral("H100"));
    }

    void procParserRates()
    {
        ProcParser p;
        p.begin(100.0);
        p.addStatLine(QStringLiteral("cpu  100 0 100 800 0 0 0 0 0 0"));
        p.addStatLine(QStringLiteral("cpu0 50 0 50 400 0 0 0 0 0 0"));
        p.addStatLine(QStringLiteral("cpu1 50 0 50 400 0 0 0 0 0 0"));
        p.addMeminfoLine(QStringLiteral("MemTotal:       16384000 kB"));
        p.addMeminfoLine(QStringLiteral("MemAvailable:    4096000 kB"));
        p.addLoadavgLine(QStringLiteral("1.50 0.75 0.25 2/345 6789"));
        p.addNetDevLine(QStringLiteral("    lo: 999999 1 0 0 0 0 0 0 999999 1 0 0 0 0 0 0"));
        p.addNetDevLine(QStringLiteral("  eth0: 1000 10 0 0 0 0 0 0 2000 20 0 0 0 0 0 0"));
        p.addDiskstatsLine(QStringLiteral("   8       0 sda 10 0 100 0 20 0 200 0 0 0 0"));
        p.addDiskstatsLine(QStringLiteral("   8       1 sda1 10 0 100 0 20 0 200 0 0 0 0"));
        HostMetrics first = p.finish();
        QVERIFY(!first.cpuBusyPercent.has_value());
        QCOMPARE(*first.load1, 1.5);
        QCOMPARE(qRound(*first.memUsedPercent()), 75);

        p.begin(102.0);
        p.addStatLine(QStringLiteral("cpu  300 0 100 1000 0 0 0 0 0 0"));  // +200 busy, +400 total
        p.addStatLine(QStringLiteral("cpu0 250 0 50 400 0 0 0 0 0 0"));    // pegged
        p.addStatLine(QStringLiteral("cpu1 50 0 50 600 0 0 0 0 0 0"));     // idle
        p.addNetDevLine(QStringLiteral("  eth0: 3000 10 0 0 0 0 0 0 6000 20 0 0 0 0 0 0"));
        p.addDiskstatsLine(QStringLiteral("   8       0 sda 10 0 300 0 20 0 600 0 0 0 0"));
        HostMetrics m = p.finish();
        QCOMPARE(*m.cpuBusyPercent, 50.0);
        QCOMPARE(m.coreBusyPercent.size(), 2);
        QCOMPARE(m.coreBusyPercent.at(0), 100.0);
        QCOMPARE(m.coreBusyPercent.at(1), 0.0);
        QCOMPARE(*m.netRxBytesPerS, 1000.0); // 2000 bytes in 2 s, lo excluded
        QCOMPARE(*m.netTxBytesPerS, 2000.0);
        QCOMPARE(*m.diskReadBytesPerS, 200.0 * 512 / 2); // sda only, not sda1
        QCOMPARE(*m.diskWriteBytesPerS, 400.0 * 512 / 2);
    }

    // The decoder over a synthetic stream made of real rows.
    void decoderGroupsTicksAndJoinsProcesses()
    {
        ManualClock clock;
        const QStringList fields = {QStringLiteral("index"), QStringLiteral("count"), QStringLiteral("uuid"),
                                    QStringLiteral("name"), QStringLiteral("utilization.gpu"), QStringLiteral("memory.used"),
                                    QStringLiteral("memory.total")};
        StreamDecoder d(QStringLiteral("box"), fields, 1000, clock);
        QList<MachineSample> samples;
        d.onSample = [&](const MachineSample &s) { samples.append(s); };
        QByteArray stream =
            "H 100.00 50.0\nS cpu  100 0 100 800 0 0 0 0\nS cpu0 100 0 100 800 0 0 0 0\nM MemTotal: 1024 kB\n"
            "M MemAvailable: 512 kB\nL 0.1 0.2 0.3 1/2 3\nE\n"
            "A\nP 777, GPU-b, 2048, python\nP 778, GPU-a, 1024, bash\nC   777 python train.py --epochs 3\nW   778 alice    bash -c  run.sh\nQ\n"
            "G 0, 2, GPU-a, NVIDIA H100 80GB HBM3, 10, 100, 81559\n"
            "G 1, 2, GPU-b, NVIDIA H100 80GB HBM3, [N/A], 2048, 81559\n";
        // Arbitrary chunking must not matter.
        for (int i = 0; i < stream.size(); i += 7) {
            d.feed(stream.mid(i, 7));
        }
        QCOMPARE(samples.size(), 1);
        const MachineSample &s = samples.first();
        QCOMPARE(s.host, QStringLiteral("box"));
        QCOMPARE(s.driver, DriverState::Ok);
        QCOMPARE(s.gpus.size(), 2);
        QVERIFY(!s.gpus.at(1).utilizationGpu.has_value());
        QCOMPARE(s.processes.size(), 2);
        QCOMPARE(s.processes.first().gpuIndex, 1);
        QCOMPARE(s.processes.first().commandLine, QStringLiteral("python train.py --epochs 3"));
        QVERIFY(s.processes.first().user.isEmpty()); // the older line carries no user
        QCOMPARE(s.processes.at(1).user, QStringLiteral("alice"));
        QCOMPARE(s.processes.at(1).commandLine, QStringLiteral("bash -c  run.sh"));
        QCOMPARE(*s.hostMetrics->uptimeSeconds, 100.0);
        QVERIFY(s.hostMetrics.has_value());
        QCOMPARE(*s.hostMetrics->load1, 0.1);

        // The next tick completes by count too.
        clock.advanceSeconds(1);
        d.feed("G 0, 2, GPU-a, NVIDIA H100 80GB HBM3, 20, 100, 81559\nG 1, 2, GPU-b, NVIDIA H100 80GB HBM3, 30, 100, 81559\n");
        QCOMPARE(samples.size(), 2);
        QCOMPARE(*samples.last().gpus.at(1).utilizationGpu, 30.0);

        // The driver falls over.
        d.feed("G NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\nX\n");
        QCOMPARE(d.driverState(), DriverState::Failed);
        d.feed("H 101.0 0\nS cpu  200 0 100 900 0 0 0 0\nE\n");
        QCOMPARE(samples.last().driver, DriverState::Failed);
        QVERIFY(samples.last().gpus.isEmpty());

        QString invalid;
        d.onInvalidField = [&](const QString &f) { invalid = f; };
        d.feed("G Field \"clocks.max.sm\" is not a valid field to query.\n");
        QCOMPARE(invalid, QStringLiteral("clocks.max.sm"));
    }

    void decoderWithoutDriver()
    {
        ManualClock clock;
        StreamDecoder d(QStringLiteral("cpu-box"), selectGpuFields({}), 1000, clock);
        QList<MachineSample> samples;
        d.onSample = [&](const MachineSample &s) { samples.append(s); };
        d.feed("Z nvidia-smi not found\nH 1.0 0\nS cpu  1 0 1 8 0 0 0 0\nE\n");
        QCOMPARE(samples.size(), 1);
        QCOMPARE(samples.first().driver, DriverState::NoDriver);
        QVERIFY(samples.first().driverMessage.contains(QLatin1StringView("No NVIDIA driver found")));
        QVERIFY(samples.first().gpus.isEmpty());
    }

    void streamCommandIsOneShellLoop()
    {
        const QString cmd = streamCommand(selectGpuFields({}), StreamSettings{500, 5000});
        QVERIFY(cmd.startsWith(QLatin1StringView("sh -c ")));
        QVERIFY(cmd.contains(QLatin1StringView("-lms 500")));
        QVERIFY(cmd.contains(QLatin1StringView("--query-compute-apps=pid,gpu_uuid,used_memory,process_name")));
        QVERIFY(cmd.contains(QLatin1StringView("sleep 0.500")));
        QVERIFY(cmd.contains(QLatin1StringView("$((i % 10))")));
        QVERIFY(!cmd.contains(QLatin1StringView("%1")));
    }
};

QTEST_GUILESS_MAIN(TestMonitorParser)
#include "test_monitor_parser.moc"
