#include "core/verify/assessment.h"
#include "core/verify/verifytext.h"

#include <QCoreApplication>

#include <cmath>

namespace gantry::verify {
namespace {

QString gpuLabel(const GpuResult &gpu)
{
    return QStringLiteral("GPU %1 (%2)").arg(gpu.index).arg(gpu.name);
}

QString fmt(double value, int precision = 1)
{
    return QString::number(value, 'f', precision);
}

std::optional<double> measuredOf(const GpuResult &gpu, const QString &id)
{
    const TestResult *test = gpu.test(id);
    if (!test || !test->measured || test->status == Verdict::Skip || test->status == Verdict::Error)
        return std::nullopt;
    return test->measured;
}

// Converts a measurement to a common unit: GB/s for bandwidth, TFLOPS for compute.
std::optional<double> inUnit(const GpuResult &gpu, const QString &id, bool bandwidth)
{
    const TestResult *test = gpu.test(id);
    const std::optional<double> value = measuredOf(gpu, id);
    if (!value)
        return std::nullopt;
    const QString unit = test->unit.toLower();
    if (bandwidth) {
        if (unit.startsWith(QLatin1StringView("tb/s")))
            return *value * 1000.0;
        if (unit.startsWith(QLatin1StringView("mb/s")))
            return *value / 1000.0;
        return value;
    }
    if (unit.startsWith(QLatin1StringView("gflop")))
        return *value / 1000.0;
    return value;
}

void add(Assessment &a, QString id, int gpu, Verdict status, QString message)
{
    a.findings.append(Finding{std::move(id), gpu, status, std::move(message)});
}

void compareIdentity(Assessment &a, const GpuResult &gpu, const GpuSpec &spec)
{
    if (const auto expected = spec.expectedMemoryMib(); expected && gpu.memoryTotalMib && *expected > 0) {
        const double ratio = *gpu.memoryTotalMib / *expected;
        // GDDR boards with ECC on report ~6 % less (L40S 46068 vs 49140 MiB): that is still whole.
        const Verdict status = ratio >= 0.92 ? Verdict::Pass : ratio >= 0.85 ? Verdict::Warn : Verdict::Fail;
        if (status != Verdict::Pass) {
            add(a, QStringLiteral("spec-memory"), gpu.index, status,
                VerifyText::tr("%1 shows %2 MiB of memory; a %3 has about %4 MiB. Part of the memory is missing or "
                                   "reserved: ask the provider, or pick another instance.")
                    .arg(gpuLabel(gpu), fmt(*gpu.memoryTotalMib, 0), spec.model, fmt(*expected, 0)));
        }
    }
    if (spec.smCount && gpu.smCount && std::lround(*spec.smCount) != std::lround(*gpu.smCount)) {
        add(a, QStringLiteral("spec-sm-count"), gpu.index, Verdict::Warn,
            VerifyText::tr("%1 has %2 SMs; a %3 has %4. It may be a cut-down variant of the chip.")
                .arg(gpuLabel(gpu), fmt(*gpu.smCount, 0), spec.model, fmt(*spec.smCount, 0)));
    }
    if (spec.busWidthBits && gpu.busWidthBits && std::lround(*spec.busWidthBits) != std::lround(*gpu.busWidthBits)) {
        add(a, QStringLiteral("spec-bus-width"), gpu.index, Verdict::Warn,
            VerifyText::tr("%1 has a %2-bit memory bus; a %3 has %4 bits.")
                .arg(gpuLabel(gpu), fmt(*gpu.busWidthBits, 0), spec.model, fmt(*spec.busWidthBits, 0)));
    }
    if (gpu.powerLimitW && gpu.defaultPowerLimitW && *gpu.powerLimitW < *gpu.defaultPowerLimitW * 0.97) {
        add(a, QStringLiteral("power-capped"), gpu.index, Verdict::Warn,
            VerifyText::tr("%1 is power-capped at %2 W (default %3 W), so it cannot reach full speed. Ask the provider, "
                               "or run `sudo nvidia-smi -pl %3` if you have root.")
                .arg(gpuLabel(gpu), fmt(*gpu.powerLimitW, 0), fmt(*gpu.defaultPowerLimitW, 0)));
    }
    if (spec.pcieGen && gpu.pcieGenMax && *gpu.pcieGenMax < *spec.pcieGen) {
        add(a, QStringLiteral("spec-pcie"), gpu.index, Verdict::Warn,
            VerifyText::tr("%1's PCIe link tops out at Gen%2; a %3 supports Gen%4 (the slot or riser limits it).")
                .arg(gpuLabel(gpu), fmt(*gpu.pcieGenMax, 0), spec.model, fmt(*spec.pcieGen, 0)));
    }
    if (gpu.migEnabled.value_or(false)) {
        add(a, QStringLiteral("mig"), gpu.index, Verdict::Warn,
            VerifyText::tr("%1 has MIG enabled: you rented a slice, not the whole GPU. If the whole GPU was advertised, "
                               "ask the provider (or run `sudo nvidia-smi -mig 0` and reset the GPU).")
                .arg(gpuLabel(gpu)));
    }
}

// A test without its own expected value (the PyTorch fallback) is judged against the spec sheet
// with the same thresholds.
void judgeBySpec(Assessment &a, const GpuResult &gpu, const QString &id, std::optional<double> measured,
                 std::optional<double> specValue)
{
    const TestResult *test = gpu.test(id);
    const auto thresholds = thresholdsFor(id);
    if (!test || test->ratio || !measured || !specValue || *specValue <= 0 || !thresholds)
        return;
    const double ratio = *measured / *specValue;
    const Verdict status = verdictForRatio(ratio, *thresholds);
    if (status == Verdict::Pass)
        return;
    add(a, QStringLiteral("spec-") + id, gpu.index, status,
        VerifyText::tr("%1 %2: %3 %4 is %5% of the spec sheet's %6; rerun, and if it repeats ask the provider.")
            .arg(gpuLabel(gpu), test->name, fmt(*measured), test->unit, fmt(ratio * 100, 0), fmt(*specValue)));
}

void compareAdvertised(Assessment &a, const Report &report, const SpecTable &specs, const Advertised &adv)
{
    if (adv.gpuCount > 0 && report.gpus.size() < adv.gpuCount) {
        add(a, QStringLiteral("advertised-count"), -1, Verdict::Fail,
            VerifyText::tr("The instance type advertises %n GPU(s) but only %1 answered. Ask the provider for a refund "
                               "or relaunch.", nullptr, adv.gpuCount)
                .arg(report.gpus.size()));
    }
    if (!adv.gpuModel.isEmpty()) {
        const GpuSpec *advertisedSpec = specs.matchAdvertised(adv.gpuModel);
        const QString advertisedFamily = specs.familyOf(adv.gpuModel);
        for (const GpuResult &gpu : report.gpus) {
            const GpuSpec *actual = specs.match(gpu.name, gpu.pciDeviceId);
            if (!actual || advertisedFamily.isEmpty())
                continue; // cannot tell: say nothing rather than guess
            if (actual->family != advertisedFamily) {
                add(a, QStringLiteral("advertised-model"), gpu.index, Verdict::Fail,
                    VerifyText::tr("%1 is a %2, but the instance type advertises %3. Stop the instance and report it to "
                                       "the provider.")
                        .arg(gpuLabel(gpu), actual->model, adv.gpuModel));
            } else if (advertisedSpec && advertisedSpec->id != actual->id) {
                add(a, QStringLiteral("advertised-model"), gpu.index, Verdict::Warn,
                    VerifyText::tr("%1 is a %2, but the instance type advertises %3 (%4 GB/s vs %5 GB/s memory "
                                       "bandwidth). Check you were billed for the right variant.")
                        .arg(gpuLabel(gpu), actual->model, advertisedSpec->model,
                             fmt(actual->memoryBandwidthTbs.value_or(0) * 1000, 0),
                             fmt(advertisedSpec->memoryBandwidthTbs.value_or(0) * 1000, 0)));
            }
        }
    }
    if (adv.vramGib > 0) {
        for (const GpuResult &gpu : report.gpus) {
            if (!gpu.memoryTotalMib)
                continue;
            const double gib = *gpu.memoryTotalMib / 1024.0;
            // "80 GB" cards show 79.6 GiB; anything under 90 % is missing memory, not rounding.
            if (gib < adv.vramGib * 0.90) {
                add(a, QStringLiteral("advertised-vram"), gpu.index, Verdict::Fail,
                    VerifyText::tr("%1 has %2 GiB of memory; the instance type advertises %3 GB per GPU. Ask the "
                                       "provider, or relaunch.")
                        .arg(gpuLabel(gpu), fmt(gib), fmt(adv.vramGib, 0)));
            }
        }
    }
}

} // namespace

std::optional<double> SpecComparison::ratio(std::optional<double> measured, std::optional<double> spec)
{
    if (!measured || !spec || *spec <= 0)
        return std::nullopt;
    return *measured / *spec;
}

Verdict effectiveStatus(const TestResult &test)
{
    Verdict status = test.status;
    if (status == Verdict::Skip || status == Verdict::Error)
        return status;
    if (const auto thresholds = thresholdsFor(test.id); thresholds && test.ratio)
        status = worst(status, verdictForRatio(*test.ratio, *thresholds));
    return status;
}

Assessment assess(const Report &report, const SpecTable &specs, const Advertised &advertised)
{
    Assessment a;
    Verdict verdict = report.gpus.isEmpty() ? Verdict::Error : Verdict::Pass;
    if (!report.gpus.isEmpty())
        verdict = worst(verdict, report.verdict == Verdict::Skip ? Verdict::Pass : report.verdict);

    double tensorSum = 0;
    bool anyTensor = false;
    for (const GpuResult &gpu : report.gpus) {
        Verdict gpuVerdict = gpu.verdict == Verdict::Skip ? Verdict::Pass : gpu.verdict;
        for (const TestResult &test : gpu.tests) {
            const Verdict status = effectiveStatus(test);
            if (status != test.status && status > test.status) {
                add(a, QStringLiteral("rejudged-") + test.id, gpu.index, status,
                    VerifyText::tr("%1 %2: ratio %3 is below Gantry's threshold, so it counts as %4.")
                        .arg(gpuLabel(gpu), test.name, fmt(test.ratio.value_or(0), 2), verdictName(status)));
            }
            gpuVerdict = worst(gpuVerdict, status);
        }
        verdict = worst(verdict, gpuVerdict);

        SpecComparison c;
        c.gpuIndex = gpu.index;
        c.gpuName = gpu.name;
        c.bandwidthGbs = inUnit(gpu, QStringLiteral("device_bandwidth"), true);
        c.fp32Tflops = inUnit(gpu, QStringLiteral("fp32_fma"), false);
        const auto bf16 = inUnit(gpu, QStringLiteral("tensor_bf16"), false);
        const auto fp16 = inUnit(gpu, QStringLiteral("tensor_fp16"), false);
        if (bf16 || fp16)
            c.tensorTflops = std::max(bf16.value_or(0), fp16.value_or(0));
        if (c.tensorTflops) {
            tensorSum += *c.tensorTflops;
            anyTensor = true;
        }
        if (const GpuSpec *spec = specs.match(gpu.name, gpu.pciDeviceId)) {
            c.specId = spec->id;
            c.specModel = spec->model;
            if (spec->memoryBandwidthTbs)
                c.specBandwidthGbs = *spec->memoryBandwidthTbs * 1000.0;
            c.specFp32Tflops = spec->fp32Tflops;
            c.specTensorTflops = spec->bf16Tflops ? spec->bf16Tflops : spec->fp16Tflops;
            compareIdentity(a, gpu, *spec);
            judgeBySpec(a, gpu, QStringLiteral("device_bandwidth"), c.bandwidthGbs, c.specBandwidthGbs);
            judgeBySpec(a, gpu, QStringLiteral("tensor_bf16"), c.tensorTflops, c.specTensorTflops);
        } else {
            add(a, QStringLiteral("spec-unknown"), gpu.index, Verdict::Pass,
                VerifyText::tr("%1 is not in Gantry's spec table; it is judged by its own clocks only.").arg(gpuLabel(gpu)));
        }
        a.comparisons.append(c);
    }
    compareAdvertised(a, report, specs, advertised);
    for (const Finding &f : std::as_const(a.findings))
        verdict = worst(verdict, f.status);

    if (anyTensor) {
        a.totalTensorTflops = tensorSum;
        if (advertised.hourlyPriceUsd > 0 && tensorSum > 0)
            a.usdPerTflopHour = advertised.hourlyPriceUsd / tensorSum;
    }
    a.verdict = verdict;

    const QString upper = verdictName(verdict).toUpper();
    if (report.gpus.isEmpty()) {
        a.headline = report.errors.isEmpty() ? VerifyText::tr("ERROR: no GPU was tested")
                                             : VerifyText::tr("ERROR: %1").arg(report.errors.constFirst());
    } else {
        const QString what = QStringLiteral("%1 × %2").arg(report.gpus.size()).arg(report.gpus.constFirst().name);
        switch (verdict) {
        case Verdict::Pass:
        case Verdict::Skip: a.headline = VerifyText::tr("PASS: %1 healthy and at spec").arg(what); break;
        case Verdict::Warn: a.headline = VerifyText::tr("WARN: %1 works but underdelivers; see the warnings").arg(what); break;
        case Verdict::Fail: a.headline = VerifyText::tr("FAIL: %1 is faulty or not as advertised").arg(what); break;
        case Verdict::Error: a.headline = VerifyText::tr("%1: %2 could not be fully tested").arg(upper, what); break;
        }
    }
    return a;
}

} // namespace gantry::verify
