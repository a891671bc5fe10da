// SPDX-License-Identifier: Apache-2.0
// The acceptance test's judgement (issue #34) against real nvidia-smi -q captures
// (tests/fixtures/nvidia-smi, see INDEX.md for their sources) and variants derived from them by
// hand in this file, one faulty GPU at a time; Xid lines in the driver's kernel-log format; the
// reference table as shipped. Pure: no SSH, no clock.
#include "acceptfixtures.h"
#include "core/verify/acceptance.h"
#include "core/verify/probe.h"
#include "core/verify/xid.h"

#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTest>

using namespace gantry::verify;
using namespace gantry::test;

namespace {

const AcceptCheck *find(const QList<AcceptCheck> &checks, const QString &name, std::optional<int> gpu)
{
    for (const AcceptCheck &c : checks) {
        if (c.name == name && c.gpu == gpu)
            return &c;
    }
    return nullptr;
}

QStringList failures(const QList<AcceptCheck> &checks)
{
    QStringList out;
    for (const AcceptCheck &c : checks) {
        if (c.status == Verdict::Fail)
            out.append(QStringLiteral("%1:%2").arg(c.gpu ? QString::number(*c.gpu) : QStringLiteral("machine"), c.name));
    }
    return out;
}

Report reportFrom(const char *file)
{
    QFile f(QStringLiteral(GANTRY_TEST_SOURCE_DIR "/verify/data/") + QLatin1StringView(file));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing %s", file);
    auto parsed = parseReport(f.readAll());
    if (!parsed)
        qFatal("%s", qPrintable(parsed.error().message));
    return *parsed;
}

} // namespace

