// SPDX-License-Identifier: Apache-2.0
#include "core/verify/machinefigures.h"
#include "core/verify/verifytext.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <optional>

namespace gantry::verify {
namespace {

QString fmt(double value)
{
    return QString::number(value, 'f', value >= 100 ? 0 : 1);
}

QString rate(double mbps)
{
    return mbps >= 1000 ? VerifyText::tr("%1 GB/s").arg(fmt(mbps / 1000)) : VerifyText::tr("%1 MB/s").arg(fmt(mbps));
}

// "N bytes (…) copied, T s, R" (GNU dd) or "… copied, T seconds, R" (BusyBox): bytes and seconds.
std::optional<std::pair<qint64, double>> ddFigures(const QString &line)
{
    static const QRegularExpression summary(QStringLiteral("^(\\d+) bytes.*copied, ([0-9.eE+-]+) s"));
    const QRegularExpressionMatch m = summary.match(line);
    if (!m.hasMatch())
        return std::nullopt;
    const qint64 bytes = m.captured(1).toLongLong();
    const double seconds = m.captured(2).toDouble();
    if (bytes <= 0 || seconds <= 0)
        return std::nullopt;
    return std::pair{bytes, seconds};
}

QByteArray resource(const char *path)
{
    QFile file(QString::fromLatin1(path));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// One machine figure against its reference where the table has one, else shown without a verdict.
AcceptCheck judgedFigure(const char *name, const QString &measured, double value, const ReferenceFigure *ref)
{
    AcceptCheck check{std::nullopt, QString::fromUtf8(name), Verdict::Pass, {}};
    if (!ref) {
        check.detail = VerifyText::tr("%1. No achieved figure on record for this machine, so it is shown, not judged.").arg(measured);
        return check;
    }
    judgeAgainstReference(check, measured, value, *ref);
    return check;
}

AcceptCheck skipped(const char *name, const QString &why)
{
    return AcceptCheck{std::nullopt, QString::fromUtf8(name), Verdict::Skip, why};
}

AcceptCheck peerCopies(const QJsonObject &doc, const QString &specId, const ReferenceTable &references,
                       QList<MachineFigure> *figures)
{
    if (doc.contains(QLatin1StringView("p2p_error")))
        return skipped("gpu-to-gpu", doc.value(QLatin1StringView("p2p_error")).toString());
    std::optional<QJsonObject> slowest;
    bool noPeerAccess = false;
    for (const QJsonValue &v : doc.value(QLatin1StringView("p2p")).toArray()) {
        const QJsonObject pair = v.toObject();
        noPeerAccess = noPeerAccess || !pair.value(QLatin1StringView("peer_access")).toBool(true);
        if (!slowest || pair.value(QLatin1StringView("gbs")).toDouble() < slowest->value(QLatin1StringView("gbs")).toDouble())
            slowest = pair;
    }
    if (!slowest)
        return skipped("gpu-to-gpu", VerifyText::tr("The GPU-to-GPU copy gave no figure."));
    const double gbs = slowest->value(QLatin1StringView("gbs")).toDouble();
    const int dst = slowest->value(QLatin1StringView("dst")).toInt();
    const ReferenceFigure *ref = references.find(specId, QStringLiteral("p2p_unidirectional"));
    QString measured = VerifyText::tr("GPU 0 → GPU %1 (the slowest pair): %2 GB/s").arg(dst).arg(fmt(gbs));
    if (noPeerAccess)
        measured += VerifyText::tr(" (some pairs have no peer access: their copies go through host memory)");
    figures->append(MachineFigure{QStringLiteral("p2p_unidirectional"), dst, gbs, QStringLiteral("GB/s"),
                                  ref ? std::optional<double>(ref->value) : std::nullopt, ref ? ref->source : QString()});
    return judgedFigure("gpu-to-gpu", measured, gbs, ref);
}

AcceptCheck allReduce(const QJsonObject &doc, const QString &specId, int gpuCount, const ReferenceTable &references,
                      QList<MachineFigure> *figures)
{
    if (doc.contains(QLatin1StringView("allreduce_error")))
        return skipped("nccl-all-reduce", doc.value(QLatin1StringView("allreduce_error")).toString());
    const QJsonObject result = doc.value(QLatin1StringView("allreduce")).toObject();
    const double busbw = result.value(QLatin1StringView("busbw_gbs")).toDouble();
    if (busbw <= 0)
        return skipped("nccl-all-reduce", VerifyText::tr("The all-reduce gave no figure."));
    const ReferenceFigure *ref = references.find(specId, QStringLiteral("nccl_allreduce_busbw"), gpuCount);
    const QString measured = VerifyText::tr("All-reduce over %n GPU(s): bus bandwidth %1 GB/s", nullptr,
                                            result.value(QLatin1StringView("ranks")).toInt(gpuCount))
                                 .arg(fmt(busbw));
    figures->append(MachineFigure{QStringLiteral("nccl_allreduce_busbw"), 0, busbw, QStringLiteral("GB/s"),
                                  ref ? std::optional<double>(ref->value) : std::nullopt, ref ? ref->source : QString()});
    return judgedFigure("nccl-all-reduce", measured, busbw, ref);
}

} // namespace

Result<DiskSpeed> parseDiskSpeed(const QByteArray &output)
{
    DiskSpeed disk;
    bool wrote = false, read = false;
    for (const QByteArray &raw : output.split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (!line.startsWith(QLatin1StringView("gantry-disk ")))
            continue;
        const QString rest = line.mid(12);
        if (rest.startsWith(QLatin1StringView("error ")))
            return Error{ErrorCode::RemoteFailed, VerifyText::tr("The data disk was not measured: %1.").arg(rest.mid(6))};
        if (rest.startsWith(QLatin1StringView("dir "))) {
            disk.folder = rest.mid(4);
            continue;
        }
        const QStringList words = rest.split(QLatin1Char(' '));
        if (words.size() < 3)
            continue;
        const auto figures = ddFigures(words.mid(2).join(QLatin1Char(' ')));
        if (!figures)
            continue;
        const double mbps = double(figures->first) / figures->second / 1e6;
        if (words.at(0) == QLatin1StringView("write")) {
            disk.writeMBps = mbps;
            disk.directWrite = words.at(1) == QLatin1StringView("direct");
            disk.bytes = figures->first;
            wrote = true;
        } else if (words.at(0) == QLatin1StringView("read")) {
            disk.readMBps = mbps;
            disk.directRead = words.at(1) == QLatin1StringView("direct");
            read = true;
        }
    }
    if (!wrote || !read)
        return Error{ErrorCode::RemoteFailed, VerifyText::tr("The data disk was not measured: dd printed no figure.")};
    return disk;
}

AcceptCheck judgeDisk(const Result<DiskSpeed> &disk)
{
    if (!disk)
        return skipped("disk", disk.error().message);
    const DiskSpeed &d = *disk;
    AcceptCheck check{std::nullopt, QStringLiteral("disk"), Verdict::Pass, {}};
    check.detail = VerifyText::tr("%1: write %2%3, read %4%5 (%6 MiB).")
                       .arg(d.folder, rate(d.writeMBps),
                            d.directWrite ? QString() : VerifyText::tr(" (written through with fsync)"),
                            rate(d.readMBps),
                            d.directRead ? QString() : VerifyText::tr(" (from the page cache, not judged)"))
                       .arg(d.bytes >> 20);
    QStringList slow;
    if (d.writeMBps < kDiskWriteWarnMBps)
        slow << VerifyText::tr("writes under %1 MB/s stall every checkpoint").arg(kDiskWriteWarnMBps);
    if (d.directRead && d.readMBps < kDiskReadWarnMBps)
        slow << VerifyText::tr("reads under %1 MB/s keep a data loader waiting").arg(kDiskReadWarnMBps);
    if (!slow.isEmpty()) {
        check.status = Verdict::Warn;
        check.detail += QLatin1Char(' ') + VerifyText::tr("Slow: %1. Keep the data on a local NVMe disk, or ask for one.")
                                               .arg(slow.join(QStringLiteral("; ")));
    }
    return check;
}

QList<AcceptCheck> judgeMultiGpu(const QJsonObject &doc, const QString &specId, int gpuCount,
                                 const ReferenceTable &references, QList<MachineFigure> *figures)
{
    if (doc.contains(QLatin1StringView("error"))) {
        const QString why = doc.value(QLatin1StringView("error")).toString();
        return {skipped("gpu-to-gpu", why), skipped("nccl-all-reduce", why)};
    }
    return {peerCopies(doc, specId, references, figures), allReduce(doc, specId, gpuCount, references, figures)};
}

QString diskSpeedCommand(int sizeMiB, int seconds, const QString &folder)
{
    QString command = QStringLiteral("sh -s -- %1 %2").arg(sizeMiB).arg(seconds);
    if (!folder.isEmpty())
        command += QLatin1Char(' ') + ssh::shellQuote(folder);
    return command;
}

QString multiGpuCommand(const QString &backend, const QString &device, int sizeMiB, int seconds, int processes)
{
    // The script goes to a private folder first: PyTorch's spawned ranks import it by path.
    return QStringLiteral("d=$(mktemp -d \"${TMPDIR:-/tmp}/gantry-multi.XXXXXX\") || exit 1; trap 'rm -rf \"$d\"' EXIT; "
                          "cat > \"$d/gantry_multi_check.py\" && PY=$(command -v python3 || command -v python) && "
                          "\"$PY\" \"$d/gantry_multi_check.py\" %1 %2 %3 %4 %5")
        .arg(ssh::shellQuote(backend), ssh::shellQuote(device))
        .arg(sizeMiB)
        .arg(seconds)
        .arg(processes);
}

QByteArray diskSpeedScript()
{
    return resource(":/gantry/verify/data-disk-speed.sh");
}

QByteArray multiGpuScript()
{
    return resource(":/gantry/verify/gpu-multi-check.py");
}

namespace {

Result<QByteArray> runScript(ssh::Session &session, const QString &command, const QByteArray &script, int timeoutMs,
                             const CancelToken &cancel)
{
    QByteArray out;
    ssh::Session::ExecOptions options;
    options.stdinData = script;
    options.onStdout = [&out](const QByteArray &data) { out += data; };
    options.cancel = cancel.flag();
    options.timeoutMs = timeoutMs;
    options.maxOutputBytes = 1 << 20;
    if (auto status = session.exec(command, options); !status)
        return status.error();
    return out;
}

} // namespace

QList<AcceptCheck> measureMachineFigures(ssh::Session &session, const MachineFiguresRequest &request,
                                         const ReferenceTable &references, const CancelToken &cancel,
                                         QList<MachineFigure> *figures)
{
    QList<AcceptCheck> checks;
    const int diskTimeoutMs = (request.diskSeconds * 2 + 20) * 1000;
    auto disk = runScript(session, diskSpeedCommand(request.diskMiB, request.diskSeconds, request.diskFolder), diskSpeedScript(),
                          diskTimeoutMs, cancel);
    checks.append(judgeDisk(disk ? parseDiskSpeed(*disk) : Result<DiskSpeed>(disk.error())));
    if (request.gpuCount < 2 || cancel.isCancelled())
        return checks;
    if (!request.torchCuda) {
        const QString why = VerifyText::tr("Measured through PyTorch with CUDA, which this machine does not have.");
        return checks << skipped("gpu-to-gpu", why) << skipped("nccl-all-reduce", why);
    }
    // Each rank imports PyTorch (seconds) before it measures: the limit allows for that.
    const int multiTimeoutMs = (request.multiGpuSeconds * 4 + 60) * 1000;
    auto multi = runScript(session, multiGpuCommand(QStringLiteral("nccl"), QStringLiteral("cuda"), 256, request.multiGpuSeconds),
                           multiGpuScript(), multiTimeoutMs, cancel);
    QJsonObject doc;
    if (!multi)
        doc.insert(QStringLiteral("error"), multi.error().message);
    else
        doc = QJsonDocument::fromJson(multi->trimmed().split('\n').constLast()).object();
    if (doc.isEmpty())
        doc.insert(QStringLiteral("error"), VerifyText::tr("The multi-GPU check printed no result."));
    checks.append(judgeMultiGpu(doc, request.specId, request.gpuCount, references, figures));
    return checks;
}

void mergeChecks(Acceptance &acceptance, const QList<AcceptCheck> &checks)
{
    for (const AcceptCheck &check : checks) {
        auto same = std::find_if(acceptance.checks.begin(), acceptance.checks.end(), [&check](const AcceptCheck &c) {
            return !c.gpu && c.name == check.name;
        });
        if (same != acceptance.checks.end())
            *same = check;
        else
            acceptance.checks.append(check);
    }
}

} // namespace gantry::verify
