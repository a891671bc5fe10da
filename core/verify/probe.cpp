#include "core/verify/probe.h"
#include "core/verify/verifytext.h"

#include "core/hosts/machinefacts.h"
#include "core/verify/smiquery.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace gantry::verify {
namespace {

QMap<QString, QString> keyValues(const QString &text)
{
    QMap<QString, QString> map;
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq > 0 && !map.contains(line.left(eq).trimmed()))
            map.insert(line.left(eq).trimmed(), line.mid(eq + 1).trimmed());
    }
    return map;
}

bool canBuild(const Probe &probe, QString *why)
{
    if (!probe.nvccPresent) {
        *why = VerifyText::tr("the instance has no nvcc to build it");
        return false;
    }
    const auto nvcc = majorMinor(probe.nvccVersion);
    const auto driver = majorMinor(probe.driverCuda);
    if (nvcc.first < 12) {
        *why = VerifyText::tr("the instance's nvcc %1 is too old to build it (12.0 or newer needed)").arg(probe.nvccVersion);
        return false;
    }
    // Minor-version compatibility holds within a CUDA major only.
    if (driver.first > 0 && nvcc.first > driver.first) {
        *why = VerifyText::tr("the instance's nvcc %1 is newer than its driver supports (CUDA %2)").arg(probe.nvccVersion, probe.driverCuda);
        return false;
    }
    return true;
}

Plan afterBinary(const Probe &probe, const PlanInputs &inputs, const QString &why)
{
    QString buildWhy;
    if (inputs.sourcesAvailable && canBuild(probe, &buildWhy)) {
        return {Method::BuiltOnInstance,
                VerifyText::tr("%1, so Gantry builds the verification program on the instance with its nvcc %2.")
                    .arg(why, probe.nvccVersion)};
    }
    if (!inputs.sourcesAvailable)
        buildWhy = VerifyText::tr("this Gantry has no kernel sources to build on the instance");
    if (probe.torchCuda) {
        return {Method::Torch,
                VerifyText::tr("%1 and %2, so Gantry measures with PyTorch %3 instead (CUDA, a BF16 matmul rate, a copy "
                             "rate).")
                    .arg(why, buildWhy, probe.torchVersion)};
    }
    return {Method::DiagnosisOnly,
            VerifyText::tr("%1, %2, and PyTorch with CUDA is not available: only a diagnosis is possible.").arg(why, buildWhy)};
}

} // namespace

QPair<int, int> majorMinor(const QString &version)
{
    static const QRegularExpression re(QStringLiteral(R"((\d+)(?:\.(\d+))?)"));
    const QRegularExpressionMatch m = re.match(version);
    if (!m.hasMatch())
        return {0, 0};
    return {m.captured(1).toInt(), m.captured(2).toInt()};
}

