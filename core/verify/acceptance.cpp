// SPDX-License-Identifier: Apache-2.0
#include "core/verify/acceptance.h"
#include "core/verify/verifytext.h"
#include "core/verify/machinefigures.h"

#include "core/verify/remoteverifier.h"
#include "core/verify/reputation.h"
#include "core/verify/smiquery.h"
#include "core/verify/xid.h"

#include <QCoreApplication>

namespace gantry::verify {
namespace {

// A figure gantry-verify reports and the reference measure it is compared with.
struct Measure
{
    const char *measure; // reference table id
    const char *check;   // check name
    const char *test;    // gantry-verify test id
    const char *detail;  // its details key; nullptr: the test's measured value
};
constexpr Measure kMeasures[] = {
    {"hbm_copy", "hbm-copy", "device_bandwidth", "copy_gbs"},
    {"hbm_triad", "hbm-triad", "device_bandwidth", "triad_gbs"},
    {"tensor_bf16", "tensor-bf16", "tensor_bf16", nullptr},
    {"host_to_device", "host-to-device", "host_device_bandwidth", "h2d_gbs"},
};

std::optional<double> figureOf(const TestResult &test, const char *detail)
{
    if (!detail)
        return test.measured;
    const QJsonValue v = test.details.value(QLatin1StringView(detail));
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

QString fmt(double value)
{
    return QString::number(value, 'f', value >= 100 ? 0 : 1);
}

const ReferenceFigure *referenceFor(const Measure &m, const GpuResult &gpu, const TestResult &test, const GpuSpec *spec,
                                    const ReferenceTable &references)
{
    if (QLatin1StringView(m.measure) == QLatin1StringView("host_to_device")) {
        const int gen = test.details.value(QLatin1StringView("pcie_gen_under_load")).toInt(int(gpu.pcieGenMax.value_or(0)));
        const int width = test.details.value(QLatin1StringView("pcie_width_under_load")).toInt(int(gpu.pcieWidthMax.value_or(0)));
        return references.hostLink(gen, width);
    }
    return spec ? references.find(spec->id, QString::fromUtf8(m.measure)) : nullptr;
}

// One measured figure against what good machines achieve; without a reference (or one that a
// different kernel reached), gantry-verify's own datasheet thresholds judge it.
AcceptCheck activeCheck(const Measure &m, const GpuResult &gpu, const TestResult &test, double value, const GpuSpec *spec,
                        const ReferenceFigure *ref, Method method)
{
    AcceptCheck check{gpu.index, QString::fromUtf8(m.check), Verdict::Pass, {}};
    const QString measured = QStringLiteral("%1 %2").arg(fmt(value), test.unit.isEmpty() ? QStringLiteral("GB/s") : test.unit);
    const bool otherKernel = ref && ref->kernel == QLatin1StringView("cublas") && method != Method::Torch;
    if (ref && !otherKernel) {
        judgeAgainstReference(check, measured, value, *ref);
        return check;
    }
    check.status = effectiveStatus(test);
    const QString datasheet = test.ratio ? VerifyText::tr(" (%1% of the datasheet)").arg(qRound(*test.ratio * 100)) : QString();
    if (otherKernel) {
        check.detail = VerifyText::tr("%1%2. The %3 %4 reference is cuBLAS's; gantry-verify's portable kernel does not "
                                      "reach it, so its own thresholds judge this figure.")
                           .arg(measured, datasheet, fmt(ref->value), ref->unit);
    } else {
        check.detail = VerifyText::tr("%1%2. No achieved figure on record for %3, so gantry-verify's own thresholds judge it.")
                           .arg(measured, datasheet, spec ? spec->model : gpu.name);
    }
    return check;
}

// The link under load settles what the idle reading could not (links train down when idle).
void rejudgeLink(QList<AcceptCheck> &checks, const GpuResult &gpu, const TestResult &test)
{
    const int gen = test.details.value(QLatin1StringView("pcie_gen_under_load")).toInt(0);
    const int width = test.details.value(QLatin1StringView("pcie_width_under_load")).toInt(0);
    if (gen <= 0 || width <= 0 || !gpu.pcieGenMax || !gpu.pcieWidthMax)
        return;
    for (AcceptCheck &c : checks) {
        if (c.gpu != gpu.index || c.name != QLatin1StringView("pcie-link") || c.status == Verdict::Skip)
            continue;
        const bool full = gen >= *gpu.pcieGenMax && width >= *gpu.pcieWidthMax;
        c.status = full ? Verdict::Pass : Verdict::Fail;
        c.detail = full ? VerifyText::tr("Gen%1 x%2 under load, its maximum.").arg(gen).arg(width)
                        : VerifyText::tr("Gen%1 x%2 under load, of Gen%3 x%4: a degraded link slows every transfer. "
                                         "Return the machine.")
                              .arg(gen)
                              .arg(width)
                              .arg(*gpu.pcieGenMax)
                              .arg(*gpu.pcieWidthMax);
    }
}

void activeChecks(Acceptance &a, const Report &report, const SpecTable &specs, const ReferenceTable &references)
{
    for (const Measure &m : kMeasures) {
        std::optional<MachineFigure> slowest;
        for (const GpuResult &gpu : report.gpus) {
            const TestResult *test = gpu.test(QString::fromUtf8(m.test));
            const std::optional<double> value = test ? figureOf(*test, m.detail) : std::nullopt;
            if (!value)
                continue;
            const GpuSpec *spec = specs.match(gpu.name, gpu.pciDeviceId);
            const ReferenceFigure *ref = referenceFor(m, gpu, *test, spec, references);
            a.checks.append(activeCheck(m, gpu, *test, *value, spec, ref, report.method));
            if (!slowest || *value < slowest->value)
                slowest = MachineFigure{QString::fromUtf8(m.measure), gpu.index, *value, test->unit,
                                        ref ? std::optional<double>(ref->value) : std::nullopt, ref ? ref->source : QString()};
        }
        if (slowest)
            a.figures.append(*slowest); // the slowest GPU is the machine's figure
    }
    static const QStringList judged{QStringLiteral("device_bandwidth"), QStringLiteral("tensor_bf16"),
                                    QStringLiteral("host_device_bandwidth")};
    for (const GpuResult &gpu : report.gpus) {
        for (const TestResult &test : gpu.tests) {
            if (test.id == QLatin1StringView("host_device_bandwidth"))
                rejudgeLink(a.checks, gpu, test);
            if (judged.contains(test.id))
                continue;
            QString detail = test.message.isEmpty() ? test.name : test.message;
            if (test.measured)
                detail = QStringLiteral("%1: %2 %3").arg(test.name, fmt(*test.measured), test.unit);
            a.checks.append(AcceptCheck{gpu.index, QString(test.id).replace(QLatin1Char('_'), QLatin1Char('-')),
                                        effectiveStatus(test), detail});
        }
    }
}

// What gantry-verify does not measure yet, said rather than left out.
void unmeasured(Acceptance &a, int gpuCount, const QString &specId, const ReferenceTable &references)
{
    auto add = [&a](const char *name, QString detail, const ReferenceFigure *ref) {
        if (ref)
            detail += QLatin1Char(' ') + VerifyText::tr("Reference: %1 %2 (%3).").arg(fmt(ref->value), ref->unit, ref->source);
        a.checks.append(AcceptCheck{std::nullopt, QString::fromUtf8(name), Verdict::Skip, detail});
    };
    if (gpuCount > 1) {
        add("gpu-to-gpu", VerifyText::tr("GPU↔GPU (NVLink/PCIe peer) bandwidth is not measured by this gantry-verify."),
            references.find(specId, QStringLiteral("p2p_unidirectional")));
        add("nccl-all-reduce", VerifyText::tr("NCCL all-reduce bus bandwidth is not measured by this gantry-verify."),
            references.find(specId, QStringLiteral("nccl_allreduce_busbw"), gpuCount));
    }
    add("disk", VerifyText::tr("The data disk's read and write speed is not measured by this gantry-verify."), nullptr);
}

QString checkLabel(const AcceptCheck &c)
{
    return c.gpu ? VerifyText::tr("GPU %1 %2").arg(*c.gpu).arg(c.name) : c.name;
}

} // namespace

void judgeAgainstReference(AcceptCheck &check, const QString &measured, double value, const ReferenceFigure &ref)
{
    const double ratio = value / ref.value;
    check.status = ratio >= kReferencePass ? Verdict::Pass : ratio >= kReferenceFail ? Verdict::Warn : Verdict::Fail;
    check.detail = VerifyText::tr("%1, %2% of the %3 %4 good machines achieve (%5).")
                       .arg(measured)
                       .arg(qRound(ratio * 100))
                       .arg(fmt(ref.value), ref.unit, ref.source);
    if (check.status == Verdict::Warn)
        check.detail += QLatin1Char(' ') + VerifyText::tr("Below 90 %: ask for a refund with this report if it stays low.");
    else if (check.status == Verdict::Fail)
        check.detail += QLatin1Char(' ') + VerifyText::tr("Below 75 %: return it.");
}

QString acceptVerdictName(AcceptVerdict verdict)
{
    switch (verdict) {
    case AcceptVerdict::Pass: return QStringLiteral("pass");
    case AcceptVerdict::Warn: return QStringLiteral("warn");
    case AcceptVerdict::Fail: return QStringLiteral("fail");
    case AcceptVerdict::Incomplete: return QStringLiteral("incomplete");
    }
    return QStringLiteral("incomplete");
}

void decide(Acceptance &a, bool measured, const QString &incompleteWhy)
{
    a.reasons.clear();
    bool failed = false, warned = false;
    for (const AcceptCheck &c : std::as_const(a.checks)) {
        if (c.status == Verdict::Fail || c.status == Verdict::Error) {
            failed = true;
            a.reasons.append(QStringLiteral("%1: %2").arg(checkLabel(c), c.detail));
        }
    }
    if (!measured)
        a.reasons.append(incompleteWhy);
    for (const AcceptCheck &c : std::as_const(a.checks)) {
        if (c.status == Verdict::Warn) {
            warned = true;
            a.reasons.append(QStringLiteral("%1: %2").arg(checkLabel(c), c.detail));
        }
    }
    if (failed) {
        a.verdict = AcceptVerdict::Fail;
        a.nextStep = VerifyText::tr("Return it, and ask for a refund with this report.");
    } else if (!measured) {
        a.verdict = AcceptVerdict::Incomplete;
        a.nextStep = VerifyText::tr("Nothing is decided: fix what could not run, then test again.");
    } else if (warned) {
        a.verdict = AcceptVerdict::Warn;
        a.nextStep = VerifyText::tr("Keep it if the warnings do not matter for your work; otherwise ask for a refund with "
                                    "this report.");
    } else {
        a.verdict = AcceptVerdict::Pass;
        a.nextStep = VerifyText::tr("Keep it: it performs like a good machine of its kind.");
    }
}

Acceptance judgeAcceptance(const VerifyOutcome &outcome, const SpecTable &specs, const ReferenceTable &references,
                           const AcceptExpectation &expect)
{
    Acceptance a;
    a.checks = passiveChecks(outcome.doctorOutput, specs, expect);
    const SmiQuery smi = parseSmiQuery(outcome.doctorOutput.text(QStringLiteral("smi-q")));
    a.driverVersion = smi.driverVersion;
    a.cudaVersion = smi.cudaVersion;
    for (const SmiGpu &gpu : smi.gpus)
        a.gpuNames.append(gpu.name());
    const Report &report = outcome.report;
    a.method = methodName(report.method);
    QString why;
    if (outcome.probe.simulatedGpu) {
        why = VerifyText::tr("Simulated GPU: this nvidia-smi is the Gantry sandbox's stand-in, so nothing real was measured "
                             "(a simulated GPU never passes).");
        a.checks.append(AcceptCheck{std::nullopt, QStringLiteral("simulated-gpu"), Verdict::Skip, why});
    } else if (!outcome.probe.smiWorks) {
        why = VerifyText::tr("No CUDA device: without a working NVIDIA driver nothing could be measured.");
    } else if (report.gpus.isEmpty() || report.method == Method::DiagnosisOnly) {
        QString cause = report.errors.isEmpty() ? report.methodReason : report.errors.join(QStringLiteral("; "));
        if (cause.isEmpty())
            cause = VerifyText::tr("gantry-verify did not run.");
        why = VerifyText::tr("The active figures could not be measured: %1").arg(cause);
    }
    const bool measured = why.isEmpty();
    if (measured) {
        activeChecks(a, report, specs, references);
        const GpuSpec *spec = report.gpus.isEmpty() ? nullptr
                                                    : specs.match(report.gpus.first().name, report.gpus.first().pciDeviceId);
        unmeasured(a, int(report.gpus.size()), spec ? spec->id : QString(), references);
    }
    decide(a, measured, why);
    return a;
}

namespace {

// The disk and, on two or more GPUs, GPU-to-GPU and all-reduce figures, judged with the rest.
void addMachineFigures(Acceptance &a, ssh::Session &session, const VerifyOutcome &outcome, const CancelToken &cancel,
                       const VerifyCallbacks &callbacks)
{
    MachineFiguresRequest request;
    request.gpuCount = int(outcome.report.gpus.size());
    request.torchCuda = outcome.probe.torchCuda;
    if (!outcome.report.gpus.isEmpty()) {
        const GpuResult &first = outcome.report.gpus.first();
        if (const GpuSpec *spec = SpecTable::builtIn().match(first.name, first.pciDeviceId))
            request.specId = spec->id;
    }
    if (callbacks.onStatus)
        callbacks.onStatus(VerifyText::tr("Measuring the data disk and the links between GPUs…"));
    mergeChecks(a, measureMachineFigures(session, request, ReferenceTable::installed(), cancel, &a.figures));
    decide(a, true, QString());
}

} // namespace

namespace {

// One acceptance test counts once in the machine's record, with its own verdict: Verify's run
// inside it is not recorded separately (it used to count a failing test twice). Nothing decided
// (incomplete) counts neither way.
void recordOnce(Acceptance &a, const QString &configDir, std::optional<MachineRun> measured)
{
    if (a.verdict == AcceptVerdict::Incomplete)
        return;
    MachineRun run = measured.value_or(MachineRun{});
    run.provider = a.machine.provider;
    run.machineId = a.machine.machineId;
    run.host = a.host;
    run.time = a.finished;
    run.verdict = a.verdict == AcceptVerdict::Fail ? Verdict::Fail : a.verdict == AcceptVerdict::Warn ? Verdict::Warn : Verdict::Pass;
    run.problem = a.verdict == AcceptVerdict::Pass ? QString() : VerifyText::tr("acceptance test: %1").arg(a.reasons.value(0));
    if (auto recorded = ReputationStore(configDir).record(run); !recorded)
        a.reasons.append(VerifyText::tr("This machine's record was not updated: %1").arg(recorded.error().message));
}

} // namespace

Result<Acceptance> runAcceptance(ssh::Session &session, const QString &configDir, const AcceptRequest &request,
                                 const CancelToken &cancel, const VerifyCallbacks &callbacks)
{
    const QDateTime started = QDateTime::currentDateTimeUtc();
    VerifyRequest verifyRequest = request.verify;
    // The short run fits a 90-second budget; the program gets what the doctor script leaves of it.
    verifyRequest.quick = request.budgetSeconds < 600;
    // 15 s for the doctor script, kMachineFiguresSeconds for the disk and multi-GPU figures.
    verifyRequest.timeoutMs = qMax(20, request.budgetSeconds - 15 - kMachineFiguresSeconds) * 1000;
    verifyRequest.recordReputation = false; // recorded once below, with the acceptance verdict
    auto run = runVerify(session, configDir, verifyRequest, cancel, callbacks);
    Acceptance a;
    if (run) {
        a = judgeAcceptance(run->outcome, SpecTable::builtIn(), ReferenceTable::installed(), request.expect);
        if (a.verdict != AcceptVerdict::Incomplete && !cancel.isCancelled())
            addMachineFigures(a, session, run->outcome, cancel, callbacks);
    } else {
        if (cancel.isCancelled())
            return run.error();
        // The active run failed (the budget ran out, the upload broke): the passive checks still decide.
        RemoteVerifier verifier(session);
        auto doctor = verifier.runDoctorScript(cancel);
        if (!doctor)
            return run.error();
        VerifyOutcome outcome;
        outcome.doctorOutput = *doctor;
        outcome.probe = probeFromDoctor(*doctor);
        outcome.report.method = Method::DiagnosisOnly;
        outcome.report.errors.append(run.error().message);
        a = judgeAcceptance(outcome, SpecTable::builtIn(), ReferenceTable::installed(), request.expect);
    }
    a.host = request.verify.hostName;
    a.machine = request.verify.advertised;
    a.started = started;
    a.finished = QDateTime::currentDateTimeUtc();
    if (!configDir.isEmpty())
        recordOnce(a, configDir, run ? run->reputation : std::nullopt);
    return a;
}

} // namespace gantry::verify