class TestAcceptCore final : public QObject
{
    Q_OBJECT

private slots:
    void healthyCapturesHaveNoFault_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("count");
        QTest::newRow("8x H100 535") << QString::fromUtf8(kH100x8) << QStringLiteral("H100 SXM") << 8;
        QTest::newRow("H100 590 load") << QStringLiteral("q-h100-80gb-hbm3-driver590.48.01-linux-load-nvgpuexp.txt")
                                       << QStringLiteral("H100 SXM") << 1;
        QTest::newRow("H200 590 idle") << QStringLiteral("q-h200-driver590.48.01-linux-idle-nvgpuexp.txt")
                                       << QStringLiteral("H200") << 1;
        QTest::newRow("RTX 4090 x8") << QStringLiteral("q-rtx4090x8-driver535.154.05-n0-gpud.txt") << QStringLiteral("RTX 4090") << 8;
    }
    void healthyCapturesHaveNoFault()
    {
        QFETCH(QString, file);
        QFETCH(QString, model);
        QFETCH(int, count);
        const QList<AcceptCheck> checks = passiveChecks(doctorWith(capture(file.toUtf8().constData())), SpecTable::builtIn(),
                                                        AcceptExpectation{model, count});
        QVERIFY2(failures(checks).isEmpty(), qPrintable(failures(checks).join(QLatin1Char(' '))));
        QCOMPARE(find(checks, QStringLiteral("gpu-count"), std::nullopt)->status, Verdict::Pass);
        QCOMPARE(find(checks, QStringLiteral("model"), count - 1)->status, Verdict::Pass);
        // The kernel log was not readable: said, not passed.
        const AcceptCheck *xid = find(checks, QStringLiteral("xid"), std::nullopt);
        QCOMPARE(xid->status, Verdict::Skip);
        QVERIFY(xid->detail.contains(QLatin1StringView("cannot be read")));
    }

    // gpud's recorded 8x H100 machines: the hardware power brake was on when they were captured.
    void recordedPowerBrakeFails()
    {
        const QList<AcceptCheck> all = passiveChecks(doctorWith(capture("q-h100x8-driver535.161.08-gpud.txt")),
                                                     SpecTable::builtIn(), AcceptExpectation{QStringLiteral("H100 SXM"), 8});
        QCOMPARE(failures(all).size(), 8);
        QVERIFY(find(all, QStringLiteral("clock-events"), 0)->detail.contains(QLatin1StringView("HW Power Brake Slowdown active")));
        const QList<AcceptCheck> one = passiveChecks(doctorWith(capture("q-h100x8-driver535.183.01-gpud.txt")),
                                                     SpecTable::builtIn(), {});
        QCOMPARE(failures(one), QStringList{QStringLiteral("2:clock-events")});
    }

    void oneFaultyGpuAtATime_data()
    {
        const QString h100 = capture(kH100x8);
        QTest::addColumn<QString>("smi");
        QTest::addColumn<QString>("fault");
        QTest::addColumn<QString>("words");
        QTest::newRow("remap pending") << onGpu(h100, 3, QStringLiteral("Pending"), QStringLiteral("Yes"), 4)
                                       << QStringLiteral("3:remapped-rows") << QStringLiteral("row remap is pending");
        QTest::newRow("uncorrectable ECC") << onGpu(h100, 5, QStringLiteral("DRAM Uncorrectable"), QStringLiteral("2"))
                                           << QStringLiteral("5:ecc") << QStringLiteral("2 uncorrectable ECC errors since boot");
        QString gen3x8 = onGpu(h100, 2, QStringLiteral("Current"), QStringLiteral("3"), 3);
        gen3x8 = onGpu(gen3x8, 2, QStringLiteral("Current"), QStringLiteral("8x"), 4);
        gen3x8 = onGpu(gen3x8, 2, QStringLiteral("Performance State"), QStringLiteral("P0"));
        QTest::newRow("Gen3 x8 under load") << gen3x8 << QStringLiteral("2:pcie-link") << QStringLiteral("Gen3 x8 of Gen5 x16 under load");
        QTest::newRow("HW slowdown") << onGpu(h100, 6, QStringLiteral("HW Slowdown"), QStringLiteral("Active"))
                                     << QStringLiteral("6:clock-events") << QStringLiteral("HW Slowdown active");
        QTest::newRow("GPU missing") << withoutGpu(h100, 7) << QStringLiteral("machine:gpu-count")
                                     << QStringLiteral("8 GPUs attached but only 7 answer");
    }
    void oneFaultyGpuAtATime()
    {
        QFETCH(QString, smi);
        QFETCH(QString, fault);
        QFETCH(QString, words);
        const QList<AcceptCheck> checks = passiveChecks(doctorWith(smi), SpecTable::builtIn(), AcceptExpectation{QStringLiteral("H100 SXM"), 8});
        QCOMPARE(failures(checks), QStringList{fault});
        VerifyOutcome outcome;
        outcome.doctorOutput = doctorWith(smi);
        outcome.probe = probeFromDoctor(outcome.doctorOutput);
        outcome.report = reportFrom("h200-pass.json");
        const Acceptance a = judgeAcceptance(outcome, SpecTable::builtIn(), ReferenceTable::installed(), AcceptExpectation{});
        QCOMPARE(a.verdict, AcceptVerdict::Fail);
        // The verdict names the GPU and what is wrong with it.
        const QString gpu = fault.section(QLatin1Char(':'), 0, 0);
        QVERIFY2(a.reasons.first().contains(words), qPrintable(a.reasons.first()));
        if (gpu != QLatin1StringView("machine"))
            QVERIFY2(a.reasons.first().startsWith(QStringLiteral("GPU %1 ").arg(gpu)), qPrintable(a.reasons.first()));
    }

    void idleLinkIsAWarnToRecheck()
    {
        QString idle = onGpu(capture(kH100x8), 1, QStringLiteral("Current"), QStringLiteral("1"), 3);
        idle = onGpu(idle, 1, QStringLiteral("Performance State"), QStringLiteral("P8"));
        const AcceptCheck *link = find(passiveChecks(doctorWith(idle), SpecTable::builtIn(), {}), QStringLiteral("pcie-link"), 1);
        QCOMPARE(link->status, Verdict::Warn);
        QVERIFY(link->detail.contains(QLatin1StringView("re-check under load")));
    }

    void wrongModelAndCount()
    {
        const QList<AcceptCheck> checks = passiveChecks(doctorWith(capture(kH100x8)), SpecTable::builtIn(),
                                                        AcceptExpectation{QStringLiteral("A100 80GB"), 16});
        QVERIFY(failures(checks).contains(QStringLiteral("machine:gpu-count")));
        QVERIFY(failures(checks).contains(QStringLiteral("0:model")));
        QVERIFY(find(checks, QStringLiteral("model"), 0)->detail.contains(QLatin1StringView("not the A100 80GB expected")));
    }

    void xidLines()
    {
        const QString log = QStringLiteral(
            "[ 1234.567890] NVRM: Xid (PCI:0000:18:00): 79, pid=0, GPU has fallen off the bus.\n"
            "[ 1300.000001] nvidia-modeset: some other line\n"
            "Dec 05 10:00:00 node kernel: NVRM: Xid (PCI:0000:9a:00): 13, pid=4242, name=python3, Graphics SM Warp Exception\n"
            "[ 1400.1] NVRM: Xid (PCI:0000:aa:00): 999, pid=1, something new\n");
        const QList<XidEvent> events = parseXidLines(log);
        QCOMPARE(events.size(), 3);
        QCOMPARE(events.at(0).code, 79);
        QCOMPARE(events.at(0).pciAddress, QStringLiteral("0000:18:00"));
        QCOMPARE(events.at(1).code, 13);
        QVERIFY(samePciDevice(QStringLiteral("0000:18:00"), QStringLiteral("00000000:18:00.0")));
        QVERIFY(!samePciDevice(QStringLiteral("0000:18:00"), QStringLiteral("00000000:19:00.0")));
        for (int code : {13, 31, 43, 45, 48, 61, 62, 63, 64, 68, 69, 74, 79, 92, 94, 95, 119, 120})
            QVERIFY2(xidInfo(code), qPrintable(QString::number(code)));
        QCOMPARE(xidInfo(79)->severity, Verdict::Fail);
        QCOMPARE(xidInfo(13)->severity, Verdict::Warn);

        // The 8x H100 capture's GPU 0 sits at 00000000:18:00.0.
        const QString smi = capture(kH100x8);
        QVERIFY(smi.contains(QLatin1StringView("GPU 00000000:18:00.0")));
        const QList<AcceptCheck> checks = passiveChecks(doctorWith(smi, log, 0), SpecTable::builtIn(), {});
        const AcceptCheck *gpu0 = find(checks, QStringLiteral("xid"), 0);
        QVERIFY(gpu0);
        QCOMPARE(gpu0->status, Verdict::Fail);
        QVERIFY(gpu0->detail.contains(QLatin1StringView("fallen off the bus")));
        QVERIFY(gpu0->detail.contains(QLatin1StringView("Return the machine")));
        // Lines of devices this GPU list does not have stay with the machine, decoded or not.
        const AcceptCheck *machine = find(checks, QStringLiteral("xid"), std::nullopt);
        QVERIFY(machine && machine->detail.contains(QLatin1StringView("Xid 999")));

        const QList<AcceptCheck> clean = passiveChecks(doctorWith(smi, QString(), 0), SpecTable::builtIn(), {});
        QCOMPARE(find(clean, QStringLiteral("xid"), std::nullopt)->status, Verdict::Pass);
    }

    void noCudaDeviceIsIncomplete()
    {
        VerifyOutcome outcome;
        outcome.doctorOutput = parseDoctorOutput("\n@@gantry nvidia-smi-path@@\n@@rc 1@@\n@@gantry end@@\n");
        outcome.probe = probeFromDoctor(outcome.doctorOutput);
        outcome.report.method = Method::DiagnosisOnly;
        const Acceptance a = judgeAcceptance(outcome, SpecTable::builtIn(), ReferenceTable::installed(), {});
        QCOMPARE(a.verdict, AcceptVerdict::Incomplete);
        QVERIFY(a.reasons.join(QLatin1Char(' ')).contains(QLatin1StringView("No CUDA device")));
        // With a GPU expected, a machine without one has failed.
        const Acceptance expected = judgeAcceptance(outcome, SpecTable::builtIn(), ReferenceTable::installed(),
                                                    AcceptExpectation{QString(), 1});
        QCOMPARE(expected.verdict, AcceptVerdict::Fail);
    }

    void simulatedGpuNeverPasses()
    {
        VerifyOutcome outcome;
        outcome.doctorOutput = doctorWith(capture("q-h100-80gb-hbm3-driver590.48.01-linux-load-nvgpuexp.txt"), {}, 0, true);
        outcome.probe = probeFromDoctor(outcome.doctorOutput);
        QVERIFY(outcome.probe.simulatedGpu);
        outcome.report = reportFrom("h200-pass.json"); // even a report that claims a pass
        const Acceptance a = judgeAcceptance(outcome, SpecTable::builtIn(), ReferenceTable::installed(), {});
        QCOMPARE(a.verdict, AcceptVerdict::Incomplete);
        QVERIFY(a.reasons.join(QLatin1Char(' ')).contains(QLatin1StringView("Simulated GPU")));
    }

    void activeFiguresAgainstReferences()
    {
        VerifyOutcome outcome;
        outcome.doctorOutput = doctorWith(capture("q-h200-driver590.48.01-linux-load-nvgpuexp.txt"), QString(), 0);
        outcome.probe = probeFromDoctor(outcome.doctorOutput);
        outcome.report = reportFrom("h200-pass.json");
        const Acceptance a = judgeAcceptance(outcome, SpecTable::builtIn(), ReferenceTable::installed(),
                                             AcceptExpectation{QStringLiteral("H200"), 1});
        const AcceptCheck *copy = find(a.checks, QStringLiteral("hbm-copy"), 0);
        QCOMPARE(copy->status, Verdict::Pass);
        QVERIFY2(copy->detail.contains(QLatin1StringView("of the 4010 GB/s good machines achieve")), qPrintable(copy->detail));
        QVERIFY(copy->detail.contains(QLatin1StringView("ND_H200_v5")));
        // The BF16 reference is cuBLAS's; the portable kernel is judged by its own thresholds, and says so.
        QVERIFY(find(a.checks, QStringLiteral("tensor-bf16"), 0)->detail.contains(QLatin1StringView("cuBLAS")));
        QCOMPARE(find(a.checks, QStringLiteral("host-to-device"), 0)->status, Verdict::Pass);
        QCOMPARE(find(a.checks, QStringLiteral("disk"), std::nullopt)->status, Verdict::Skip);
        QCOMPARE(a.verdict, AcceptVerdict::Pass);

        // 60 % of the reference copy rate fails; 80 % warns.
        Report slow = outcome.report;
        QJsonObject details = slow.gpus[0].tests[2].details;
        details.insert(QStringLiteral("copy_gbs"), 2400.0);
        slow.gpus[0].tests[2].details = details;
        outcome.report = slow;
        Acceptance failed = judgeAcceptance(outcome, SpecTable::builtIn(), ReferenceTable::installed(), {});
        QCOMPARE(find(failed.checks, QStringLiteral("hbm-copy"), 0)->status, Verdict::Fail);
        QCOMPARE(failed.verdict, AcceptVerdict::Fail);
        details.insert(QStringLiteral("copy_gbs"), 3300.0);
        outcome.report.gpus[0].tests[2].details = details;
        Acceptance warned = judgeAcceptance(outcome, SpecTable::builtIn(), ReferenceTable::installed(), {});
        QCOMPARE(warned.verdict, AcceptVerdict::Warn);
        QVERIFY(warned.nextStep.contains(QLatin1StringView("refund")));
        QCOMPARE(warned.figures.first().measure, QStringLiteral("hbm_copy"));
        QCOMPARE(warned.figures.first().value, 3300.0);
    }

    void jsonShape()
    {
        VerifyOutcome outcome;
        outcome.doctorOutput = doctorWith(onGpu(capture(kH100x8), 4, QStringLiteral("Pending"), QStringLiteral("Yes"), 4));
        outcome.probe = probeFromDoctor(outcome.doctorOutput);
        const QJsonObject json = acceptanceToJson(judgeAcceptance(outcome, SpecTable::builtIn(), ReferenceTable::installed(), {}));
        QCOMPARE(json.value(QStringLiteral("verdict")).toString(), QStringLiteral("fail"));
        QVERIFY(json.value(QStringLiteral("reasons")).toArray().first().toString().startsWith(QLatin1StringView("GPU 4 remapped-rows")));
        bool machine = false, perGpu = false;
        for (const QJsonValue &v : json.value(QStringLiteral("checks")).toArray()) {
            const QJsonObject c = v.toObject();
            QCOMPARE(c.keys(), (QStringList{QStringLiteral("detail"), QStringLiteral("gpu"), QStringLiteral("name"), QStringLiteral("status")}));
            QVERIFY(QStringList({QStringLiteral("pass"), QStringLiteral("warn"), QStringLiteral("fail"), QStringLiteral("skipped")})
                        .contains(c.value(QStringLiteral("status")).toString()));
            machine = machine || c.value(QStringLiteral("gpu")).isNull();
            perGpu = perGpu || c.value(QStringLiteral("gpu")).toInt(-1) == 7;
        }
        QVERIFY(machine && perGpu);
    }

    void referenceTableAsShipped()
    {
        QFile file(QStringLiteral(GANTRY_TEST_SOURCE_DIR "/../resources/gpu-reference.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        auto table = ReferenceTable::fromJson(file.readAll());
        QVERIFY2(table, table ? "" : qPrintable(table.error().message));
        QCOMPARE(table->figures().size(), ReferenceTable::installed().figures().size());
        for (const ReferenceFigure &f : table->figures()) {
            QVERIFY2(f.specId == QLatin1StringView("*") || SpecTable::builtIn().byId(f.specId), qPrintable(f.specId));
            QVERIFY(!f.source.isEmpty());
        }
        QCOMPARE(table->find(QStringLiteral("h100-sxm"), QStringLiteral("tensor_bf16"))->value, 794.5);
        QCOMPARE(table->hostLink(5, 16)->value, 52.0);
        QVERIFY(!ReferenceTable::fromJson(R"({"schema":1,"references":[{"spec":"x","measure":"y","value":1}]})"));
    }
};

QTEST_GUILESS_MAIN(TestAcceptCore)
#include "test_accept_core.moc"