Probe probeFromDoctor(const DoctorOutput &output)
{
    Probe p;
    p.arch = output.text(QStringLiteral("arch")).trimmed();
    p.smiPresent = output.exitStatus(QStringLiteral("nvidia-smi-path")).value_or(1) == 0
                   && !output.text(QStringLiteral("nvidia-smi-path")).trimmed().isEmpty();
    if (p.smiPresent) {
        const QString text = output.text(QStringLiteral("smi-q"));
        const SmiQuery smi = parseSmiQuery(text);
        p.smiWorks = output.exitStatus(QStringLiteral("smi-q")).value_or(1) == 0 && !smi.gpus.isEmpty();
        // Marker file or marker text: either is enough, so a real host that prints it is still
        // judged simulated (never a pass), and a stand-in without its file still prints the text.
        p.simulatedGpu = !output.text(QStringLiteral("simulated")).trimmed().isEmpty()
                         || text.contains(QLatin1StringView(kSimulatedGpuMarkerText), Qt::CaseInsensitive);
        if (!p.smiWorks)
            p.smiError = text.trimmed().section(QLatin1Char('\n'), 0, 0);
        p.driverVersion = smi.driverVersion;
        p.driverMajor = majorMinor(smi.driverVersion).first;
        p.driverCuda = smi.cudaVersion;
        p.gpuCount = int(smi.gpus.size());
        for (const SmiGpu &gpu : smi.gpus)
            p.gpuNames.append(gpu.name());
    }
    if (output.exitStatus(QStringLiteral("nvcc")).value_or(1) == 0) {
        static const QRegularExpression release(QStringLiteral(R"(release (\d+\.\d+))"));
        const QRegularExpressionMatch m = release.match(output.text(QStringLiteral("nvcc")));
        p.nvccPresent = m.hasMatch();
        p.nvccVersion = m.captured(1);
    }
    const QMap<QString, QString> py = keyValues(output.text(QStringLiteral("python")));
    p.pythonPresent = py.contains(QStringLiteral("python"));
    const QString torch = py.value(QStringLiteral("torch"));
    p.torchPresent = !torch.isEmpty() && torch != QLatin1StringView("none");
    if (p.torchPresent) {
        p.torchVersion = torch;
        const QString cuda = py.value(QStringLiteral("torch_cuda"));
        p.torchCudaVersion = cuda == QLatin1StringView("None") ? QString() : cuda;
        p.torchCuda = py.value(QStringLiteral("cuda_available")) == QLatin1StringView("1");
        p.torchError = py.value(QStringLiteral("cuda_error"));
        if (p.torchError.isEmpty()) {
            // torch prints CUDA init failures as a UserWarning on stderr, e.g. "Error 802: system not yet initialized".
            static const QRegularExpression warn(QStringLiteral(R"((CUDA initialization: .*|.*Error \d+: .*))"));
            p.torchError = warn.match(output.text(QStringLiteral("python"))).captured(1).trimmed();
        }
    }
    return p;
}

Plan choosePlan(const Probe &probe, const PlanInputs &inputs)
{
    if (probe.simulatedGpu) {
        return {Method::DiagnosisOnly,
                VerifyText::tr("The GPU is simulated by the Gantry sandbox: there is nothing real to measure.")};
    }
    if (!probe.smiPresent || !probe.smiWorks) {
        if (probe.torchCuda) {
            return {Method::Torch, VerifyText::tr("nvidia-smi is %1 but PyTorch %2 sees the GPU, so Gantry measures with PyTorch.")
                                       .arg(probe.smiPresent ? VerifyText::tr("failing") : VerifyText::tr("missing"), probe.torchVersion)};
        }
        if (!probe.smiPresent) {
            return {Method::DiagnosisOnly,
                    VerifyText::tr("No NVIDIA GPU/driver found (nvidia-smi is not installed): only a diagnosis is possible.")};
        }
        return {Method::DiagnosisOnly,
                VerifyText::tr("The NVIDIA driver does not work (%1): only a diagnosis is possible.").arg(probe.smiError)};
    }
    if (!inputs.binaryAvailable)
        return afterBinary(probe, inputs, VerifyText::tr("This Gantry has no built gantry-verify (built without nvcc)"));
    if (!probe.arch.isEmpty() && probe.arch != inputs.binaryArch) {
        return afterBinary(probe, inputs,
                           VerifyText::tr("The bundled gantry-verify is for %1 but the instance is %2").arg(inputs.binaryArch, probe.arch));
    }
    if (probe.driverMajor > 0 && probe.driverMajor < inputs.binaryMinDriverMajor) {
        return afterBinary(probe, inputs,
                           VerifyText::tr("Driver %1 is older than the bundled gantry-verify needs (%2, CUDA 13)")
                               .arg(probe.driverVersion)
                               .arg(inputs.binaryMinDriverMajor));
    }
    return {Method::BundledBinary,
            VerifyText::tr("Driver %1 runs the bundled gantry-verify.").arg(probe.driverVersion.isEmpty() ? VerifyText::tr("(unknown)")
                                                                                              : probe.driverVersion)};
}

Plan fallbackAfterBundled(const Probe &probe, const PlanInputs &inputs, const QString &why)
{
    return afterBinary(probe, inputs, why);
}

} // namespace gantry::verify
