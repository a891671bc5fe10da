#include "core/verify/doctor.h"
#include "core/verify/verifytext.h"

#include "core/verify/probe.h"
#include "core/verify/smiquery.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QSet>

namespace gantry::verify {
namespace {

DoctorCheck check(const char *id, CheckStatus status, QString message, QString fix = {})
{
    return DoctorCheck{QString::fromUtf8(id), status, std::move(message), std::move(fix)};
}

QString gpuLabel(int index, const SmiGpu &gpu)
{
    return QStringLiteral("GPU %1 (%2)").arg(index).arg(gpu.busId);
}

// PyTorch wheel index that fits a driver's CUDA version.
QString torchIndexFor(const QString &driverCuda)
{
    const auto [major, minor] = majorMinor(driverCuda);
    QString tag = QStringLiteral("cu118");
    if (major >= 13)
        tag = QStringLiteral("cu130");
    else if (major == 12 && minor >= 8)
        tag = QStringLiteral("cu128");
    else if (major == 12 && minor >= 6)
        tag = QStringLiteral("cu126");
    else if (major == 12 && minor >= 4)
        tag = QStringLiteral("cu124");
    else if (major == 12)
        tag = QStringLiteral("cu121");
    return QStringLiteral("pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/") + tag;
}

struct Context
{
    const DoctorOutput &out;
    const SpecTable &specs;
    const DoctorOptions &options;
    Probe probe;
    SmiQuery smi;
};

QList<DoctorCheck> driverChecks(const Context &c)
{
    QList<DoctorCheck> checks;
    if (!c.probe.smiPresent) {
        checks.append(check("nvidia-smi", CheckStatus::Fail,
                            VerifyText::tr("No NVIDIA GPU/driver found: nvidia-smi is not installed, so the NVIDIA driver is "
                                           "missing or this is not a GPU image."),
                            VerifyText::tr("Relaunch with the provider's GPU/CUDA image, or install the driver "
                                           "(`sudo apt install nvidia-driver-%1` or `sudo ubuntu-drivers install`), then reboot.")
                                .arg(c.options.requiredDriverMajor)));
        return checks;
    }
    if (!c.probe.smiWorks) {
        const SmiFailure failure = classifySmiFailure(c.out.text(QStringLiteral("smi-q")));
        checks.append(check("nvidia-smi", CheckStatus::Fail,
                            failure.message.isEmpty() ? VerifyText::tr("nvidia-smi fails: %1").arg(c.probe.smiError) : failure.message,
                            failure.fix.isEmpty() ? VerifyText::tr("Reboot the instance; if it persists, ask the provider for "
                                                                   "another machine.")
                                                  : failure.fix));
        return checks;
    }
    checks.append(check("nvidia-smi", CheckStatus::Ok,
                        VerifyText::tr("nvidia-smi works: %n GPU(s), driver %1, CUDA %2", nullptr, c.probe.gpuCount)
                            .arg(c.probe.driverVersion, c.probe.driverCuda)));
    if (c.probe.driverMajor > 0 && c.probe.driverMajor < c.options.minimumDriverMajor) {
        checks.append(check("driver-version", CheckStatus::Fail,
                            VerifyText::tr("Driver %1 (CUDA %2) is too old for Gantry's verification program (needs %3 or newer); "
                                           "Verify will build it on the instance or fall back to PyTorch.")
                                .arg(c.probe.driverVersion, c.probe.driverCuda)
                                .arg(c.options.minimumDriverMajor),
                            VerifyText::tr("Pick an image with driver %1 or newer, or upgrade: `sudo apt install nvidia-driver-%1` "
                                           "and reboot.")
                                .arg(c.options.requiredDriverMajor)));
    } else if (c.probe.driverMajor > 0 && c.probe.driverMajor < c.options.requiredDriverMajor) {
        checks.append(check("driver-version", CheckStatus::Warn,
                            VerifyText::tr("Driver %1 (CUDA %2) is older than CUDA 13 (driver %3): the verification program "
                                           "falls back to JIT-compiled PTX, and CUDA 13 software (e.g. PyTorch cu130 wheels) "
                                           "will not run.")
                                .arg(c.probe.driverVersion, c.probe.driverCuda)
                                .arg(c.options.requiredDriverMajor),
                            VerifyText::tr("Pick an image with driver %1 or newer, or upgrade: `sudo apt install nvidia-driver-%1` "
                                           "and reboot.")
                                .arg(c.options.requiredDriverMajor)));
    } else {
        checks.append(check("driver-version", CheckStatus::Ok,
                            VerifyText::tr("Driver %1 is new enough for the verification program.").arg(c.probe.driverVersion)));
    }
    return checks;
}

DoctorCheck gpuInUse(const Context &c)
{
    QStringList found;
    for (int i = 0; i < c.smi.gpus.size(); ++i) {
        const SmiGpu &gpu = c.smi.gpus.at(i);
        QStringList processes;
        QString pid;
        for (const auto &field : gpu.under(QStringLiteral("Processes"))) {
            const QString key = field.first.section(QLatin1Char('/'), -1);
            if (key == QLatin1StringView("Process ID"))
                pid = field.second;
            else if (key == QLatin1StringView("Name") && !pid.isEmpty())
                processes.append(QStringLiteral("%1 (pid %2)").arg(field.second, pid));
        }
        const long long usedMib = leadingInt(gpu.value(QStringLiteral("FB Memory Usage/Used")));
        if (!processes.isEmpty()) {
            found.append(VerifyText::tr("%1 runs %2").arg(gpuLabel(i, gpu), processes.join(QStringLiteral(", "))));
        } else if (usedMib > 1024) {
            found.append(VerifyText::tr("%1 has %2 MiB in use by a process this user cannot see (another container?)")
                             .arg(gpuLabel(i, gpu))
                             .arg(usedMib));
        }
    }
    if (found.isEmpty() && c.out.exitStatus(QStringLiteral("compute-apps")).value_or(1) == 0) {
        // -q can omit processes of other containers; the compute-apps CSV lists them by UUID.
        const QStringList lines = c.out.text(QStringLiteral("compute-apps")).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        for (const QString &line : lines) {
            const QStringList cols = line.split(QStringLiteral(", "));
            if (cols.size() >= 4 && cols.first().startsWith(QLatin1StringView("GPU-")))
                found.append(VerifyText::tr("pid %1 (%2) uses %3").arg(cols.at(1), cols.at(2), cols.last().trimmed()));
        }
    }
    if (found.isEmpty())
        return check("gpu-in-use", CheckStatus::Ok, VerifyText::tr("No other process is using the GPUs."));
    return check("gpu-in-use", CheckStatus::Warn,
                 VerifyText::tr("The GPU is already in use: %1.").arg(found.join(QStringLiteral("; "))),
                 VerifyText::tr("Stop those processes (`nvidia-smi` lists them; `kill PID`) before measuring, or ask the "
                                "provider why a fresh instance is busy."));
}

DoctorCheck migCheck(const Context &c)
{
    QStringList on;
    for (int i = 0; i < c.smi.gpus.size(); ++i) {
        if (c.smi.gpus.at(i).value(QStringLiteral("MIG Mode/Current")).trimmed() == QLatin1StringView("Enabled"))
            on.append(gpuLabel(i, c.smi.gpus.at(i)));
    }
    if (on.isEmpty())
        return check("mig", CheckStatus::Ok, VerifyText::tr("MIG is off: each GPU is whole."));
    return check("mig", CheckStatus::Warn,
                 VerifyText::tr("MIG is enabled on %1: processes see GPU slices, not whole GPUs.").arg(on.join(QStringLiteral(", "))),
                 VerifyText::tr("If you rented whole GPUs, run `sudo nvidia-smi -i N -mig 0` and reset the GPU "
                                "(`sudo nvidia-smi -i N -r`), or ask the provider."));
}

bool topoShowsNvlink(const QString &topo, int gpuCount)
{
    // "GPU0  X  NV18 NV18 …": an all-to-all NVLink matrix on 8 GPUs means NVSwitch.
    static const QRegularExpression nv(QStringLiteral(R"(\bNV\d+\b)"));
    int rowsWithNvlink = 0;
    for (const QString &line : topo.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1StringView("GPU")) && nv.match(line).hasMatch())
            ++rowsWithNvlink;
    }
    return gpuCount >= 8 && rowsWithNvlink >= 8;
}

