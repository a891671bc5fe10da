// The sandbox's simulated nvidia-smi against real captures of an H100 80GB HBM3 (driver 590.48.01,
// tests/fixtures/nvidia-smi): the same headers, field order and units, parsed alike by the core
// parsers (monitor, machine facts, Doctor); and Doctor, Verify and the facts call it simulated.
#include "core/hosts/machinefacts.h"
#include "core/monitor/alerts.h"
#include "core/monitor/nvidiasmiparser.h"
#include "core/monitor/remotescript.h"
#include "core/verify/doctor.h"
#include "core/verify/probe.h"
#include "core/verify/smiquery.h"
#include "core/verify/verifyoperation.h"

#include <QFile>
#include "core/util/clock.h"

#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::monitor;

namespace {

QString capture(const char *name)
{
    QFile file(QStringLiteral(GANTRY_FIXTURES_DIR "/nvidia-smi/") + QLatin1StringView(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing capture %s", name);
    return QString::fromUtf8(file.readAll());
}

QStringList headerCells(const QString &csv)
{
    return csv.section(QLatin1Char('\n'), 0, 0).split(QStringLiteral(", "));
}

// The unit a value carries ("81559 MiB" → "MiB") in a column whose header names one ("[MiB]").
QString unitOf(const QString &cell, const QString &header)
{
    const qsizetype space = cell.lastIndexOf(QLatin1Char(' '));
    return !header.endsWith(QLatin1Char(']')) || cell.startsWith(QLatin1Char('[')) || space < 0 ? QString() : cell.mid(space + 1);
}

} // namespace

class TestSandboxGpu final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_python;

    // Runs the stand-in with a profile ("idle" or "training"); stdout and the exit status.
    QString smi(const QStringList &args, const char *profile = "idle", int *exitCode = nullptr)
    {
        QFile marker(m_dir.filePath(QLatin1StringView(kSimulatedGpuMarkerFile)));
        if (!marker.open(QIODevice::WriteOnly) || marker.write(QByteArray("profile=") + profile + "\n") < 0)
            qFatal("cannot write the marker");
        marker.close();
        QProcess p;
        p.start(m_python, QStringList{QStringLiteral("-S"), m_dir.filePath(QStringLiteral("nvidia-smi.py"))} + args);
        if (!p.waitForFinished(20000))
            qFatal("the stand-in hangs");
        if (exitCode)
            *exitCode = p.exitCode();
        return QString::fromUtf8(p.readAllStandardOutput());
    }

private slots:
    void initTestCase()
    {
        m_python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (m_python.isEmpty())
            QSKIP("python3 is not installed; the simulated nvidia-smi needs it");
        // The script as the sandbox writes it: from the resource compiled into the provider library.
        QVERIFY(QFile::copy(QStringLiteral(":/gantry/sandbox/nvidia-smi.py"), m_dir.filePath(QStringLiteral("nvidia-smi.py"))));
    }

    // Every field the stand-in offers is a real field, spelled, ordered and united as in the real
    // all-fields query; CSV with and without units and header is parsed alike.
    void queryGpuMatchesTheCapture()
    {
        for (const char *state : {"idle", "load"}) {
            const QString real = capture(state == QByteArray("idle")
                                             ? "csv-query-gpu-allfields-h100-80gb-hbm3-driver590.48.01-linux-idle-nvgpuexp.txt"
                                             : "csv-query-gpu-allfields-h100-80gb-hbm3-driver590.48.01-linux-load-nvgpuexp.txt");
            const QStringList realHeader = headerCells(real);
            const QStringList realRow = real.section(QLatin1Char('\n'), 1, 1).split(QStringLiteral(", "));
            const QStringList offered = nvsmi::parseHelpQueryGpu(smi({QStringLiteral("--help-query-gpu")}));
            QStringList asked;
            QStringList expectedHeader;
            QStringList expectedUnits;
            for (int i = 0; i < realHeader.size(); ++i) {
                const QString name = nvsmi::canonicalField(realHeader.at(i));
                if (offered.contains(name)) {
                    asked << name;
                    expectedHeader << realHeader.at(i);
                    expectedUnits << unitOf(realRow.value(i), realHeader.at(i));
                }
            }
            QVERIFY2(asked.size() >= 50, qPrintable(asked.join(QLatin1Char(','))));
            const char *profile = state == QByteArray("idle") ? "idle" : "training";
            const QString ours = smi({QStringLiteral("--query-gpu=") + asked.join(QLatin1Char(',')), QStringLiteral("--format=csv")}, profile);
            QCOMPARE(headerCells(ours), expectedHeader);
            const QStringList row = ours.section(QLatin1Char('\n'), 1, 1).split(QStringLiteral(", "));
            QCOMPARE(row.size(), asked.size());
            for (int i = 0; i < row.size(); ++i)
                QCOMPARE(unitOf(row.at(i), expectedHeader.at(i)) + QLatin1Char(' ') + asked.at(i), expectedUnits.at(i) + QLatin1Char(' ') + asked.at(i));
            // nounits keeps the header's [unit] like the real tool.
            QCOMPARE(headerCells(smi({QStringLiteral("--query-gpu=") + asked.join(QLatin1Char(',')),
                                      QStringLiteral("--format=csv,nounits")}, profile)), expectedHeader);

            const nvsmi::GpuCsv realCsv = nvsmi::parseGpuCsv(real);
            const nvsmi::GpuCsv ourCsv = nvsmi::parseGpuCsv(ours);
            QCOMPARE(ourCsv.gpus.size(), 1);
            const GpuSample &r = realCsv.gpus.constFirst();
            const GpuSample &o = ourCsv.gpus.constFirst();
            QCOMPARE(o.name, r.name + QStringLiteral(" (simulated)"));
            QCOMPARE(o.memoryTotalMib, r.memoryTotalMib);
            QCOMPARE(o.powerLimitW, r.powerLimitW);
            QCOMPARE(o.smClockMaxMhz, r.smClockMaxMhz);
            QCOMPARE(o.pcieWidth.has_value(), r.pcieWidth.has_value());
            QCOMPARE(o.clocksEventReasons.has_value(), r.clocksEventReasons.has_value());
            QCOMPARE(o.eccUncorrected.has_value(), r.eccUncorrected.has_value());
        }
    }

    // What the monitor asks for, in its own words (aliases, noheader, nounits, -lms).
    void monitorStreamFields()
    {
        const QStringList fields = selectGpuFields(nvsmi::parseHelpQueryGpu(smi({QStringLiteral("--help-query-gpu")})));
        QCOMPARE(fields, baseGpuFields() + optionalGpuFields());
        QProcess loop;
        loop.start(m_python, {QStringLiteral("-S"), m_dir.filePath(QStringLiteral("nvidia-smi.py")),
                              QStringLiteral("--query-gpu=") + fields.join(QLatin1Char(',')),
                              QStringLiteral("--format=csv,noheader,nounits"), QStringLiteral("-lms"), QStringLiteral("100")});
        QStringList canonical;
        for (const QString &field : fields)
            canonical << nvsmi::canonicalField(field);
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += loop.readAllStandardOutput()).count('\n') >= 3, 10000);
        loop.kill();
        loop.waitForFinished();
        for (const QByteArray &line : out.split('\n').mid(0, 3)) {
            const auto sample = nvsmi::parseGpuRow(canonical, QString::fromUtf8(line));
            QVERIFY2(sample, line.constData());
            QCOMPARE(sample->index, 0);
            QVERIFY(sample->utilizationGpu && sample->powerDrawW && sample->smClockMhz && sample->powerLimitW);
            QCOMPARE(*sample->utilizationGpu, 0.0); // idle
        }
    }

    // The profiles do what they are for: idle trips the idle alert (the idle policy's trigger), and
    // training with a pegged CPU core trips the data-loader alert, sample after sample.
    void profilesTripTheirAlerts()
    {
        const QStringList fields = selectGpuFields(nvsmi::parseHelpQueryGpu(smi({QStringLiteral("--help-query-gpu")})));
        QStringList canonical;
        for (const QString &field : fields)
            canonical << nvsmi::canonicalField(field);
        for (const char *profile : {"idle", "training"}) {
            const bool training = profile == QByteArray("training");
            QProcess loop;
            smi({QStringLiteral("-L")}, profile); // writes the marker with this profile
            loop.start(m_python, {QStringLiteral("-S"), m_dir.filePath(QStringLiteral("nvidia-smi.py")),
                                  QStringLiteral("--query-gpu=") + fields.join(QLatin1Char(',')),
                                  QStringLiteral("--format=csv,noheader,nounits"), QStringLiteral("-lms"), QStringLiteral("100")});
            QByteArray out;
            QTRY_VERIFY_WITH_TIMEOUT((out += loop.readAllStandardOutput()).count('\n') >= 25, 20000);
            loop.kill();
            loop.waitForFinished();
            const auto processes = nvsmi::parseComputeApps(
                smi({QStringLiteral("--query-compute-apps=") + computeAppsFields().join(QLatin1Char(',')),
                     QStringLiteral("--format=csv,noheader,nounits")}, profile),
                computeAppsFields());
            QCOMPARE(processes.size(), training ? 1 : 0);
            ManualClock clock;
            AlertEngine alerts(QStringLiteral("walk-1"), clock);
            alerts.setBilling(true);
            QSignalSpy raised(&alerts, &AlertEngine::raised);
            // The same GPU samples with a quiet CPU (the sandbox's host, as the walkthrough had it):
            // the low-utilization alert still comes, within the ten minutes the user waited.
            AlertEngine quietHost(QStringLiteral("walk-1"), clock);
            QSignalSpy quietRaised(&quietHost, &AlertEngine::raised);
            const qint64 start = clock.monotonicMs();
            qint64 lowAfterMs = -1;
            connect(&quietHost, &AlertEngine::raised, this, [&](const Alert &a) {
                if (a.kind == AlertKind::LowUtilization && lowAfterMs < 0)
                    lowAfterMs = clock.monotonicMs() - start;
            });
            for (const QByteArray &line : out.split('\n').mid(0, 25)) {
                MachineSample sample;
                sample.host = QStringLiteral("walk-1");
                sample.driver = DriverState::Ok;
                sample.gpus << nvsmi::parseGpuRow(canonical, QString::fromUtf8(line)).value();
                sample.processes = processes;
                HostMetrics host;
                host.coreBusyPercent = {training ? 97.0 : 2.0, 3.0};
                host.cpuBusyPercent = training ? 50.0 : 2.5;
                sample.hostMetrics = host;
                alerts.evaluate(sample);
                host.coreBusyPercent = {12.0, 3.0};
                host.cpuBusyPercent = 7.5;
                sample.hostMetrics = host;
                quietHost.evaluate(sample);
                clock.advanceSeconds(60);
            }
            QList<AlertKind> kinds;
            for (const QList<QVariant> &args : std::as_const(raised))
                kinds << args.at(0).value<Alert>().kind;
            QVERIFY2(kinds.contains(training ? AlertKind::DataLoaderBottleneck : AlertKind::GpuIdle), profile);
            QVERIFY2(!kinds.contains(training ? AlertKind::GpuIdle : AlertKind::DataLoaderBottleneck), profile);
            QVERIFY2(!kinds.contains(AlertKind::LowUtilization), profile); // the pegged core's hint says more
            QList<AlertKind> quietKinds;
            for (const QList<QVariant> &args : std::as_const(quietRaised))
                quietKinds << args.at(0).value<Alert>().kind;
            QCOMPARE(quietKinds.contains(AlertKind::LowUtilization), training);
            if (training)
                QVERIFY2(lowAfterMs >= 5 * 60000 && lowAfterMs <= 10 * 60000, qPrintable(QString::number(lowAfterMs)));
        }
    }

    void computeAppsMatchTheCapture()
    {
        const QString real = capture("csv-compute-apps-h100-80gb-hbm3-driver590.48.01-linux-load-nvgpuexp.txt");
        const QString asked = QStringLiteral("timestamp,gpu_name,gpu_bus_id,gpu_serial,gpu_uuid,pid,process_name,used_gpu_memory");
        const QString training = smi({QStringLiteral("--query-compute-apps=") + asked, QStringLiteral("--format=csv")}, "training");
        QCOMPARE(headerCells(training), headerCells(real));
        QCOMPARE(unitOf(training.section(QLatin1Char('\n'), 1, 1), headerCells(real).constLast()),
                 unitOf(real.section(QLatin1Char('\n'), 1, 1), headerCells(real).constLast()));
        const auto processes = nvsmi::parseComputeApps(training);
        QCOMPARE(processes.size(), 1);
        QCOMPARE(processes.first().pid, 4194304); // above any pid_max: a Kill cannot hit a real process
        // Idle: the header only, like the real idle capture; noheader: nothing.
        const QString idle = smi({QStringLiteral("--query-compute-apps=") + asked, QStringLiteral("--format=csv")});
        QCOMPARE(idle, capture("csv-compute-apps-h100-80gb-hbm3-driver590.48.01-linux-idle-nvgpuexp.txt"));
        QCOMPARE(smi({QStringLiteral("--query-compute-apps=pid"), QStringLiteral("--format=csv,noheader")}), QString());
        // The monitor's own query parses without a header.
        const QString monitor = smi({QStringLiteral("--query-compute-apps=") + computeAppsFields().join(QLatin1Char(',')),
                                     QStringLiteral("--format=csv,noheader,nounits")}, "training");
        QCOMPARE(nvsmi::parseComputeApps(monitor, computeAppsFields()).size(), 1);
    }

    void invalidFieldLikeTheRealTool()
    {
        int rc = 0;
        const QString out = smi({QStringLiteral("--query-gpu=index,cuda_version"), QStringLiteral("--format=csv")}, "idle", &rc);
        QCOMPARE(rc, 2);
        QCOMPARE(out, capture("err-invalid-field-cuda_version-rtx4090-agentlog.txt").trimmed() + QStringLiteral("\n\n"));
        QCOMPARE(nvsmi::classifyLine(out.trimmed()), nvsmi::LineKind::InvalidField);
    }

    // -q: the keys Doctor reads are where the real -q has them; the stand-in invents no other key.
    void queryTextMatchesTheCapture()
    {
        const verify::SmiQuery real = verify::parseSmiQuery(capture("q-h100-80gb-hbm3-driver590.48.01-linux-load-nvgpuexp.txt"));
        const verify::SmiQuery ours = verify::parseSmiQuery(smi({QStringLiteral("-q")}, "training"));
        QCOMPARE(ours.gpus.size(), 1);
        QCOMPARE(ours.attachedGpus, real.attachedGpus);
        QCOMPARE(ours.driverVersion, real.driverVersion);
        QCOMPARE(ours.gpus.first().name(), real.gpus.first().name() + QStringLiteral(" (simulated)"));
        QCOMPARE(ours.gpus.first().busId, real.gpus.first().busId);
        QStringList realKeys;
        for (const auto &field : real.gpus.first().fields)
            realKeys << field.first;
        for (const auto &field : ours.gpus.first().fields)
            QVERIFY2(realKeys.contains(field.first) || field.first.startsWith(QStringLiteral("Temperature/")), qPrintable(field.first));
        QCOMPARE(verify::leadingInt(ours.gpus.first().value(QStringLiteral("FB Memory Usage/Total"))), 81559);
    }

    // Machine facts, Doctor and Verify on the stand-in: simulated, and never a pass.
    void simulatedEverywhere()
    {
        const QString facts = QStringLiteral("@@gpus\n%1@@smi\n%2@@simulated\nmarker-file\n@@end\n")
                                  .arg(smi({QStringLiteral("--query-gpu=index,name,uuid,memory.total,driver_version"),
                                            QStringLiteral("--format=csv,noheader,nounits")}),
                                       smi({}).section(QLatin1Char('\n'), 0, 2));
        const MachineFacts parsed = parseMachineFacts(facts.toUtf8());
        QVERIFY(parsed.simulatedGpu);
        QCOMPARE(parsed.gpus.size(), 1);
        QCOMPARE(parsed.gpus.first().name, QStringLiteral("NVIDIA H100 80GB HBM3 (simulated)"));
        QCOMPARE(parsed.cudaVersion, QStringLiteral("13.1"));
        QVERIFY(parsed.nvidiaSmiError.isEmpty());
        QVERIFY(parsed.toJson().value(QStringLiteral("simulated_gpu")).toBool());
        // The text alone is enough: a real host that prints the marker is flagged simulated too.
        QVERIFY(parseMachineFacts(QString(facts).remove(QStringLiteral("marker-file\n")).toUtf8()).simulatedGpu);

        const QByteArray doctor = "@@gantry arch@@\nx86_64\n@@rc 0@@\n@@gantry nvidia-smi-path@@\n/x/bin/nvidia-smi\n@@rc 0@@\n"
                                  "@@gantry simulated@@\n\n@@rc 0@@\n@@gantry smi-q@@\n"
                                  + smi({QStringLiteral("-q")}).toUtf8() + "\n@@rc 0@@\n@@gantry end@@\n";
        const verify::DoctorOutput output = verify::parseDoctorOutput(doctor);
        const verify::Probe probe = verify::probeFromDoctor(output);
        QVERIFY(probe.simulatedGpu);
        const QList<verify::DoctorCheck> checks = verify::evaluateDoctor(output, verify::SpecTable::builtIn());
        QCOMPARE(checks.first().id, QStringLiteral("simulated-gpu"));
        QVERIFY(verify::anyFailed(checks));
        for (const verify::DoctorCheck &check : checks)
            QVERIFY2(check.id != QLatin1StringView("nvidia-smi") && check.id != QLatin1StringView("ecc"), qPrintable(check.id));
        const verify::Plan plan = verify::choosePlan(probe, verify::PlanInputs{true, QStringLiteral("x86_64"), 450, true});
        QCOMPARE(plan.method, verify::Method::DiagnosisOnly);
        QVERIFY(plan.reason.contains(QStringLiteral("simulated")));

        // Even a report claiming a pass is no pass on a simulated GPU.
        verify::VerifyOutcome outcome;
        outcome.probe = probe;
        outcome.report.verdict = verify::Verdict::Pass;
        verify::GpuResult gpu;
        gpu.name = QStringLiteral("NVIDIA H100 80GB HBM3");
        gpu.verdict = verify::Verdict::Pass;
        outcome.report.gpus << gpu;
        const verify::Assessment assessment = verify::assessOutcome(outcome, verify::SpecTable::builtIn(), {});
        QCOMPARE(assessment.verdict, verify::Verdict::Error);
        QVERIFY(assessment.headline.startsWith(QStringLiteral("SIMULATED GPU")));
    }
};

QTEST_GUILESS_MAIN(TestSandboxGpu)
#include "test_sandbox_gpu.moc"
