// SPDX-License-Identifier: Apache-2.0
#include "core/verify/passivehealth.h"
#include "core/verify/verifytext.h"

#include "core/verify/probe.h"
#include "core/verify/smiquery.h"
#include "core/verify/xid.h"

#include <QCoreApplication>

namespace gantry::verify {
namespace {

AcceptCheck gpuCheck(int gpu, const char *name, Verdict status, QString detail)
{
    return AcceptCheck{gpu, QString::fromUtf8(name), status, std::move(detail)};
}

AcceptCheck machineCheck(const char *name, Verdict status, QString detail)
{
    return AcceptCheck{std::nullopt, QString::fromUtf8(name), status, std::move(detail)};
}

bool shown(const QString &value)
{
    const QString v = value.trimmed();
    return !v.isEmpty() && v != QLatin1StringView("N/A") && !v.startsWith(QLatin1Char('['));
}

AcceptCheck countCheck(const SmiQuery &smi, const AcceptExpectation &expect)
{
    const int found = int(smi.gpus.size());
    if (smi.attachedGpus > found) {
        return machineCheck("gpu-count", Verdict::Fail,
                            VerifyText::tr("nvidia-smi counts %1 GPUs attached but only %2 answer: a GPU has fallen off the "
                                           "bus. Return the machine.")
                                .arg(smi.attachedGpus)
                                .arg(found));
    }
    if (expect.gpuCount > 0 && found < expect.gpuCount) {
        return machineCheck("gpu-count", Verdict::Fail,
                            VerifyText::tr("%1 of the %2 GPUs expected are there: a GPU is missing. Return the machine, or "
                                           "ask for a refund with this report.")
                                .arg(found)
                                .arg(expect.gpuCount));
    }
    if (expect.gpuCount > 0 && found > expect.gpuCount) {
        return machineCheck("gpu-count", Verdict::Warn,
                            VerifyText::tr("%1 GPUs, more than the %2 expected: check that you are billed for what you "
                                           "asked for.")
                                .arg(found)
                                .arg(expect.gpuCount));
    }
    if (expect.gpuCount > 0)
        return machineCheck("gpu-count", Verdict::Pass, VerifyText::tr("%1 GPUs, as expected.").arg(found));
    return machineCheck("gpu-count", Verdict::Pass,
                        VerifyText::tr("%1 GPUs (no count was expected: give one to compare).").arg(found));
}

AcceptCheck driverCheck(const SmiQuery &smi, const DoctorOptions &options)
{
    const int major = int(leadingInt(smi.driverVersion));
    const QString what = VerifyText::tr("Driver %1, CUDA %2").arg(smi.driverVersion, smi.cudaVersion);
    if (major > 0 && major < options.minimumDriverMajor) {
        return machineCheck("driver", Verdict::Fail,
                            VerifyText::tr("%1: older than %2, which CUDA 11 needs. Pick a newer image or return the "
                                           "machine.")
                                .arg(what)
                                .arg(options.minimumDriverMajor));
    }
    if (major > 0 && major < options.requiredDriverMajor) {
        return machineCheck("driver", Verdict::Warn,
                            VerifyText::tr("%1: older than %2, so CUDA 13 software (PyTorch cu130 wheels) will not run. "
                                           "Pick a newer image if you need it.")
                                .arg(what)
                                .arg(options.requiredDriverMajor));
    }
    return machineCheck("driver", major > 0 ? Verdict::Pass : Verdict::Skip,
                        major > 0 ? what : VerifyText::tr("nvidia-smi shows no driver version."));
}

// Model and memory against what was expected and what the spec table says the model has.
QList<AcceptCheck> identityChecks(int i, const SmiGpu &gpu, const SpecTable &specs, const AcceptExpectation &expect)
{
    QList<AcceptCheck> checks;
    const GpuSpec *spec = specs.match(gpu.name(), gpu.value(QStringLiteral("PCI/Device Id")));
    const QString model = spec ? QStringLiteral("%1 (%2)").arg(gpu.name(), spec->model) : gpu.name();
    if (!expect.gpuModel.isEmpty()) {
        const GpuSpec *wanted = specs.matchAdvertised(expect.gpuModel);
        const QString family = specs.familyOf(expect.gpuModel);
        const bool same = spec && ((wanted && wanted->id == spec->id) || (!wanted && !family.isEmpty() && family == spec->family));
        checks.append(gpuCheck(i, "model", same ? Verdict::Pass : Verdict::Fail,
                               same ? VerifyText::tr("%1, as expected (%2).").arg(model, expect.gpuModel)
                                    : VerifyText::tr("%1, not the %2 expected. Return the machine, or ask for a refund with "
                                                     "this report.")
                                          .arg(model, expect.gpuModel)));
    } else {
        checks.append(gpuCheck(i, "model", Verdict::Pass, VerifyText::tr("%1 (no model was expected).").arg(model)));
    }
    const long long totalMib = leadingInt(gpu.value(QStringLiteral("FB Memory Usage/Total")));
    const std::optional<double> specMib = spec ? spec->expectedMemoryMib() : std::nullopt;
    if (totalMib <= 0 || !specMib) {
        checks.append(gpuCheck(i, "memory", Verdict::Skip,
                               VerifyText::tr("%1 MiB; no spec to compare with.").arg(totalMib > 0 ? totalMib : 0)));
    } else if (double(totalMib) < *specMib * 0.97) {
        checks.append(gpuCheck(i, "memory", Verdict::Fail,
                               VerifyText::tr("%1 MiB of the %2 MiB a %3 has: memory is missing. Return the machine.")
                                   .arg(totalMib)
                                   .arg(qRound64(*specMib))
                                   .arg(spec->model)));
    } else {
        checks.append(gpuCheck(i, "memory", Verdict::Pass,
                               VerifyText::tr("%1 MiB (a %2 has %3 MiB).").arg(totalMib).arg(spec->model).arg(qRound64(*specMib))));
    }
    return checks;
}

AcceptCheck eccCheck(int i, const SmiGpu &gpu)
{
    if (gpu.under(QStringLiteral("ECC Errors")).isEmpty() || !shown(gpu.value(QStringLiteral("ECC Mode/Current"))))
        return gpuCheck(i, "ecc", Verdict::Skip, VerifyText::tr("This GPU reports no ECC (a consumer card, or ECC off)."));
    const long long now = uncorrectableEcc(gpu, QStringLiteral("Volatile"));
    const long long ever = uncorrectableEcc(gpu, QStringLiteral("Aggregate"));
    if (now > 0) {
        return gpuCheck(i, "ecc", Verdict::Fail,
                        VerifyText::tr("%1 uncorrectable ECC errors since boot (%2 in its lifetime): work on this GPU is "
                                       "lost. Return the machine.")
                            .arg(now)
                            .arg(ever));
    }
    if (ever > 0) {
        return gpuCheck(i, "ecc", Verdict::Warn,
                        VerifyText::tr("No uncorrectable ECC error since boot, %1 in the GPU's lifetime: it has had memory "
                                       "faults. Keep an eye on it.")
                            .arg(ever));
    }
    return gpuCheck(i, "ecc", Verdict::Pass, VerifyText::tr("No uncorrectable ECC errors (since boot or ever)."));
}

QList<AcceptCheck> memoryRepairChecks(int i, const SmiGpu &gpu)
{
    QList<AcceptCheck> checks;
    const QString blacklist = gpu.value(QStringLiteral("Retired Pages/Pending Page Blacklist"));
    const QString retirement = gpu.value(QStringLiteral("Retired Pages/Pending Page Retirement"));
    if (smiYes(blacklist) || smiYes(retirement)) {
        checks.append(gpuCheck(i, "retired-pages", Verdict::Fail,
                               VerifyText::tr("A page retirement is pending: the GPU needs a reset before its memory is "
                                              "safe. Return the machine.")));
    } else if (shown(blacklist) || shown(retirement)) {
        checks.append(gpuCheck(i, "retired-pages", Verdict::Pass, VerifyText::tr("No page retirement pending.")));
    } else {
        checks.append(gpuCheck(i, "retired-pages", Verdict::Skip,
                               VerifyText::tr("Not reported: this GPU remaps rows instead (Ampere and later).")));
    }
    const QString pending = gpu.value(QStringLiteral("Remapped Rows/Pending"));
    const QString failure = gpu.value(QStringLiteral("Remapped Rows/Remapping Failure Occurred"));
    if (smiYes(failure)) {
        checks.append(gpuCheck(i, "remapped-rows", Verdict::Fail,
                               VerifyText::tr("A row remapping failed: the GPU has no spare memory rows left. Return the "
                                              "machine.")));
    } else if (smiYes(pending)) {
        checks.append(gpuCheck(i, "remapped-rows", Verdict::Fail,
                               VerifyText::tr("A row remap is pending: memory with an uncorrectable error stays in use until "
                                              "the GPU is reset. Return the machine.")));
    } else if (shown(pending)) {
        checks.append(gpuCheck(i, "remapped-rows", Verdict::Pass,
                               VerifyText::tr("No row remap pending or failed (%1 rows remapped after uncorrectable errors).")
                                   .arg(qMax(0LL, leadingInt(gpu.value(QStringLiteral("Remapped Rows/Uncorrectable Error")))))));
    } else {
        checks.append(gpuCheck(i, "remapped-rows", Verdict::Skip,
                               VerifyText::tr("Not reported: row remapping exists on Ampere and later data-centre GPUs.")));
    }
    return checks;
}

AcceptCheck pcieCheck(int i, const SmiGpu &gpu)
{
    const PcieLink link = pcieLink(gpu);
    if (link.genMax <= 0 || link.widthMax <= 0 || link.genCurrent <= 0 || link.widthCurrent <= 0)
        return gpuCheck(i, "pcie-link", Verdict::Skip, VerifyText::tr("nvidia-smi shows no PCIe link (a Grace or virtual GPU?)."));
    const QString what = VerifyText::tr("Gen%1 x%2 of Gen%3 x%4")
                             .arg(link.genCurrent)
                             .arg(link.widthCurrent)
                             .arg(link.genMax)
                             .arg(link.widthMax);
    if (link.genCurrent >= link.genMax && link.widthCurrent >= link.widthMax)
        return gpuCheck(i, "pcie-link", Verdict::Pass, what);
    if (smiBusy(gpu)) {
        return gpuCheck(i, "pcie-link", Verdict::Fail,
                        VerifyText::tr("%1 under load: a degraded link (a bad slot, riser or cable) slows every transfer. "
                                       "Return the machine.")
                            .arg(what));
    }
    return gpuCheck(i, "pcie-link", Verdict::Warn,
                    VerifyText::tr("%1 at idle: links train down when idle, so re-check under load (the active run "
                                   "does).")
                        .arg(what));
}

AcceptCheck clockCheck(int i, const SmiGpu &gpu)
{
    const QStringList hardware = hardwareSlowdowns(gpu);
    if (!hardware.isEmpty()) {
        return gpuCheck(i, "clock-events", Verdict::Fail,
                        VerifyText::tr("%1 active: the hardware cuts the clocks (cooling or power delivery). Return the "
                                       "machine.")
                            .arg(hardware.join(QStringLiteral(", "))));
    }
    if (smiActive(clockEventReason(gpu, QStringLiteral("SW Thermal Slowdown")))) {
        return gpuCheck(i, "clock-events", Verdict::Warn,
                        VerifyText::tr("SW Thermal Slowdown active: the GPU runs hot and the driver lowers its clocks."));
    }
    if (gpu.under(QStringLiteral("Clocks Event Reasons")).isEmpty() && gpu.under(QStringLiteral("Clocks Throttle Reasons")).isEmpty())
        return gpuCheck(i, "clock-events", Verdict::Skip, VerifyText::tr("nvidia-smi shows no clock event reasons."));
    return gpuCheck(i, "clock-events", Verdict::Pass, VerifyText::tr("No hardware slowdown, thermal or power-brake event."));
}

QList<AcceptCheck> modeChecks(int i, const SmiGpu &gpu)
{
    QList<AcceptCheck> checks;
    const QString persistence = gpu.value(QStringLiteral("Persistence Mode")).trimmed();
    if (persistence == QLatin1StringView("Enabled"))
        checks.append(gpuCheck(i, "persistence-mode", Verdict::Pass, VerifyText::tr("Enabled.")));
    else if (persistence == QLatin1StringView("Disabled"))
        checks.append(gpuCheck(i, "persistence-mode", Verdict::Warn,
                               VerifyText::tr("Disabled: the driver tears the GPU down between jobs (slow starts, settings "
                                              "lost). `sudo nvidia-smi -pm 1` fixes it where you have root.")));
    else
        checks.append(gpuCheck(i, "persistence-mode", Verdict::Skip, VerifyText::tr("Not reported (Windows, or a virtual GPU).")));
    if (gpu.value(QStringLiteral("MIG Mode/Current")).trimmed() == QLatin1StringView("Enabled"))
        checks.append(gpuCheck(i, "mig", Verdict::Warn,
                               VerifyText::tr("MIG is enabled: programs see slices, not the whole GPU. If you rented whole "
                                              "GPUs, ask the provider.")));
    else
        checks.append(gpuCheck(i, "mig", Verdict::Pass, VerifyText::tr("MIG is off: the whole GPU is yours.")));
    return checks;
}

// Fabric Manager's result as each GPU reports it (NVSwitch systems, driver 535 and later); the
// systemd unit itself is not asked: in a container it cannot be seen (Doctor says so).
AcceptCheck fabricCheck(const SmiQuery &smi)
{
    QStringList notReady;
    int reported = 0;
    for (int i = 0; i < smi.gpus.size(); ++i) {
        const QString state = smi.gpus.at(i).value(QStringLiteral("Fabric/State")).trimmed();
        if (!shown(state))
            continue;
        ++reported;
        if (state != QLatin1StringView("Completed"))
            notReady.append(VerifyText::tr("GPU %1 \"%2\"").arg(i).arg(state));
    }
    if (reported == 0)
        return machineCheck("fabric-manager", Verdict::Skip,
                            VerifyText::tr("No NVLink fabric state shown (not an NVSwitch system, or an older driver)."));
    if (!notReady.isEmpty()) {
        return machineCheck("fabric-manager", Verdict::Fail,
                            VerifyText::tr("The NVLink fabric is not initialised (%1): CUDA fails with error 802 until "
                                           "Fabric Manager runs. Ask the provider, or return the machine.")
                                .arg(notReady.join(QStringLiteral(", "))));
    }
    return machineCheck("fabric-manager", Verdict::Pass,
                        VerifyText::tr("NVLink fabric initialised on %n GPU(s).", nullptr, reported));
}

QString xidLine(const XidEvent &event)
{
    const XidInfo *info = xidInfo(event.code);
    if (!info)
        return VerifyText::tr("Xid %1 (not in Gantry's table: look it up in NVIDIA's Xid catalog)").arg(event.code);
    return VerifyText::tr("Xid %1: %2. %3")
        .arg(event.code)
        .arg(QCoreApplication::translate("gantry::verify", info->meaning), QCoreApplication::translate("gantry::verify", info->action));
}

// Xid events, each on the GPU it names (or the machine when no GPU has its address).
QList<AcceptCheck> xidChecks(const DoctorOutput &output, const SmiQuery &smi)
{
    if (!output.has(QStringLiteral("kernel-log")) || output.exitStatus(QStringLiteral("kernel-log")).value_or(1) != 0) {
        const QString why = output.text(QStringLiteral("kernel-log")).trimmed();
        return {machineCheck("xid", Verdict::Skip,
                             VerifyText::tr("The kernel log cannot be read here (%1), so Xid errors were not checked. "
                                            "With root: `sudo dmesg | grep Xid`.")
                                 .arg(why.isEmpty() ? VerifyText::tr("no dmesg or journalctl access") : why))};
    }
    const QList<XidEvent> events = parseXidLines(output.text(QStringLiteral("kernel-log")));
    QList<AcceptCheck> checks;
    for (int i = -1; i < smi.gpus.size(); ++i) {
        QStringList lines;
        Verdict status = Verdict::Pass;
        for (const XidEvent &event : events) {
            int owner = -1;
            for (int g = 0; g < smi.gpus.size() && owner < 0; ++g) {
                if (samePciDevice(event.pciAddress, smi.gpus.at(g).busId))
                    owner = g;
            }
            if (owner != i || lines.contains(xidLine(event)))
                continue;
            lines.append(xidLine(event));
            const XidInfo *info = xidInfo(event.code);
            status = worst(status, info ? info->severity : Verdict::Warn);
        }
        if (lines.isEmpty())
            continue;
        const QString detail = lines.join(QLatin1Char(' '));
        checks.append(i < 0 ? machineCheck("xid", status, detail) : gpuCheck(i, "xid", status, detail));
    }
    if (checks.isEmpty())
        checks.append(machineCheck("xid", Verdict::Pass, VerifyText::tr("No Xid error in the kernel log.")));
    return checks;
}

} // namespace

QString acceptStatusName(Verdict status)
{
    return status == Verdict::Skip ? QStringLiteral("skipped") : verdictName(status);
}

QList<AcceptCheck> passiveChecks(const DoctorOutput &output, const SpecTable &specs, const AcceptExpectation &expect,
                                 const DoctorOptions &options)
{
    const Probe probe = probeFromDoctor(output);
    if (!probe.smiWorks) {
        const QString why = probe.smiPresent ? classifySmiFailure(output.text(QStringLiteral("smi-q"))).message : QString();
        const Verdict status = expect.gpuCount > 0 || !expect.gpuModel.isEmpty() ? Verdict::Fail : Verdict::Skip;
        return {machineCheck("gpu-count", status,
                             probe.smiPresent ? VerifyText::tr("nvidia-smi fails, so no GPU can be checked: %1")
                                                    .arg(why.isEmpty() ? probe.smiError : why)
                                              : VerifyText::tr("No NVIDIA driver: nvidia-smi is not installed, so there "
                                                               "is no CUDA device to check."))};
    }
    const SmiQuery smi = parseSmiQuery(output.text(QStringLiteral("smi-q")));
    QList<AcceptCheck> checks{countCheck(smi, expect), driverCheck(smi, options), fabricCheck(smi)};
    checks += xidChecks(output, smi);
    for (int i = 0; i < smi.gpus.size(); ++i) {
        const SmiGpu &gpu = smi.gpus.at(i);
        checks += identityChecks(i, gpu, specs, expect);
        checks.append(eccCheck(i, gpu));
        checks += memoryRepairChecks(i, gpu);
        checks.append(pcieCheck(i, gpu));
        checks.append(clockCheck(i, gpu));
        checks += modeChecks(i, gpu);
    }
    return checks;
}

} // namespace gantry::verify