// systemctl only knows Fabric Manager's state where systemd is PID 1: not in containers (RunPod
// and most container clouds), where Fabric Manager runs on the host, out of sight.
bool systemdCanTell(const DoctorOutput &out)
{
    const QString text = out.text(QStringLiteral("fabricmanager"));
    return out.exitStatus(QStringLiteral("fabricmanager")).value_or(0) != 127 && !text.contains(QLatin1StringView("no systemd"))
           && !text.contains(QLatin1StringView("not been booted with systemd")) && !text.contains(QLatin1StringView("offline"))
           && !text.contains(QLatin1StringView("Failed to connect to bus"));
}

// An NVSwitch system whose Fabric Manager state systemd cannot report: nvidia-smi's fabric state
// says whether the fabric came up; without it, say so rather than predict error 802.
DoctorCheck fabricManagerUnseen(const Context &c)
{
    int completed = 0;
    for (const SmiGpu &gpu : c.smi.gpus) {
        if (gpu.value(QStringLiteral("Fabric/State")).trimmed() == QLatin1StringView("Completed"))
            ++completed;
    }
    if (completed > 0 && completed == c.smi.gpus.size())
        return check("fabric-manager", CheckStatus::Ok,
                     VerifyText::tr("NVSwitch system: nvidia-smi reports the NVLink fabric initialised on all %n GPUs (Fabric "
                                    "Manager runs outside this container).",
                        nullptr, completed));
    return check("fabric-manager", CheckStatus::Warn,
                 VerifyText::tr("NVSwitch system, but whether Fabric Manager runs cannot be told from here: systemd is not "
                                "PID 1 (a container), so systemctl cannot see it."),
                 VerifyText::tr("Check it: `nvidia-smi -q | grep -A2 Fabric` should show State \"Completed\" on every GPU, or "
                                "run a tiny CUDA init (`python3 -c \"import torch; torch.zeros(1).cuda()\"`); error 802 there "
                                "means Fabric Manager is not running — ask the provider."));
}

