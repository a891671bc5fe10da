#include "core/hosts/machinefacts.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>

namespace gantry {
namespace {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class FactsText
{
    Q_DECLARE_TR_FUNCTIONS(facts)
};

QHash<QString, QStringList> splitSections(const QByteArray &output)
{
    QHash<QString, QStringList> sections;
    QString current;
    const QStringList lines = QString::fromUtf8(output).split(QLatin1Char('\n'));
    for (const QString &raw : lines) {
        const QString line = raw.trimmed();
        if (line.startsWith(QStringLiteral("@@"))) {
            current = line.mid(2);
            sections[current];
            continue;
        }
        if (!current.isEmpty() && !line.isEmpty())
            sections[current] << line;
    }
    return sections;
}

void deriveProblems(MachineFacts &facts)
{
    if (!facts.nvidiaSmiFound) {
        facts.problems << MachineFacts::Problem{
            FactsText::tr("no NVIDIA driver found (nvidia-smi is not installed)"),
            FactsText::tr("use an image with the NVIDIA driver (Lambda Stack, a RunPod PyTorch template, an AutoDL CUDA image), "
                          "or install it: sudo apt install nvidia-driver-%1 (then reboot)").arg(kRecommendedDriverMajor)};
    } else if (!facts.nvidiaSmiError.isEmpty()) {
        facts.problems << MachineFacts::Problem{
            FactsText::tr("nvidia-smi fails: %1").arg(facts.nvidiaSmiError),
            facts.nvidiaSmiError.contains(QStringLiteral("mismatch"), Qt::CaseInsensitive)
                ? FactsText::tr("the driver was upgraded without a reboot: reboot the instance (or reload the nvidia kernel modules)")
                : FactsText::tr("check `dmesg | grep -i nvrm` for Xid errors; if the GPU fell off the bus, ask the provider for another machine")};
    }
    if (facts.torchCudaAvailable.has_value() && !*facts.torchCudaAvailable && facts.nvidiaSmiFound) {
        facts.problems << MachineFacts::Problem{
            FactsText::tr("PyTorch %1 cannot use the GPU (torch.cuda.is_available() is False; built for CUDA %2, driver supports CUDA %3)")
                .arg(facts.torchVersion, facts.torchCudaVersion.isEmpty() ? FactsText::tr("none (CPU-only build)") : facts.torchCudaVersion,
                     facts.cudaVersion.isEmpty() ? FactsText::tr("unknown") : facts.cudaVersion),
            FactsText::tr("install a CUDA build of PyTorch no newer than the driver's CUDA, e.g. pip install torch --index-url "
                          "https://download.pytorch.org/whl/cu121")};
    }
    if (facts.diskFreeMiB && facts.diskTotalMiB && *facts.diskTotalMiB > 0
        && (*facts.diskFreeMiB < 5 * 1024 || *facts.diskFreeMiB * 100 / *facts.diskTotalMiB < 5)) {
        facts.problems << MachineFacts::Problem{
            FactsText::tr("disk nearly full: %1 GiB free on %2").arg(double(*facts.diskFreeMiB) / 1024.0, 0, 'f', 1).arg(facts.diskMount),
            FactsText::tr("delete old checkpoints or caches (~/.cache/pip, ~/.cache/huggingface), or attach a larger volume")};
    }
}

} // namespace

QString machineFactsScript()
{
    return QStringLiteral(
        "export LC_ALL=C; "
        "echo @@os; (. /etc/os-release 2>/dev/null && echo \"$PRETTY_NAME\") || uname -s; "
        "echo @@kernel; uname -srm; "
        "echo @@cpu; grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2-; nproc 2>/dev/null; "
        "echo @@mem; grep -E '^(MemTotal|MemAvailable):' /proc/meminfo 2>/dev/null; "
        "echo @@disk; df -Pk \"$HOME\" 2>/dev/null | tail -n 1; "
        "echo @@gpus; if command -v nvidia-smi >/dev/null 2>&1; then "
        "nvidia-smi --query-gpu=index,name,uuid,memory.total,driver_version --format=csv,noheader,nounits 2>&1; "
        "echo @@smi; nvidia-smi 2>&1 | grep -m2 -E 'CUDA Version|NVIDIA-SMI has failed|Failed to initialize|%1'; "
        "echo @@simulated; S=$(command -v nvidia-smi); [ -e \"${S%/*}/%2\" ] && echo marker-file; "
        "else echo __none__; fi; "
        "echo @@python; command -v python3 >/dev/null 2>&1 && python3 -c 'import sys; print(sys.version.split()[0])' 2>&1; "
        "echo @@torch; command -v python3 >/dev/null 2>&1 && timeout 60 python3 -c "
        "'import torch; print(torch.__version__); print(torch.version.cuda); print(torch.cuda.is_available()); "
        "print(torch.cuda.device_count())' 2>/dev/null; "
        "echo @@end")
        .arg(QLatin1StringView(kSimulatedGpuMarkerText), QLatin1StringView(kSimulatedGpuMarkerFile));
}

MachineFacts parseMachineFacts(const QByteArray &output)
{
    MachineFacts facts;
    const QHash<QString, QStringList> s = splitSections(output);
    facts.os = s.value(QStringLiteral("os")).value(0);
    facts.kernel = s.value(QStringLiteral("kernel")).value(0);
    const QStringList cpu = s.value(QStringLiteral("cpu"));
    for (const QString &line : cpu) {
        bool isNumber = false;
        const int n = line.toInt(&isNumber);
        if (isNumber)
            facts.cpuCores = n;
        else
            facts.cpuModel = line.simplified();
    }
    for (const QString &line : s.value(QStringLiteral("mem"))) {
        const QStringList parts = line.simplified().split(QLatin1Char(' '));
        if (parts.size() < 2)
            continue;
        const qint64 mib = parts[1].toLongLong() / 1024;
        if (parts[0] == QLatin1StringView("MemTotal:"))
            facts.memTotalMiB = mib;
        else if (parts[0] == QLatin1StringView("MemAvailable:"))
            facts.memAvailableMiB = mib;
    }
    const QStringList df = s.value(QStringLiteral("disk")).value(0).simplified().split(QLatin1Char(' '));
    if (df.size() >= 6) {
        facts.diskTotalMiB = df[1].toLongLong() / 1024;
        facts.diskFreeMiB = df[3].toLongLong() / 1024;
        facts.diskMount = df[5];
    }
    const QStringList gpuLines = s.value(QStringLiteral("gpus"));
    facts.nvidiaSmiFound = !gpuLines.contains(QStringLiteral("__none__"));
    if (facts.nvidiaSmiFound) {
        for (const QString &line : gpuLines) {
            const QStringList f = line.split(QLatin1Char(','));
            bool indexOk = false;
            const int index = f.value(0).trimmed().toInt(&indexOk);
            if (f.size() >= 5 && indexOk) {
                MachineFacts::Gpu gpu;
                gpu.index = index;
                gpu.name = f[1].trimmed();
                gpu.uuid = f[2].trimmed();
                bool memOk = false;
                const int mem = f[3].trimmed().toInt(&memOk);
                if (memOk)
                    gpu.memoryTotalMiB = mem;
                facts.driverVersion = f[4].trimmed();
                facts.gpus << gpu;
            } else if (facts.nvidiaSmiError.isEmpty()) {
                facts.nvidiaSmiError = line;
            }
        }
        static const QRegularExpression cudaRe(QStringLiteral("CUDA Version:\\s*([0-9.]+)"));
        facts.simulatedGpu = !s.value(QStringLiteral("simulated")).isEmpty();
        for (const QString &line : s.value(QStringLiteral("smi"))) {
            if (line.contains(QLatin1StringView(kSimulatedGpuMarkerText), Qt::CaseInsensitive)) {
                facts.simulatedGpu = true;
                continue;
            }
            const auto m = cudaRe.match(line);
            if (m.hasMatch())
                facts.cudaVersion = m.captured(1);
            else if (facts.nvidiaSmiError.isEmpty() && facts.gpus.isEmpty())
                facts.nvidiaSmiError = line;
        }
        if (facts.gpus.isEmpty() && facts.nvidiaSmiError.isEmpty())
            facts.nvidiaSmiError = FactsText::tr("nvidia-smi lists no GPU");
    }
    facts.pythonVersion = s.value(QStringLiteral("python")).value(0);
    const QStringList torch = s.value(QStringLiteral("torch"));
    if (torch.size() >= 4) {
        facts.torchVersion = torch[0];
        facts.torchCudaVersion = torch[1] == QLatin1StringView("None") ? QString() : torch[1];
        facts.torchCudaAvailable = torch[2] == QLatin1StringView("True");
        facts.torchDeviceCount = torch[3].toInt();
    }
    deriveProblems(facts);
    return facts;
}

Result<MachineFacts> gatherMachineFacts(ssh::Session &session, const CancelToken &cancel)
{
    QByteArray out;
    ssh::Session::ExecOptions options;
    options.onStdout = [&out](const QByteArray &data) { out += data; };
    options.cancel = cancel.flag();
    options.timeoutMs = 90000;
    auto status = session.exec(machineFactsScript(), options);
    if (!status)
        return status.error();
    if (!out.contains("@@end"))
        return makeError(ErrorCode::RemoteFailed,
                         FactsText::tr("the facts script did not complete on %1 (is the login shell POSIX-compatible?)")
                             .arg(session.target().display()));
    return parseMachineFacts(out);
}

QJsonObject MachineFacts::toJson() const
{
    auto optNum = [](const std::optional<qint64> &v) { return v ? QJsonValue(double(*v)) : QJsonValue(); };
    QJsonArray gpuArray;
    for (const Gpu &gpu : gpus) {
        gpuArray.append(QJsonObject{{QStringLiteral("index"), gpu.index},
                                    {QStringLiteral("name"), gpu.name},
                                    {QStringLiteral("uuid"), gpu.uuid},
                                    {QStringLiteral("memory_total_mib"), gpu.memoryTotalMiB ? QJsonValue(*gpu.memoryTotalMiB) : QJsonValue()}});
    }
    QJsonArray problemArray;
    for (const Problem &p : problems)
        problemArray.append(QJsonObject{{QStringLiteral("message"), p.message}, {QStringLiteral("fix"), p.fix}});
    auto optStr = [](const QString &v) { return v.isEmpty() ? QJsonValue() : QJsonValue(v); };
    return QJsonObject{
        {QStringLiteral("os"), optStr(os)},
        {QStringLiteral("kernel"), optStr(kernel)},
        {QStringLiteral("cpu_model"), optStr(cpuModel)},
        {QStringLiteral("cpu_cores"), cpuCores},
        {QStringLiteral("mem_total_mib"), optNum(memTotalMiB)},
        {QStringLiteral("mem_available_mib"), optNum(memAvailableMiB)},
        {QStringLiteral("disk_free_mib"), optNum(diskFreeMiB)},
        {QStringLiteral("disk_total_mib"), optNum(diskTotalMiB)},
        {QStringLiteral("disk_mount"), optStr(diskMount)},
        {QStringLiteral("nvidia_smi_found"), nvidiaSmiFound},
        {QStringLiteral("nvidia_smi_error"), optStr(nvidiaSmiError)},
        {QStringLiteral("simulated_gpu"), simulatedGpu},
        {QStringLiteral("gpus"), gpuArray},
        {QStringLiteral("driver_version"), optStr(driverVersion)},
        {QStringLiteral("cuda_version"), optStr(cudaVersion)},
        {QStringLiteral("python_version"), optStr(pythonVersion)},
        {QStringLiteral("torch_version"), optStr(torchVersion)},
        {QStringLiteral("torch_cuda_version"), optStr(torchCudaVersion)},
        {QStringLiteral("torch_cuda_available"), torchCudaAvailable ? QJsonValue(*torchCudaAvailable) : QJsonValue()},
        {QStringLiteral("torch_device_count"), torchDeviceCount},
        {QStringLiteral("problems"), problemArray},
    };
}

} // namespace gantry
