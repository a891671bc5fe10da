#include "core/verify/doctor.h"
#include "core/verify/verifytext.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>

// What the doctor script is and prints, and how its findings are written out: the input and the
// output of evaluateDoctor (doctor.cpp), which holds the checks themselves.
namespace gantry::verify {
QByteArray doctorScript()
{
    QFile file(QStringLiteral(":/gantry/verify/gpu-doctor.sh"));
    if (!file.open(QIODevice::ReadOnly))
        return QByteArrayLiteral("echo 'gantry: doctor script missing from this build' >&2; exit 1\n");
    return file.readAll();
}

DoctorOutput parseDoctorOutput(const QByteArray &output)
{
    static const QRegularExpression header(QStringLiteral(R"(^@@gantry ([A-Za-z0-9_.-]+)@@\s*$)"));
    static const QRegularExpression rc(QStringLiteral(R"(^@@rc (-?\d+)@@\s*$)"));
    DoctorOutput result;
    QString current;
    QStringList buffer;
    auto flush = [&] {
        if (current.isEmpty())
            return;
        while (!buffer.isEmpty() && buffer.constFirst().trimmed().isEmpty())
            buffer.removeFirst();
        while (!buffer.isEmpty() && buffer.constLast().trimmed().isEmpty())
            buffer.removeLast();
        result.sections[current].text = buffer.join(QLatin1Char('\n'));
        buffer.clear();
    };
    for (const QString &line : QString::fromUtf8(output).split(QLatin1Char('\n'))) {
        // Both patterns are anchored on "@@": the other lines (nearly all) skip the two matches.
        if (!line.startsWith(QLatin1StringView("@@"))) {
            if (!current.isEmpty())
                buffer.append(line.endsWith(QLatin1Char('\r')) ? line.chopped(1) : line);
            continue;
        }
        const QRegularExpressionMatch h = header.match(line);
        if (h.hasMatch()) {
            flush();
            current = h.captured(1);
            if (current == QLatin1StringView("end")) {
                result.complete = true;
                current.clear();
            } else {
                result.sections.insert(current, DoctorSection{});
            }
            continue;
        }
        const QRegularExpressionMatch r = rc.match(line);
        if (r.hasMatch() && !current.isEmpty()) {
            result.sections[current].exitStatus = r.captured(1).toInt();
            continue;
        }
        if (!current.isEmpty())
            buffer.append(line.endsWith(QLatin1Char('\r')) ? line.chopped(1) : line);
    }
    flush();
    return result;
}

QString checkStatusName(CheckStatus status)
{
    switch (status) {
    case CheckStatus::Ok: return QStringLiteral("ok");
    case CheckStatus::Warn: return QStringLiteral("warn");
    case CheckStatus::Fail: return QStringLiteral("fail");
    }
    return QStringLiteral("fail");
}

SmiFailure classifySmiFailure(const QString &text)
{
    if (text.contains(QLatin1StringView("couldn't communicate with the NVIDIA driver"))) {
        return {VerifyText::tr("nvidia-smi cannot talk to the NVIDIA driver: the kernel module is not loaded (driver not "
                               "installed for this kernel, or the module failed to load)."),
                VerifyText::tr("Reboot; if it persists reinstall the driver for the running kernel (`sudo apt install "
                               "--reinstall nvidia-driver-XXX` / DKMS) or relaunch with the provider's GPU image.")};
    }
    if (text.contains(QLatin1StringView("Driver/library version mismatch"))) {
        static const QRegularExpression lib(QStringLiteral(R"(NVML library version:\s*(\S+))"));
        const QString version = lib.match(text).captured(1);
        return {version.isEmpty()
                    ? VerifyText::tr("NVML/driver version mismatch: the driver was upgraded but the old kernel module is "
                                     "still loaded.")
                    : VerifyText::tr("NVML/driver version mismatch: the user-space driver is %1 but the loaded kernel module "
                                     "is older (the driver was upgraded without a reboot).")
                          .arg(version),
                VerifyText::tr("Reboot the instance (or stop GPU processes and reload the nvidia kernel modules).")};
    }
    if (text.contains(QLatin1StringView("No devices were found"))) {
        return {VerifyText::tr("The NVIDIA driver is loaded but sees no GPU: the GPU is not attached to this VM/container."),
                VerifyText::tr("Start the container with the GPU (`docker run --gpus all`), check CUDA/NVIDIA_VISIBLE_DEVICES, "
                               "or relaunch the instance.")};
    }
    if (text.contains(QLatin1StringView("GPU is lost"))) {
        return {VerifyText::tr("A GPU has fallen off the bus (\"GPU is lost\"): hardware or power fault."),
                VerifyText::tr("Reboot to recover; if it happens again, stop the instance and ask the provider for another "
                               "machine.")};
    }
    if (text.contains(QLatin1StringView("Unable to determine the device handle"))) {
        return {VerifyText::tr("nvidia-smi cannot open a GPU (%1).").arg(text.trimmed().section(QLatin1Char('\n'), 0, 0)),
                VerifyText::tr("Reboot; if it persists, the GPU is faulty: ask the provider for another machine.")};
    }
    if (text.contains(QLatin1StringView("Failed to initialize NVML"))) {
        return {VerifyText::tr("NVML fails to start: %1.").arg(text.trimmed().section(QLatin1Char('\n'), 0, 0)),
                VerifyText::tr("Reboot; if it persists reinstall the driver or relaunch with the provider's GPU image.")};
    }
    return {};
}

QJsonObject doctorToJson(const QList<DoctorCheck> &checks)
{
    QJsonArray array;
    for (const DoctorCheck &c : checks) {
        array.append(QJsonObject{{QStringLiteral("id"), c.id},
                                 {QStringLiteral("status"), checkStatusName(c.status)},
                                 {QStringLiteral("message"), c.message},
                                 {QStringLiteral("fix"), c.fix}});
    }
    return QJsonObject{{QStringLiteral("checks"), array}};
}

} // namespace gantry::verify