DoctorCheck fabricManager(const Context &c)
{
    const QString torchError = c.probe.torchError;
    const bool error802 = torchError.contains(QLatin1StringView("802"))
                          || torchError.contains(QLatin1StringView("system not yet initialized"), Qt::CaseInsensitive);
    const QString fix = VerifyText::tr("Start it: `sudo systemctl enable --now nvidia-fabricmanager` (install the "
                                       "nvidia-fabricmanager package matching driver %1 if missing), or ask the provider.")
                            .arg(c.probe.driverVersion);
    QStringList notReady;
    for (int i = 0; i < c.smi.gpus.size(); ++i) {
        const QString state = c.smi.gpus.at(i).value(QStringLiteral("Fabric/State")).trimmed();
        if (!state.isEmpty() && state != QLatin1StringView("N/A") && state != QLatin1StringView("Completed"))
            notReady.append(VerifyText::tr("%1 fabric state \"%2\"").arg(gpuLabel(i, c.smi.gpus.at(i)), state));
    }
    bool sxm = false;
    if (!c.smi.gpus.isEmpty()) {
        const SmiGpu &first = c.smi.gpus.constFirst();
        if (const GpuSpec *spec = c.specs.match(first.name(), first.value(QStringLiteral("PCI/Device Id"))))
            sxm = spec->nvswitch;
    }
    const bool nvswitch = (sxm && c.smi.gpus.size() >= 8)
                          || topoShowsNvlink(c.out.text(QStringLiteral("topo")), int(c.smi.gpus.size()));
    const QString fmState = c.out.text(QStringLiteral("fabricmanager")).trimmed().section(QLatin1Char('\n'), 0, 0);
    if (error802) {
        return check("fabric-manager", CheckStatus::Fail,
                     VerifyText::tr("CUDA fails with error 802 (system not yet initialized): on NVSwitch systems this means "
                                    "the NVIDIA Fabric Manager is not running (Fabric Manager: %1).")
                         .arg(fmState.isEmpty() ? VerifyText::tr("unknown") : fmState),
                     fix);
    }
    if (!notReady.isEmpty()) {
        return check("fabric-manager", CheckStatus::Fail,
                     VerifyText::tr("The NVLink fabric is not initialised: %1; CUDA will fail with error 802.")
                         .arg(notReady.join(QStringLiteral(", "))),
                     fix);
    }
    if (!nvswitch)
        return check("fabric-manager", CheckStatus::Ok, VerifyText::tr("Not an NVSwitch system: Fabric Manager is not needed."));
    if (fmState == QLatin1StringView("active"))
        return check("fabric-manager", CheckStatus::Ok, VerifyText::tr("NVSwitch system and Fabric Manager is running."));
    if (!systemdCanTell(c.out))
        return fabricManagerUnseen(c);
    return check("fabric-manager", CheckStatus::Fail,
                 VerifyText::tr("This is an NVSwitch system (%n GPUs) but Fabric Manager is not running (%1); CUDA will "
                                "fail with error 802.",
                    nullptr, int(c.smi.gpus.size()))
                     .arg(fmState.isEmpty() ? VerifyText::tr("state unknown") : fmState),
                 fix);
}

