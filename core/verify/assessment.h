#pragma once

#include "core/verify/report.h"
#include "core/verify/specs.h"

#include <QList>
#include <QString>

#include <optional>

namespace gantry::verify {

// What the provider listed for the instance type. Filled by whoever knows (provider catalogue,
// the user's saved host); every field is optional.
struct Advertised
{
    QString provider;      // "lambda", "runpod", "" for a hand-added host
    QString instanceType;  // "gpu_8x_h100_sxm5"
    QString gpuModel;      // "H100 SXM", "A100 80GB", "RTX 4090"
    int gpuCount = 0;      // 0: unknown
    double vramGib = 0;    // per GPU; 0: unknown
    double hourlyPriceUsd = 0; // 0: unknown
    QString machineId;     // the marketplace machine behind the instance (Vast.ai); "" when unknown
};

// One conclusion the app draws beyond the program's own tests.
struct Finding
{
    QString id;          // "spec-memory", "advertised-model", "rejudged-device_bandwidth", …
    int gpuIndex = -1;   // -1: the whole machine
    Verdict status = Verdict::Pass;
    QString message;     // a sentence a user can act on
};

// A GPU's measurements next to the spec sheet.
struct SpecComparison
{
    int gpuIndex = 0;
    QString gpuName;
    QString specId;      // empty: not in the table
    QString specModel;
    std::optional<double> bandwidthGbs;       // measured device bandwidth
    std::optional<double> specBandwidthGbs;
    std::optional<double> fp32Tflops;
    std::optional<double> specFp32Tflops;
    std::optional<double> tensorTflops;       // best of BF16/FP16
    std::optional<double> specTensorTflops;

    static std::optional<double> ratio(std::optional<double> measured, std::optional<double> spec);
};

struct Assessment
{
    Verdict verdict = Verdict::Error;
    QString headline;                // "PASS: 8 × NVIDIA H200 deliver their spec"
    QList<Finding> findings;
    QList<SpecComparison> comparisons;
    std::optional<double> totalTensorTflops;  // sum over GPUs, measured
    std::optional<double> usdPerTflopHour;    // hourly price ÷ measured tensor TFLOPS
};

// The status a test gets after the app's thresholds are applied: the worse of the program's own
// status and the ratio judged by thresholdsFor(id).
Verdict effectiveStatus(const TestResult &test);

Assessment assess(const Report &report, const SpecTable &specs, const Advertised &advertised = {});

} // namespace gantry::verify
