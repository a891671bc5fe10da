// Pure logic of the verification feature: verdicts, spec matching, the report schema, the doctor
// parser on recorded nvidia-smi outputs, the fallback plan, and the SQLite history.
#include "core/verify/assessment.h"
#include "core/verify/doctor.h"
#include "core/verify/history.h"
#include "core/verify/probe.h"
#include "core/verify/report.h"
#include "core/verify/smiquery.h"
#include "core/verify/specs.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::verify;

namespace {

QByteArray readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

QByteArray data(const char *name)
{
    return readFile(QStringLiteral(GANTRY_TEST_SOURCE_DIR "/verify/data/") + QString::fromUtf8(name));
}

QString fixture(const char *name)
{
    return QString::fromUtf8(readFile(QStringLiteral(GANTRY_FIXTURES_DIR "/nvidia-smi/") + QString::fromUtf8(name)));
}

Report report(const char *name)
{
    auto parsed = parseReport(data(name));
    if (!parsed)
        qFatal("%s: %s", name, qPrintable(parsed.error().message));
    return parsed.value();
}

// A doctor output as the script prints it, assembled from recorded command outputs.
struct DoctorBuilder
{
    QByteArray text;
    DoctorBuilder &section(const char *name, const QString &body, int rc = 0)
    {
        text += "\n@@gantry " + QByteArray(name) + "@@\n" + body.toUtf8() + "\n@@rc " + QByteArray::number(rc) + "@@\n";
        return *this;
    }
    DoctorBuilder &gpuBox(const QString &smiQ, const char *fabricManager = "inactive")
    {
        section("arch", QStringLiteral("x86_64"));
        section("nvidia-smi-path", QStringLiteral("/usr/bin/nvidia-smi"));
        section("smi-q", smiQ);
        section("compute-apps", QStringLiteral("gpu_uuid, pid, process_name, used_gpu_memory [MiB]"));
        section("fabricmanager", QString::fromUtf8(fabricManager), QByteArray(fabricManager) == "active" ? 0 : 3);
        return *this;
    }
    DoctorBuilder &healthyRest()
    {
        section("nvcc", QString(), 127);
        section("python", QStringLiteral("python=3.11.7\ntorch=none\ntorch_import_error=No module named 'torch'"));
        section("df", QStringLiteral("Filesystem     1024-blocks     Used Available Capacity Mounted on\n"
                                     "/dev/vda         264212084 16926668 247285416       7% /\n"
                                     "tmpfs             24683620        0  24683620       0% /dev/shm"));
        return *this;
    }
    QList<DoctorCheck> evaluate() const
    {
        return evaluateDoctor(parseDoctorOutput(text + "\n@@gantry end@@\n"), SpecTable::builtIn());
    }
};

const DoctorCheck *find(const QList<DoctorCheck> &checks, const char *id)
{
    for (const DoctorCheck &c : checks) {
        if (c.id == QLatin1StringView(id))
            return &c;
    }
    return nullptr;
}
// A pointer into a temporary list dangles once the statement ends (a heap-use-after-free that
// ASan found in find(b.evaluate(), …)): keep the list in a variable.
const DoctorCheck *find(QList<DoctorCheck> &&checks, const char *id) = delete;

CheckStatus statusOf(const QList<DoctorCheck> &checks, const char *id)
{
    const DoctorCheck *c = find(checks, id);
    return c ? c->status : static_cast<CheckStatus>(-1); // a missing check equals no status

}

} // namespace