DoctorCheck clocks(const Context &c)
{
    QStringList hw;
    QStringList sw;
    for (int i = 0; i < c.smi.gpus.size(); ++i) {
        const SmiGpu &gpu = c.smi.gpus.at(i);
        const QStringList hwReasons = hardwareSlowdowns(gpu);
        if (!hwReasons.isEmpty())
            hw.append(QStringLiteral("%1: %2").arg(gpuLabel(i, gpu), hwReasons.join(QStringLiteral(", "))));
        if (smiActive(clockEventReason(gpu, QStringLiteral("SW Thermal Slowdown"))))
            sw.append(QStringLiteral("%1: SW Thermal Slowdown").arg(gpuLabel(i, gpu)));
    }
    if (!hw.isEmpty()) {
        return check("clocks", CheckStatus::Fail,
                     VerifyText::tr("Clocks are throttled by hardware (cut to half or less): %1.").arg(hw.join(QStringLiteral("; "))),
                     VerifyText::tr("This is a cooling or power-delivery fault of the machine: stop the instance and ask the "
                                    "provider for another one."));
    }
    if (!sw.isEmpty()) {
        return check("clocks", CheckStatus::Warn,
                     VerifyText::tr("Clocks are reduced because the GPU runs hot: %1.").arg(sw.join(QStringLiteral("; "))),
                     VerifyText::tr("Watch temperatures in the Monitor tab; if it persists at low load, ask the provider."));
    }
    return check("clocks", CheckStatus::Ok, VerifyText::tr("No thermal or power-brake throttling."));
}