class TestVerifyCore : public QObject
{
    Q_OBJECT

private slots:
    // --- verdicts ---------------------------------------------------------------------------
    void thresholds_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("ratio");
        QTest::addColumn<QString>("verdict");
        QTest::newRow("bw pass") << "device_bandwidth" << 0.80 << "pass";
        QTest::newRow("bw warn") << "device_bandwidth" << 0.72 << "warn";
        QTest::newRow("bw warn edge") << "device_bandwidth" << 0.65 << "warn";
        QTest::newRow("bw fail") << "device_bandwidth" << 0.64 << "fail";
        QTest::newRow("fp32 pass") << "fp32_fma" << 0.85 << "pass";
        QTest::newRow("fp32 warn") << "fp32_fma" << 0.70 << "warn";
        QTest::newRow("fp32 fail") << "fp32_fma" << 0.69 << "fail";
        QTest::newRow("tensor pass") << "tensor_bf16" << 0.60 << "pass";
        QTest::newRow("tensor warn") << "tensor_fp16" << 0.40 << "warn";
        QTest::newRow("tensor fail") << "tensor_bf16" << 0.39 << "fail";
        QTest::newRow("h2d pass") << "host_device_bandwidth" << 0.70 << "pass";
        QTest::newRow("h2d warn") << "host_device_bandwidth" << 0.50 << "warn";
        QTest::newRow("h2d fail") << "host_device_bandwidth" << 0.49 << "fail";
    }
    void thresholds()
    {
        QFETCH(QString, id);
        QFETCH(double, ratio);
        QFETCH(QString, verdict);
        const auto t = thresholdsFor(id);
        QVERIFY(t);
        QCOMPARE(verdictName(verdictForRatio(ratio, *t)), verdict);
    }

    void verdictOrder()
    {
        QCOMPARE(worst(Verdict::Pass, Verdict::Skip), Verdict::Skip);
        QCOMPARE(worst(Verdict::Warn, Verdict::Fail), Verdict::Fail);
        QCOMPARE(worst(Verdict::Error, Verdict::Fail), Verdict::Error);
        QVERIFY(!thresholdsFor(QStringLiteral("memory_integrity")));
        QCOMPARE(verdictFromName(QStringLiteral("WARN")), Verdict::Warn);
        QVERIFY(!verdictFromName(QStringLiteral("maybe")));
    }

    // --- spec table -------------------------------------------------------------------------
    void specTableLoads()
    {
        const SpecTable &table = SpecTable::builtIn();
        QVERIFY(table.specs().size() >= 20);
        const GpuSpec *h200 = table.byId(QStringLiteral("h200-sxm"));
        QVERIFY(h200);
        QCOMPARE(*h200->memoryBandwidthTbs, 4.8);
        QCOMPARE(*h200->bf16Tflops, 989.0);
        QCOMPARE(*h200->expectedMemoryMib(), 143771.0);
        QVERIFY(h200->nvswitch);
    }

    void specMatching_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("pciId");
        QTest::addColumn<QString>("spec");
        // Names as nvidia-smi/NVML print them in the recorded fixtures.
        QTest::newRow("H100 SXM") << "NVIDIA H100 80GB HBM3" << "" << "h100-sxm";
        QTest::newRow("H100 NVL") << "NVIDIA H100 NVL" << "" << "h100-nvl";
        QTest::newRow("H100 PCIe") << "NVIDIA H100 PCIe" << "" << "h100-pcie";
        QTest::newRow("H200") << "NVIDIA H200" << "" << "h200-sxm";
        QTest::newRow("H200 by PCI id") << "Graphics Device" << "0x233510DE" << "h200-sxm";
        QTest::newRow("H200 NVL by id") << "NVIDIA H200" << "0x233B10DE" << "h200-nvl";
        QTest::newRow("GH200") << "NVIDIA GH200 480GB" << "" << "gh200-96gb";
        QTest::newRow("V100 SXM2 32") << "Tesla V100-SXM2-32GB" << "" << "v100-sxm2-32gb";
        QTest::newRow("V100 SXM2 16") << "Tesla V100-SXM2-16GB" << "" << "v100-sxm2-16gb";
        QTest::newRow("V100 PCIe") << "Tesla V100-PCIE-16GB" << "" << "v100-pcie-16gb";
        QTest::newRow("V100 truncated") << "Tesla V100-PCIE..." << "" << "v100-pcie-16gb";
        QTest::newRow("A100 SXM 80") << "NVIDIA A100-SXM4-80GB" << "" << "a100-80gb-sxm";
        QTest::newRow("A100 PCIe 80") << "NVIDIA A100 80GB PCIe" << "" << "a100-80gb-pcie";
        QTest::newRow("A100 PCIe 40") << "NVIDIA A100-PCIE-40GB" << "" << "a100-40gb-pcie";
        QTest::newRow("A100 SXM 40") << "NVIDIA A100-SXM4-40GB" << "" << "a100-40gb-sxm";
        QTest::newRow("A10") << "NVIDIA A10" << "" << "a10";
        QTest::newRow("A10G") << "NVIDIA A10G" << "" << "a10g";
        QTest::newRow("A40") << "NVIDIA A40" << "" << "a40";
        QTest::newRow("L40S") << "NVIDIA L40S" << "" << "l40s";
        QTest::newRow("L4") << "NVIDIA L4" << "" << "l4";
        QTest::newRow("RTX 4090") << "NVIDIA GeForce RTX 4090" << "" << "rtx-4090";
        QTest::newRow("RTX 3090") << "NVIDIA GeForce RTX 3090" << "" << "rtx-3090";
        QTest::newRow("RTX 3090 Ti is not") << "NVIDIA GeForce RTX 3090 Ti" << "" << "";
        QTest::newRow("RTX 6000 Ada") << "NVIDIA RTX 6000 Ada Generation" << "" << "rtx-6000-ada";
        QTest::newRow("RTX A6000") << "NVIDIA RTX A6000" << "" << "rtx-a6000";
        QTest::newRow("T4") << "Tesla T4" << "" << "t4";
        QTest::newRow("B200") << "NVIDIA B200" << "" << "b200";
        QTest::newRow("RTX 2080 SUPER unknown") << "NVIDIA GeForce RTX 2080 SUPER" << "0x1E8110DE" << "";
        QTest::newRow("RTX 4000 Ada unknown") << "NVIDIA RTX 4000 Ada Generation" << "" << "";
        QTest::newRow("empty") << "" << "" << "";
    }
    void specMatching()
    {
        QFETCH(QString, name);
        QFETCH(QString, pciId);
        QFETCH(QString, spec);
        const GpuSpec *found = SpecTable::builtIn().match(name, pciId);
        QCOMPARE(found ? found->id : QString(), spec);
    }

    // Every GPU named in the recorded `nvidia-smi -q` dumps resolves the same by name and by PCI id.
    void specMatchingAgreesWithFixtures()
    {
        const QDir dir(QStringLiteral(GANTRY_FIXTURES_DIR "/nvidia-smi"));
        int matched = 0;
        for (const QString &file : dir.entryList({QStringLiteral("q-*.txt")})) {
            const SmiQuery q = parseSmiQuery(QString::fromUtf8(readFile(dir.filePath(file))));
            for (const SmiGpu &gpu : q.gpus) {
                const GpuSpec *byName = SpecTable::builtIn().match(gpu.name());
                const GpuSpec *byBoth = SpecTable::builtIn().match(gpu.name(), gpu.value(QStringLiteral("PCI/Device Id")));
                QVERIFY2(byName == byBoth, qPrintable(file + QStringLiteral(": ") + gpu.name()));
                if (byName)
                    ++matched;
            }
        }
        QVERIFY(matched > 100);
    }

    void pciIdNormalisation()
    {
        QCOMPARE(SpecTable::normalizePciDeviceId(QStringLiteral("0x233510DE")), QStringLiteral("0x2335"));
        QCOMPARE(SpecTable::normalizePciDeviceId(QStringLiteral("0x1E81")), QStringLiteral("0x1E81"));
        QCOMPARE(SpecTable::normalizePciDeviceId(QStringLiteral("26b910de")), QStringLiteral("0x26B9"));
        QCOMPARE(SpecTable::normalizePciDeviceId(QStringLiteral("[N/A]")), QString());
    }

    void advertisedMatching()
    {
        const SpecTable &t = SpecTable::builtIn();
        QCOMPARE(t.matchAdvertised(QStringLiteral("H100 SXM"))->id, QStringLiteral("h100-sxm"));
        QCOMPARE(t.matchAdvertised(QStringLiteral("A100 80GB PCIe"))->id, QStringLiteral("a100-80gb-pcie"));
        QVERIFY(!t.matchAdvertised(QStringLiteral("A100 80GB"))); // variant not stated
        QCOMPARE(t.familyOf(QStringLiteral("A100 80GB")), QStringLiteral("A100"));
        QCOMPARE(t.familyOf(QStringLiteral("gpu_1x_h100")), QStringLiteral("H100"));
        QCOMPARE(t.familyOf(QStringLiteral("RTX 4090")), QStringLiteral("RTX 4090"));
        QCOMPARE(t.familyOf(QStringLiteral("something else")), QString());
    }

    // --- report schema ----------------------------------------------------------------------
    void parsesH200Pass()
    {
        const Report r = report("h200-pass.json");
        QCOMPARE(r.schema, QStringLiteral("gantry-verify/1"));
        QCOMPARE(r.mode, QStringLiteral("full"));
        QCOMPARE(r.driverVersion, QStringLiteral("580.95.05"));
        QCOMPARE(*r.cudaDriverApi, 13000.0);
        QCOMPARE(r.verdict, Verdict::Pass);
        QCOMPARE(r.gpus.size(), 1);
        const GpuResult &g = r.gpus.first();
        QCOMPARE(g.name, QStringLiteral("NVIDIA H200"));
        QCOMPARE(*g.smCount, 132.0);
        QCOMPARE(*g.eccEnabled, true);
        QCOMPARE(g.tests.size(), 9);
        const TestResult *bw = g.test(QStringLiteral("device_bandwidth"));
        QVERIFY(bw);
        QCOMPARE(*bw->measured, 4425.3);
        QCOMPARE(*bw->ratio, 0.9);
        QCOMPARE(bw->unit, QStringLiteral("GB/s"));
        QCOMPARE(bw->details.value(QStringLiteral("triad_gbs")).toDouble(), 4390.1);
        QVERIFY(!g.test(QStringLiteral("identity"))->ratio); // null stays unknown
    }

    void parsesNoDriver()
    {
        const Report r = report("no-driver-error.json");
        QCOMPARE(r.verdict, Verdict::Error);
        QVERIFY(r.gpus.isEmpty());
        QVERIFY(r.driverVersion.isEmpty());
        QVERIFY(!r.cudaDriverApi);
        QVERIFY(r.errors.first().contains(QStringLiteral("No NVIDIA driver found")));
        const Assessment a = assess(r, SpecTable::builtIn());
        QCOMPARE(a.verdict, Verdict::Error);
        QVERIFY(a.headline.contains(QStringLiteral("No NVIDIA driver found")));
    }

    void rejectsBadDocuments_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("Segmentation fault") << "printed no JSON";
        QTest::newRow("truncated") << QByteArray(R"({"schema": "gantry-verify/1", "gpus": [)") << "not valid JSON";
        QTest::newRow("no schema") << QByteArray(R"({"gpus": []})") << "no \"schema\"";
        QTest::newRow("future schema") << QByteArray(R"({"schema": "gantry-verify/2"})") << "gantry-verify/2";
    }
    void rejectsBadDocuments()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        const auto r = parseReport(json);
        QVERIFY(!r);
        QCOMPARE(r.error().code, gantry::ErrorCode::Parse);
        QVERIFY2(r.error().message.contains(expected), qPrintable(r.error().message));
    }

    void toleratesBannerBeforeJson()
    {
        const auto r = parseReport("Welcome to the instance!\n" + data("h200-pass.json"));
        QVERIFY(r);
        QCOMPARE(r->gpus.size(), 1);
    }

    void reportRoundTrip()
    {
        Report r = report("a100-lowbw-warn.json");
        r.method = Method::BuiltOnInstance;
        r.methodReason = QStringLiteral("because");
        const auto again = parseReport(QJsonDocument(reportToJson(r)).toJson());
        QVERIFY(again);
        QCOMPARE(again->method, Method::BuiltOnInstance);
        QCOMPARE(again->methodReason, QStringLiteral("because"));
        QCOMPARE(again->gpus.first().tests.size(), r.gpus.first().tests.size());
    }

    void progressLines()
    {
        auto p = parseProgressLine(QStringLiteral("gantry-verify: [ 42%] device_bandwidth: copy 3.9 TB/s"));
        QVERIFY(p);
        QCOMPARE(p->percent, 42);
        QCOMPARE(p->text, QStringLiteral("device_bandwidth: copy 3.9 TB/s"));
        p = parseProgressLine(QStringLiteral("gantry-verify: [100%] done"));
        QCOMPARE(p->percent, 100);
        p = parseProgressLine(QStringLiteral("gantry-verify: warning: NVML missing"));
        QVERIFY(p);
        QCOMPARE(p->percent, -1);
        QVERIFY(!parseProgressLine(QStringLiteral("some other tool output")));
    }

    // --- assessment -------------------------------------------------------------------------
    void assessH200Pass()
    {
        Advertised adv;
        adv.gpuModel = QStringLiteral("H200 SXM");
        adv.gpuCount = 1;
        adv.vramGib = 141;
        adv.hourlyPriceUsd = 3.31;
        const Assessment a = assess(report("h200-pass.json"), SpecTable::builtIn(), adv);
        QCOMPARE(a.verdict, Verdict::Pass);
        QVERIFY2(a.findings.isEmpty(), qPrintable(a.findings.isEmpty() ? QString() : a.findings.first().message));
        QVERIFY(a.headline.startsWith(QStringLiteral("PASS")));
        QCOMPARE(a.comparisons.size(), 1);
        const SpecComparison &c = a.comparisons.first();
        QCOMPARE(c.specId, QStringLiteral("h200-sxm"));
        QCOMPARE(*c.specBandwidthGbs, 4800.0);
        QVERIFY(qAbs(*SpecComparison::ratio(c.bandwidthGbs, c.specBandwidthGbs) - 0.922) < 0.001);
        QCOMPARE(*c.tensorTflops, 664.5); // best of BF16/FP16
        QCOMPARE(*a.totalTensorTflops, 664.5);
        QVERIFY(qAbs(*a.usdPerTflopHour - 3.31 / 664.5) < 1e-9);
    }

    void assessA100Warn()
    {
        const Assessment a = assess(report("a100-lowbw-warn.json"), SpecTable::builtIn());
        QCOMPARE(a.verdict, Verdict::Warn);
        QVERIFY(a.headline.startsWith(QStringLiteral("WARN")));
        QCOMPARE(a.comparisons.first().specId, QStringLiteral("a100-80gb-sxm"));
    }

    void assessMiscompareFails()
    {
        const Report r = report("rtx4090x2-miscompare-fail.json");
        const Assessment a = assess(r, SpecTable::builtIn());
        QCOMPARE(a.verdict, Verdict::Fail);
        QCOMPARE(effectiveStatus(*r.gpus.at(1).test(QStringLiteral("memory_integrity"))), Verdict::Fail);
        QCOMPARE(a.comparisons.size(), 2);
    }

    // The app re-applies the thresholds: an older program that said "pass" at 0.60 still warns.
    void rejudgesLenientProgram()
    {
        Report r = report("h200-pass.json");
        TestResult &bw = r.gpus.first().tests[2];
        QCOMPARE(bw.id, QStringLiteral("device_bandwidth"));
        bw.ratio = 0.60;
        const Assessment a = assess(r, SpecTable::builtIn());
        QCOMPARE(a.verdict, Verdict::Fail);
        QCOMPARE(a.findings.first().id, QStringLiteral("rejudged-device_bandwidth"));
    }

    void advertisedMismatches()
    {
        Advertised adv;
        adv.gpuModel = QStringLiteral("H100 SXM");
        adv.gpuCount = 2;
        adv.vramGib = 80;
        const Assessment a = assess(report("a100-lowbw-warn.json"), SpecTable::builtIn(), adv);
        QCOMPARE(a.verdict, Verdict::Fail);
        QStringList ids;
        for (const Finding &f : a.findings)
            ids.append(f.id);
        QVERIFY(ids.contains(QStringLiteral("advertised-count")));
        QVERIFY(ids.contains(QStringLiteral("advertised-model")));

        // Same family, other variant: a warning, not a failure.
        Advertised pcie;
        pcie.gpuModel = QStringLiteral("A100 80GB PCIe");
        const Assessment b = assess(report("a100-lowbw-warn.json"), SpecTable::builtIn(), pcie);
        bool variantWarn = false;
        for (const Finding &f : b.findings)
            variantWarn |= f.id == QLatin1StringView("advertised-model") && f.status == Verdict::Warn;
        QVERIFY(variantWarn);

        Advertised vram;
        vram.vramGib = 141;
        const Assessment c = assess(report("a100-lowbw-warn.json"), SpecTable::builtIn(), vram);
        QCOMPARE(c.findings.last().id, QStringLiteral("advertised-vram"));
    }

    void identityFindings()
    {
        Report r = report("h200-pass.json");
        GpuResult &g = r.gpus.first();
        g.memoryTotalMib = 71424; // half the memory (a MIG slice or a different SKU)
        g.powerLimitW = 500;
        g.migEnabled = true;
        const Assessment a = assess(r, SpecTable::builtIn());
        QCOMPARE(a.verdict, Verdict::Fail);
        QStringList ids;
        for (const Finding &f : a.findings)
            ids.append(f.id);
        QVERIFY(ids.contains(QStringLiteral("spec-memory")));
        QVERIFY(ids.contains(QStringLiteral("power-capped")));
        QVERIFY(ids.contains(QStringLiteral("mig")));
    }

    // The PyTorch fallback reports no expected values: the spec sheet is the reference.
    void torchReportJudgedBySpec()
    {
        QByteArray json = R"({"schema":"gantry-verify/1","mode":"torch","verdict":"pass","errors":[],"gpus":[
          {"index":0,"name":"NVIDIA H100 80GB HBM3","verdict":"pass","tests":[
            {"id":"device_bandwidth","name":"copy","status":"pass","measured":1500,"expected":null,"unit":"GB/s","ratio":null},
            {"id":"tensor_bf16","name":"matmul","status":"pass","measured":720,"expected":null,"unit":"TFLOPS","ratio":null}]}]})";
        const auto r = parseReport(json);
        QVERIFY(r);
        const Assessment a = assess(*r, SpecTable::builtIn());
        QCOMPARE(a.verdict, Verdict::Fail); // 1500 of 3350 GB/s = 0.45
        QCOMPARE(a.findings.first().id, QStringLiteral("spec-device_bandwidth"));
    }

    // --- nvidia-smi -q parser ---------------------------------------------------------------
    void smiQueryParser()
    {
        const SmiQuery q = parseSmiQuery(fixture("q-h200-driver590.48.01-linux-load-nvgpuexp.txt"));
        QCOMPARE(q.driverVersion, QStringLiteral("590.48.01"));
        QCOMPARE(q.cudaVersion, QStringLiteral("13.1"));
        QCOMPARE(q.gpus.size(), 1);
        const SmiGpu &g = q.gpus.first();
        QCOMPARE(g.busId, QStringLiteral("00000000:83:00.0"));
        QCOMPARE(g.name(), QStringLiteral("NVIDIA H200"));
        QCOMPARE(g.value(QStringLiteral("PCI/GPU Link Info/Link Width/Max")), QStringLiteral("16x"));
        QCOMPARE(g.value(QStringLiteral("MIG Mode/Current")), QStringLiteral("Disabled"));
        QCOMPARE(g.value(QStringLiteral("Remapped Rows/Pending")), QStringLiteral("No"));
        QCOMPARE(leadingInt(g.value(QStringLiteral("FB Memory Usage/Total"))), 143771);

        const SmiQuery eight = parseSmiQuery(fixture("q-h100x8-driver535.161.08-gpud.txt"));
        QCOMPARE(eight.gpus.size(), 8);
        QCOMPARE(eight.driverVersion, QStringLiteral("535.161.08"));

        const SmiQuery kmd = parseSmiQuery(fixture("q-rtx2080super-driver610.57.04-linux-idle-nvgpuexp.txt"));
        QCOMPARE(kmd.driverVersion, QStringLiteral("610.57.04"));
        QCOMPARE(kmd.cudaVersion, QStringLiteral("13.3"));
    }

    // --- doctor on recorded outputs ---------------------------------------------------------
    void doctorHealthyH200()
    {
        DoctorBuilder b;
        b.gpuBox(fixture("q-h200-driver590.48.01-linux-idle-nvgpuexp.txt"))
            .section("retired-pages", fixture("csv-retired-pages-h200-driver590.48.01-linux-idle-nvgpuexp.txt"))
            .section("topo", fixture("topo-m-h200-driver590.48.01-linux-nvgpuexp.txt"))
            .healthyRest();
        const auto checks = b.evaluate();
        for (const DoctorCheck &c : checks)
            QVERIFY2(c.status == CheckStatus::Ok, qPrintable(c.id + QStringLiteral(": ") + c.message));
        QVERIFY(find(checks, "nvidia-smi")->message.contains(QStringLiteral("590.48.01")));
        QVERIFY(!anyFailed(checks));
        const QJsonObject json = doctorToJson(checks);
        const QJsonObject first = json.value(QStringLiteral("checks")).toArray().first().toObject();
        QCOMPARE(first.keys(), (QStringList{QStringLiteral("fix"), QStringLiteral("id"), QStringLiteral("message"),
                                            QStringLiteral("status")}));
        QCOMPARE(first.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    }

    void doctorGpuInUse()
    {
        DoctorBuilder b;
        b.gpuBox(fixture("q-h200-driver590.48.01-linux-load-nvgpuexp.txt")).healthyRest();
        const QList<DoctorCheck> checks = b.evaluate();
        const DoctorCheck *c = find(checks, "gpu-in-use");
        QCOMPARE(c->status, CheckStatus::Warn);
        QVERIFY(c->message.contains(QStringLiteral("./gpu_burn (pid 10309)")));
        QVERIFY(!c->fix.isEmpty());
    }

    void doctorGpuInUseFromComputeApps()
    {
        DoctorBuilder b;
        b.gpuBox(fixture("q-h200-driver590.48.01-linux-idle-nvgpuexp.txt"))
            .section("compute-apps", fixture("csv-compute-apps-h100-80gb-hbm3-driver590.48.01-linux-load-nvgpuexp.txt")
                                         .section(QLatin1Char('\n'), 0, 0)
                                     + QStringLiteral("\nGPU-28780eb0-24d5-1f13-59b8-ae5c23617a72, 1758887, [Not Found], 58060 MiB"))
            .healthyRest();
        const QList<DoctorCheck> checks = b.evaluate();
        const DoctorCheck *c = find(checks, "gpu-in-use");
        QCOMPARE(c->status, CheckStatus::Warn);
        QVERIFY(c->message.contains(QStringLiteral("1758887")));
    }

    void doctorHgxH100()
    {
        // 8 × H100 SXM on driver 535 with HW power-brake slowdown on some GPUs.
        DoctorBuilder b;
        b.gpuBox(fixture("q-h100x8-driver535.161.08-gpud.txt")).healthyRest();
        const auto checks = b.evaluate();
        QCOMPARE(find(checks, "driver-version")->status, CheckStatus::Warn);
        QVERIFY(find(checks, "driver-version")->message.contains(QStringLiteral("535.161.08")));
        QCOMPARE(find(checks, "clocks")->status, CheckStatus::Fail);
        QVERIFY(find(checks, "clocks")->message.contains(QStringLiteral("HW Power Brake Slowdown")));
        const DoctorCheck *fm = find(checks, "fabric-manager");
        QCOMPARE(fm->status, CheckStatus::Fail);
        QVERIFY(fm->message.contains(QStringLiteral("NVSwitch")));
        QVERIFY(fm->fix.contains(QStringLiteral("nvidia-fabricmanager")));

        DoctorBuilder running;
        running.gpuBox(fixture("q-h100x8-driver535.161.08-gpud.txt"), "active").healthyRest();
        const QList<DoctorCheck> runningChecks = running.evaluate();
        QCOMPARE(find(runningChecks, "fabric-manager")->status, CheckStatus::Ok);
    }

    // In a container (RunPod…) systemd is not PID 1: systemctl cannot see Fabric Manager.
    void doctorFabricManagerInAContainer()
    {
        QString smi = fixture("q-h100x8-driver535.161.08-gpud.txt");
        DoctorBuilder completed;
        completed.gpuBox(smi, "no systemd").healthyRest();
        const QList<DoctorCheck> seen = completed.evaluate();
        QCOMPARE(find(seen, "fabric-manager")->status, CheckStatus::Ok);
        QVERIFY(find(seen, "fabric-manager")->message.contains(QStringLiteral("initialised")));

        smi.replace(QRegularExpression(QStringLiteral("(State\\s+:) Completed")), QStringLiteral("\\1 N/A"));
        DoctorBuilder unknown;
        unknown.gpuBox(smi, "System has not been booted with systemd as init system (PID 1). Can't operate.").healthyRest();
        const QList<DoctorCheck> checks = unknown.evaluate();
        const DoctorCheck *fm = find(checks, "fabric-manager");
        QCOMPARE(fm->status, CheckStatus::Warn);
        QVERIFY2(fm->message.contains(QStringLiteral("cannot be told")), qPrintable(fm->message));
        QVERIFY(fm->fix.contains(QStringLiteral("nvidia-smi -q | grep -A2 Fabric")));
        QVERIFY(!fm->message.contains(QStringLiteral("802")));
    }

    void doctorError802()
    {
        DoctorBuilder b;
        b.gpuBox(fixture("q-h200-driver590.48.01-linux-idle-nvgpuexp.txt"))
            .section("python", QStringLiteral("python=3.10.12\ntorch=2.5.1+cu124\ntorch_cuda=12.4\n"
                                              "/usr/lib/python3/dist-packages/torch/cuda/__init__.py:129: UserWarning: "
                                              "CUDA initialization: Unexpected error from cudaGetDeviceCount(). Error 802: "
                                              "system not yet initialized\ncuda_available=0"));
        const auto checks = b.evaluate();
        QCOMPARE(find(checks, "fabric-manager")->status, CheckStatus::Fail);
        QVERIFY(find(checks, "fabric-manager")->message.contains(QStringLiteral("802")));
        QCOMPARE(find(checks, "pytorch")->status, CheckStatus::Fail);
    }

    void doctorRowRemapPending()
    {
        DoctorBuilder b;
        b.gpuBox(fixture("q-a10-driver535.129.03-gpud.txt")).healthyRest();
        const QList<DoctorCheck> cChecks = b.evaluate();
        const DoctorCheck *c = find(cChecks, "ecc");
        QCOMPARE(c->status, CheckStatus::Fail);
        QVERIFY(c->message.contains(QStringLiteral("row remap pending")));
        QVERIFY(c->fix.contains(QStringLiteral("nvidia-smi -r")));
    }

    void doctorRetiredPagesPlaceholderRowsAreNotPages()
    {
        DoctorBuilder b;
        b.gpuBox(fixture("q-l40s-driver595.80-linux-idle-nvgpuexp.txt"))
            .section("retired-pages", fixture("csv-retired-pages-l40s-driver595.80-linux-load-nvgpuexp.txt"))
            .healthyRest();
        QCOMPARE(statusOf(b.evaluate(), "ecc"), CheckStatus::Ok);

        DoctorBuilder retired;
        retired.gpuBox(fixture("q-l40s-driver595.80-linux-idle-nvgpuexp.txt"))
            .section("retired-pages", QStringLiteral("gpu_bus_id, retired_pages.address, retired_pages.cause\n"
                                                     "00000000:01:00.0, 0x000000000012a000, Double Bit ECC"))
            .healthyRest();
        QCOMPARE(statusOf(retired.evaluate(), "ecc"), CheckStatus::Warn);
    }

    void doctorMig()
    {
        DoctorBuilder b;
        b.gpuBox(fixture("q-h200-mig-driver590.48.01-linux-idle-nvgpuexp.txt")).healthyRest();
        const QList<DoctorCheck> cChecks = b.evaluate();
        const DoctorCheck *c = find(cChecks, "mig");
        QCOMPARE(c->status, CheckStatus::Warn);
        QVERIFY(c->fix.contains(QStringLiteral("-mig 0")));
    }

    void doctorPcie()
    {
        DoctorBuilder narrow;
        narrow.gpuBox(fixture("q-l4-driver550.90.07-gls.txt")).healthyRest();
        const QList<DoctorCheck> cChecks = narrow.evaluate();
        const DoctorCheck *c = find(cChecks, "pcie");
        QCOMPARE(c->status, CheckStatus::Warn);
        QVERIFY(c->message.contains(QStringLiteral("x8 of x16")));

        // Idle at Gen1 of Gen4 is power saving, not a fault.
        DoctorBuilder idle;
        idle.gpuBox(fixture("q-l40s-driver550.127.05-gls.txt")).healthyRest();
        QCOMPARE(statusOf(idle.evaluate(), "pcie"), CheckStatus::Ok);
    }

    void doctorSmiFailures_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("fix");
        QTest::newRow("nvml mismatch") << "err-nvml-mismatch-driver470-popos18.txt" << "mismatch" << "Reboot";
        QTest::newRow("nvml mismatch + lib") << "err-nvml-mismatch-with-library-version-driver570-tinygrad47.txt"
                                             << "570.124" << "Reboot";
        QTest::newRow("no driver") << "err-driver-not-communicating-shinecluster50.txt" << "kernel module" << "reinstall";
        QTest::newRow("no devices") << "err-no-devices-found-rtx5090-ogkm862.txt" << "sees no GPU" << "--gpus all";
        QTest::newRow("gpu lost") << "err-gpu-lost-device-handle-owod81.txt" << "fallen off the bus" << "Reboot";
        QTest::newRow("unknown error") << "err-unknown-error-device-handle-dcgmexporter604.txt" << "Unknown Error" << "Reboot";
    }
    void doctorSmiFailures()
    {
        QFETCH(QString, file);
        QFETCH(QString, message);
        QFETCH(QString, fix);
        DoctorBuilder b;
        b.section("arch", QStringLiteral("x86_64"))
            .section("nvidia-smi-path", QStringLiteral("/usr/bin/nvidia-smi"))
            .section("smi-q", fixture(file.toUtf8().constData()), file.contains(QLatin1StringView("nvml")) ? 18 : 9)
            .healthyRest();
        const auto checks = b.evaluate();
        const DoctorCheck *c = find(checks, "nvidia-smi");
        QCOMPARE(c->status, CheckStatus::Fail);
        QVERIFY2(c->message.contains(message), qPrintable(c->message));
        QVERIFY2(c->fix.contains(fix), qPrintable(c->fix));
        QVERIFY(!find(checks, "mig")); // GPU checks need a working nvidia-smi
    }

    void doctorNoNvidiaSmi()
    {
        DoctorBuilder b;
        b.section("arch", QStringLiteral("x86_64")).section("nvidia-smi-path", QString(), 1).healthyRest();
        const auto checks = b.evaluate();
        const DoctorCheck *c = find(checks, "nvidia-smi");
        QCOMPARE(c->status, CheckStatus::Fail);
        QVERIFY(c->message.contains(QStringLiteral("No NVIDIA GPU/driver found")));
        QVERIFY(c->fix.contains(QStringLiteral("nvidia-driver")));
        QVERIFY(anyFailed(checks));
        QCOMPARE(find(checks, "disk")->status, CheckStatus::Ok);
    }

    // One row per cause: without a driver, a CPU-only PyTorch is the same problem (issue 14 item 9:
    // Doctor showed two Fail rows for the one missing GPU). The fix names the one driver Gantry
    // recommends everywhere (kRecommendedDriverMajor; Overview used to say 550).
    void doctorOneRowPerCause()
    {
        DoctorBuilder b;
        b.section("arch", QStringLiteral("x86_64"))
            .section("nvidia-smi-path", QString(), 1)
            .section("python", QStringLiteral("python=3.12.3\ntorch=2.9.0+cpu\ntorch_cuda=None\ncuda_available=0"));
        const auto checks = b.evaluate();
        QCOMPARE(std::count_if(checks.cbegin(), checks.cend(), [](const DoctorCheck &c) { return c.status == CheckStatus::Fail; }), 1);
        QVERIFY(!find(checks, "pytorch"));
        const QString driver = QStringLiteral("nvidia-driver-%1").arg(kRecommendedDriverMajor);
        QVERIFY2(find(checks, "nvidia-smi")->fix.contains(driver), qPrintable(find(checks, "nvidia-smi")->fix));
        QCOMPARE(DoctorOptions{}.requiredDriverMajor, kRecommendedDriverMajor);
        const MachineFacts facts = parseMachineFacts("@@gpus\n__none__\n@@end\n");
        QCOMPARE(facts.problems.size(), 1);
        QVERIFY2(facts.problems.first().fix.contains(driver), qPrintable(facts.problems.first().fix));
    }

    void doctorTorchBuiltForNewerCuda()
    {
        DoctorBuilder b;
        b.gpuBox(fixture("q-a10-driver535.129.03-gpud.txt"))
            .section("python", QStringLiteral("python=3.12.3\ntorch=2.9.0+cu130\ntorch_cuda=13.0\ncuda_available=0"));
        const QList<DoctorCheck> cChecks = b.evaluate();
        const DoctorCheck *c = find(cChecks, "pytorch");
        QCOMPARE(c->status, CheckStatus::Fail);
        QVERIFY(c->message.contains(QStringLiteral("CUDA 13.0")));
        QVERIFY(c->message.contains(QStringLiteral("12.2")));
        QVERIFY(c->fix.contains(QStringLiteral("whl/cu121")));

        DoctorBuilder cpu;
        cpu.gpuBox(fixture("q-h200-driver590.48.01-linux-idle-nvgpuexp.txt"))
            .section("python", QStringLiteral("python=3.12.3\ntorch=2.9.0+cpu\ntorch_cuda=None\ncuda_available=0"));
        const QList<DoctorCheck> dChecks = cpu.evaluate();
        const DoctorCheck *d = find(dChecks, "pytorch");
        QCOMPARE(d->status, CheckStatus::Fail);
        QVERIFY(d->message.contains(QStringLiteral("CPU-only")));
        QVERIFY(d->fix.contains(QStringLiteral("whl/cu130")));
    }

    void doctorDisk()
    {
        DoctorBuilder b;
        b.section("arch", QStringLiteral("x86_64")).section("nvidia-smi-path", QString(), 1)
            .section("df", QStringLiteral("Filesystem 1024-blocks Used Available Capacity Mounted on\n"
                                          "overlay 52428800 51380224 1048576 98% /\n"
                                          "shm 65536 0 65536 0% /dev/shm"));
        const QList<DoctorCheck> cChecks = b.evaluate();
        const DoctorCheck *c = find(cChecks, "disk");
        QCOMPARE(c->status, CheckStatus::Fail);
        QVERIFY(c->message.contains(QStringLiteral("/ 98% full")));
        QVERIFY(c->message.contains(QStringLiteral("/dev/shm")));
    }

    void doctorIncomplete()
    {
        const auto checks = evaluateDoctor(parseDoctorOutput("\n@@gantry arch@@\nx86_64\n@@rc 0@@\n"), SpecTable::builtIn());
        QCOMPARE(find(checks, "doctor")->status, CheckStatus::Warn);
    }

    // The real script, run here (no GPU): sections parse and the verdict is "no driver".
    void doctorScriptRunsLocally()
    {
        QProcess sh;
        sh.setProcessEnvironment([] {
            auto env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
            return env;
        }());
        sh.start(QStringLiteral("/bin/sh"), {QStringLiteral("-s")});
        sh.write(doctorScript());
        sh.closeWriteChannel();
        QVERIFY(sh.waitForFinished(60000));
        const DoctorOutput out = parseDoctorOutput(sh.readAllStandardOutput());
        QVERIFY(out.complete);
        QVERIFY(out.has(QStringLiteral("arch")));
        QVERIFY(out.has(QStringLiteral("df")));
        const Probe p = probeFromDoctor(out);
        QVERIFY(!p.arch.isEmpty());
        if (!p.smiPresent) {
            QCOMPARE(statusOf(evaluateDoctor(out, SpecTable::builtIn()), "nvidia-smi"), CheckStatus::Fail);
        }
    }

    // --- fallback plan ----------------------------------------------------------------------
    void plan_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("driver");      // "" = no nvidia-smi, "broken" = nvidia-smi fails
        QTest::addColumn<QString>("driverCuda");
        QTest::addColumn<QString>("nvcc");
        QTest::addColumn<bool>("torchCuda");
        QTest::addColumn<bool>("binary");
        QTest::addColumn<bool>("sources");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("reason");
        QTest::newRow("no driver") << "x86_64" << "" << "" << "" << false << true << true << "diagnosis-only"
                                   << "No NVIDIA GPU/driver found";
        QTest::newRow("broken driver") << "x86_64" << "broken" << "" << "12.4" << false << true << true
                                       << "diagnosis-only" << "does not work";
        QTest::newRow("broken driver, torch works") << "x86_64" << "broken" << "" << "" << true << true << true
                                                    << "pytorch" << "PyTorch";
        QTest::newRow("new driver") << "x86_64" << "580.95.05" << "13.0" << "" << false << true << false
                                    << "bundled-binary" << "580.95.05";
        QTest::newRow("old driver, nvcc 12.4") << "x86_64" << "550.90.07" << "12.4" << "12.4" << true << true << true
                                               << "built-on-instance" << "older than the bundled";
        QTest::newRow("old driver, nvcc too new") << "x86_64" << "535.129.03" << "12.2" << "13.0" << true << true << true
                                                  << "pytorch" << "newer than its driver";
        QTest::newRow("old driver, nothing") << "x86_64" << "535.129.03" << "12.2" << "" << false << true << true
                                             << "diagnosis-only" << "no nvcc";
        QTest::newRow("arm64 GH200 with nvcc") << "aarch64" << "580.95.05" << "13.0" << "13.0" << false << true << true
                                               << "built-on-instance" << "aarch64";
        QTest::newRow("no binary built") << "x86_64" << "580.95.05" << "13.0" << "" << true << false << false
                                         << "pytorch" << "no built gantry-verify";
    }
    void plan()
    {
        QFETCH(QString, arch);
        QFETCH(QString, driver);
        QFETCH(QString, driverCuda);
        QFETCH(QString, nvcc);
        QFETCH(bool, torchCuda);
        QFETCH(bool, binary);
        QFETCH(bool, sources);
        QFETCH(QString, method);
        QFETCH(QString, reason);
        DoctorBuilder b;
        b.section("arch", arch);
        if (driver.isEmpty()) {
            b.section("nvidia-smi-path", QString(), 1);
        } else if (driver == QLatin1StringView("broken")) {
            b.section("nvidia-smi-path", QStringLiteral("/usr/bin/nvidia-smi"));
            b.section("smi-q", fixture("err-nvml-mismatch-driver470-popos18.txt"), 18);
        } else {
            b.section("nvidia-smi-path", QStringLiteral("/usr/bin/nvidia-smi"));
            b.section("smi-q", fixture("q-h200-driver590.48.01-linux-idle-nvgpuexp.txt")
                                   .replace(QStringLiteral("590.48.01"), driver)
                                   .replace(QStringLiteral(": 13.1"), QStringLiteral(": ") + driverCuda));
        }
        if (nvcc.isEmpty())
            b.section("nvcc", QString(), 127);
        else
            b.section("nvcc", QStringLiteral("/usr/local/cuda/bin/nvcc\nCuda compilation tools, release %1, V%1.88").arg(nvcc));
        b.section("python", torchCuda ? QStringLiteral("python=3.11\ntorch=2.5.1\ntorch_cuda=12.4\ncuda_available=1\n")
                                      : QStringLiteral("python=3.11\ntorch=none"));
        const Probe probe = probeFromDoctor(parseDoctorOutput(b.text));
        QCOMPARE(probe.torchCuda, torchCuda);
        const Plan p = choosePlan(probe, PlanInputs{binary, QStringLiteral("x86_64"), 580, sources});
        QCOMPARE(methodName(p.method), method);
        QVERIFY2(p.reason.contains(reason), qPrintable(p.reason));
    }

    // gantry-verify carries a low-ISA PTX fallback, so with the default inputs an R535 box still
    // runs the uploaded binary (it exits 4 itself when the driver is older than CUDA 11.0).
    void planDefaultsTrustTheBinaryOnOlderDrivers()
    {
        DoctorBuilder b;
        b.gpuBox(fixture("q-h100x8-driver535.161.08-gpud.txt")).healthyRest();
        PlanInputs inputs;
        inputs.binaryAvailable = true;
        const Plan p = choosePlan(probeFromDoctor(parseDoctorOutput(b.text)), inputs);
        QCOMPARE(p.method, Method::BundledBinary);
        QVERIFY(p.reason.contains(QStringLiteral("535.161.08")));
    }

    // --- history ----------------------------------------------------------------------------
    void history()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Advertised adv;
        adv.provider = QStringLiteral("lambda");
        adv.instanceType = QStringLiteral("gpu_1x_h200");
        adv.hourlyPriceUsd = 3.29;
        const Report h200 = report("h200-pass.json");
        const Assessment a = assess(h200, SpecTable::builtIn(), adv);
        {
            HistoryStore store(dir.path());
            QVERIFY(store.open());
            const QDateTime t0(QDate(2026, 11, 30), QTime(12, 0), Qt::UTC);
            QVERIFY(store.add(HistoryEntry::fromRun(h200, a, adv, QStringLiteral("h200-box"), t0)));
            const Report a100 = report("a100-lowbw-warn.json");
            QVERIFY(store.add(HistoryEntry::fromRun(a100, assess(a100, SpecTable::builtIn()), Advertised{},
                                                    QStringLiteral("a100-box"), t0.addSecs(60))));
            const auto all = store.list();
            QVERIFY(all);
            QCOMPARE(all->size(), 2);
            QCOMPARE(all->first().host, QStringLiteral("a100-box")); // newest first
            QVERIFY(!all->first().usdPerTflopHour);                  // price unknown
        }
        HistoryStore again(dir.path()); // persisted, and a second connection name works
        QVERIFY(again.open());
        const auto lambda = again.list(QStringLiteral("lambda"), QStringLiteral("gpu_1x_h200"));
        QVERIFY(lambda);
        QCOMPARE(lambda->size(), 1);
        const HistoryEntry &e = lambda->first();
        QCOMPARE(e.verdict, Verdict::Pass);
        QCOMPARE(e.gpuName, QStringLiteral("NVIDIA H200"));
        QCOMPARE(e.method, QStringLiteral("bundled-binary"));
        QCOMPARE(*e.bandwidthGbs, 4425.3);
        QCOMPARE(*e.tensorTflops, 664.5);
        QCOMPARE(*e.hourlyPriceUsd, 3.29);
        QVERIFY(qAbs(*e.usdPerTflopHour - 3.29 / 664.5) < 1e-9);
        QCOMPARE(e.time, QDateTime(QDate(2026, 11, 30), QTime(12, 0), Qt::UTC));
        QVERIFY(parseReport(e.reportJson.toUtf8()));
    }
};

QTEST_GUILESS_MAIN(TestVerifyCore)
#include "test_verify_core.moc"