DoctorCheck ecc(const Context &c)
{
    QStringList fails;
    QStringList warns;
    for (int i = 0; i < c.smi.gpus.size(); ++i) {
        const SmiGpu &gpu = c.smi.gpus.at(i);
        const long long volatileUncorrected = uncorrectableEcc(gpu, QStringLiteral("Volatile"));
        const QString label = gpuLabel(i, gpu);
        if (volatileUncorrected > 0)
            fails.append(VerifyText::tr("%1 has %2 uncorrected ECC errors since boot").arg(label).arg(volatileUncorrected));
        if (smiYes(gpu.value(QStringLiteral("Remapped Rows/Pending"))))
            fails.append(VerifyText::tr("%1 has a row remap pending (needs a GPU reset)").arg(label));
        if (smiYes(gpu.value(QStringLiteral("Remapped Rows/Remapping Failure Occurred"))))
            fails.append(VerifyText::tr("%1 ran out of spare memory rows (remapping failure)").arg(label));
        if (smiYes(gpu.value(QStringLiteral("Retired Pages/Pending Page Blacklist")))
            || smiYes(gpu.value(QStringLiteral("Retired Pages/Pending Page Retirement"))))
            fails.append(VerifyText::tr("%1 has a page retirement pending (needs a GPU reset)").arg(label));
        const long long remappedUncorrectable = leadingInt(gpu.value(QStringLiteral("Remapped Rows/Uncorrectable Error")));
        if (remappedUncorrectable > 0 && !smiYes(gpu.value(QStringLiteral("Remapped Rows/Pending"))))
            warns.append(VerifyText::tr("%1 has %2 rows remapped after uncorrectable errors").arg(label).arg(remappedUncorrectable));
    }
    // Page retirement (pre-Ampere): the query lists one row per cause; rows whose address is
    // "[N/A]" are placeholders, not retired pages.
    const QStringList retired = c.out.text(QStringLiteral("retired-pages")).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (c.out.exitStatus(QStringLiteral("retired-pages")).value_or(1) == 0 && !retired.isEmpty()) {
        const QStringList header = retired.constFirst().split(QStringLiteral(", "));
        const qsizetype column = header.indexOf(QStringLiteral("retired_pages.address"));
        int pages = 0;
        for (qsizetype i = 1; column >= 0 && i < retired.size(); ++i) {
            const QStringList cols = retired.at(i).split(QStringLiteral(", "));
            const QString address = cols.value(column).trimmed();
            if (!address.isEmpty() && !address.startsWith(QLatin1Char('[')) && address != QLatin1StringView("N/A"))
                ++pages;
        }
        if (pages > 0)
            warns.append(VerifyText::tr("%1 memory pages have been retired after ECC errors").arg(pages));
    }
    if (!fails.isEmpty()) {
        return check("ecc", CheckStatus::Fail, fails.join(QStringLiteral("; ")) + QLatin1Char('.'),
                     VerifyText::tr("Reset the GPU (`sudo nvidia-smi -r -i N` with no processes on it) or reboot; if errors "
                                    "return, stop the instance and ask the provider for another machine."));
    }
    if (!warns.isEmpty()) {
        return check("ecc", CheckStatus::Warn, warns.join(QStringLiteral("; ")) + QLatin1Char('.'),
                     VerifyText::tr("The memory was repaired, but this GPU has had faults: keep an eye on it (Verify's "
                                    "memory test checks it now)."));
    }
    return check("ecc", CheckStatus::Ok, VerifyText::tr("No uncorrected ECC errors and no pending row remaps."));
}

DoctorCheck pcie(const Context &c)
{
    QStringList below;
    QStringList idleNotes;
    for (int i = 0; i < c.smi.gpus.size(); ++i) {
        const SmiGpu &gpu = c.smi.gpus.at(i);
        const PcieLink link = pcieLink(gpu);
        const long long genMax = link.genMax, genCur = link.genCurrent, widthMax = link.widthMax, widthCur = link.widthCurrent;
        // The link drops its generation when idle (P8 → Gen1): only a busy GPU tells.
        const bool busy = smiBusy(gpu);
        if (widthMax > 0 && widthCur > 0 && widthCur < widthMax) {
            below.append(VerifyText::tr("%1 runs x%2 of x%3").arg(gpuLabel(i, gpu)).arg(widthCur).arg(widthMax));
        } else if (genMax > 0 && genCur > 0 && genCur < genMax) {
            if (busy)
                below.append(VerifyText::tr("%1 runs Gen%2 of Gen%3 under load").arg(gpuLabel(i, gpu)).arg(genCur).arg(genMax));
            else
                idleNotes.append(gpuLabel(i, gpu));
        }
    }
    if (!below.isEmpty()) {
        return check("pcie", CheckStatus::Warn,
                     VerifyText::tr("PCIe link below its maximum: %1.").arg(below.join(QStringLiteral("; "))),
                     VerifyText::tr("Run Verify: it measures host↔device bandwidth under load. If the link stays low, the "
                                    "GPU sits in a slow slot or riser: ask the provider."));
    }
    if (!idleNotes.isEmpty()) {
        return check("pcie", CheckStatus::Ok,
                     VerifyText::tr("PCIe links at full width; %1 idle at a lower generation (normal power saving).")
                         .arg(idleNotes.join(QStringLiteral(", "))));
    }
    return check("pcie", CheckStatus::Ok, VerifyText::tr("PCIe links at their maximum generation and width."));
}

DoctorCheck powerLimit(const Context &c)
{
    QStringList capped;
    for (int i = 0; i < c.smi.gpus.size(); ++i) {
        const SmiGpu &gpu = c.smi.gpus.at(i);
        auto first = [&gpu](std::initializer_list<const char *> paths) {
            for (const char *p : paths) {
                const QString v = gpu.value(QString::fromUtf8(p));
                if (!v.isEmpty() && leadingInt(v) >= 0)
                    return v.section(QLatin1Char(' '), 0, 0).toDouble();
            }
            return 0.0;
        };
        const double enforced = first({"GPU Power Readings/Current Power Limit", "Power Readings/Enforced Power Limit",
                                       "Power Readings/Power Limit", "GPU Power Readings/Power Limit"});
        const double def = first({"GPU Power Readings/Default Power Limit", "Power Readings/Default Power Limit"});
        if (enforced > 0 && def > 0 && enforced < def * 0.97)
            capped.append(VerifyText::tr("%1 at %2 W of %3 W").arg(gpuLabel(i, gpu)).arg(enforced).arg(def));
    }
    if (capped.isEmpty())
        return check("power-limit", CheckStatus::Ok, VerifyText::tr("Power limits at their defaults."));
    return check("power-limit", CheckStatus::Warn,
                 VerifyText::tr("Power-capped below the default: %1.").arg(capped.join(QStringLiteral("; "))),
                 VerifyText::tr("With root: `sudo nvidia-smi -i N -pl DEFAULT_WATTS`; otherwise ask the provider (it cuts "
                                "throughput)."));
}

DoctorCheck torchCheck(const Context &c)
{
    const Probe &p = c.probe;
    if (!p.pythonPresent)
        return check("pytorch", CheckStatus::Ok, VerifyText::tr("No Python on the instance (PyTorch not checked)."));
    if (!p.torchPresent)
        return check("pytorch", CheckStatus::Ok, VerifyText::tr("PyTorch is not installed (nothing to check)."));
    if (p.torchCuda) {
        return check("pytorch", CheckStatus::Ok,
                     VerifyText::tr("PyTorch %1 (CUDA %2) sees the GPU.").arg(p.torchVersion, p.torchCudaVersion));
    }
    if (p.torchCudaVersion.isEmpty()) {
        return check("pytorch", CheckStatus::Fail,
                     VerifyText::tr("PyTorch %1 is a CPU-only build: it cannot use the GPU.").arg(p.torchVersion),
                     p.smiWorks ? torchIndexFor(p.driverCuda) : VerifyText::tr("Fix the driver first (see nvidia-smi)."));
    }
    const int torchMajor = majorMinor(p.torchCudaVersion).first;
    const int driverMajor = majorMinor(p.driverCuda).first;
    if (p.smiWorks && driverMajor > 0 && torchMajor > driverMajor) {
        return check("pytorch", CheckStatus::Fail,
                     VerifyText::tr("PyTorch %1 is built for CUDA %2 but driver %3 supports only CUDA %4, so "
                                    "torch.cuda.is_available() is False.")
                         .arg(p.torchVersion, p.torchCudaVersion, p.driverVersion, p.driverCuda),
                     VerifyText::tr("Install a matching build: `%1`, or upgrade the driver.").arg(torchIndexFor(p.driverCuda)));
    }
    return check("pytorch", CheckStatus::Fail,
                 VerifyText::tr("PyTorch %1 (CUDA %2) cannot use the GPU%3.")
                     .arg(p.torchVersion, p.torchCudaVersion,
                          p.torchError.isEmpty() ? QString() : QStringLiteral(": ") + p.torchError),
                 p.smiWorks ? VerifyText::tr("Check CUDA_VISIBLE_DEVICES and that the container has the GPU (`--gpus all`); "
                                             "see the other checks for driver problems.")
                            : VerifyText::tr("Fix the driver first (see nvidia-smi)."));
}

DoctorCheck disk(const Context &c)
{
    QStringList fails;
    QStringList warns;
    QSet<QString> seen;
    const QStringList lines = c.out.text(QStringLiteral("df")).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        const QStringList cols = line.simplified().split(QLatin1Char(' '));
        if (cols.size() < 6 || cols.at(0) == QLatin1StringView("Filesystem"))
            continue;
        const QString mount = cols.mid(5).join(QLatin1Char(' '));
        if (seen.contains(mount))
            continue;
        seen.insert(mount);
        const double sizeGib = cols.at(1).toDouble() / (1024.0 * 1024.0);
        const double availGib = cols.at(3).toDouble() / (1024.0 * 1024.0);
        const int percent = cols.at(4).chopped(1).toInt();
        const QString what = VerifyText::tr("%1 %2% full (%3 GiB free)").arg(mount).arg(percent).arg(availGib, 0, 'f', 1);
        if (mount == QLatin1StringView("/dev/shm")) {
            if (sizeGib < 1.0)
                warns.append(VerifyText::tr("/dev/shm is only %1 MiB (PyTorch DataLoader workers crash)").arg(qRound(sizeGib * 1024)));
            continue;
        }
        if (percent >= 95 || availGib < 2.0)
            fails.append(what);
        else if (percent >= 90 || availGib < 10.0)
            warns.append(what);
    }
    const QString fix = VerifyText::tr("Free space (`du -xh / | sort -h | tail`, `pip cache purge`, `conda clean -a`) or "
                                       "attach a larger volume; for /dev/shm start the container with `--shm-size=16g`.");
    if (!fails.isEmpty())
        return check("disk", CheckStatus::Fail, VerifyText::tr("Disk nearly full: %1.").arg((fails + warns).join(QStringLiteral("; "))), fix);
    if (!warns.isEmpty())
        return check("disk", CheckStatus::Warn, VerifyText::tr("Low disk space: %1.").arg(warns.join(QStringLiteral("; "))), fix);
    if (seen.isEmpty())
        return check("disk", CheckStatus::Ok, VerifyText::tr("Disk usage unknown (df printed nothing)."));
    return check("disk", CheckStatus::Ok, VerifyText::tr("Enough free disk space."));
}

} // namespace

QList<DoctorCheck> evaluateDoctor(const DoctorOutput &output, const SpecTable &specs, const DoctorOptions &options)
{
    Context c{output, specs, options, probeFromDoctor(output), {}};
    QList<DoctorCheck> checks;
    if (c.probe.simulatedGpu) {
        // Never a pass: what the stand-in reports about "its" GPU is made up, so no GPU check runs.
        checks.append(check("simulated-gpu", CheckStatus::Fail,
                            VerifyText::tr("Simulated GPU: this nvidia-smi is the Gantry sandbox's stand-in, so there is no "
                                           "real GPU to check."),
                            VerifyText::tr("Use it to try Monitor, alerts and the idle policy; rent a GPU instance to check "
                                           "real hardware.")));
    } else {
        checks = driverChecks(c);
    }
    if (c.probe.smiWorks && !c.probe.simulatedGpu) {
        c.smi = parseSmiQuery(output.text(QStringLiteral("smi-q")));
        checks.append(gpuInUse(c));
        checks.append(migCheck(c));
        checks.append(fabricManager(c));
        checks.append(clocks(c));
        checks.append(ecc(c));
        checks.append(pcie(c));
        checks.append(powerLimit(c));
    }
    // Without a working (real) GPU a PyTorch that cannot use one is the same problem as the row above,
    // not a second one: one row per cause.
    const bool gpuUsable = c.probe.smiWorks && !c.probe.simulatedGpu;
    if (gpuUsable || !c.probe.torchPresent || c.probe.torchCuda)
        checks.append(torchCheck(c));
    checks.append(disk(c));
    if (!output.complete) {
        checks.append(check("doctor", CheckStatus::Warn,
                            VerifyText::tr("The doctor script did not finish, so some checks are missing."),
                            VerifyText::tr("Run it again; if it keeps stopping, a command on the instance hangs (often "
                                           "nvidia-smi on a broken driver).")));
    }
    return checks;
}

bool anyFailed(const QList<DoctorCheck> &checks)
{
    return std::any_of(checks.cbegin(), checks.cend(),
                       [](const DoctorCheck &c) { return c.status == CheckStatus::Fail; });
}

} // namespace gantry::verify
