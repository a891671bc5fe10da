#include "core/verify/smiquery.h"

#include <QStringList>

namespace gantry::verify {
namespace {

int indentOf(const QString &line)
{
    int n = 0;
    while (n < line.size() && (line.at(n) == QLatin1Char(' ') || line.at(n) == QLatin1Char('\t')))
        ++n;
    return n;
}

QString stripDeprecation(QString value)
{
    // 610: "610.57.04 [Deprecated; will be removed in CUDA 14.0. Use KMD Version instead]"
    const qsizetype bracket = value.indexOf(QLatin1StringView(" ["));
    if (bracket > 0)
        value.truncate(bracket);
    return value.trimmed();
}

} // namespace

QString SmiGpu::value(const QString &path) const
{
    for (const auto &field : fields) {
        if (field.first == path)
            return field.second;
    }
    return {};
}

QList<QPair<QString, QString>> SmiGpu::under(const QString &prefix) const
{
    QList<QPair<QString, QString>> out;
    const QString withSlash = prefix + QLatin1Char('/');
    for (const auto &field : fields) {
        if (field.first.startsWith(withSlash))
            out.append(field);
    }
    return out;
}

long long leadingInt(const QString &value)
{
    const QString v = value.trimmed();
    qsizetype end = 0;
    while (end < v.size() && v.at(end).isDigit())
        ++end;
    if (end == 0)
        return -1;
    return v.left(end).toLongLong();
}

bool smiActive(const QString &value)
{
    return value.trimmed().compare(QLatin1StringView("Active"), Qt::CaseInsensitive) == 0;
}

bool smiYes(const QString &value)
{
    return value.trimmed().compare(QLatin1StringView("Yes"), Qt::CaseInsensitive) == 0;
}

QString clockEventReason(const SmiGpu &gpu, const QString &leaf)
{
    // HW Thermal and HW Power Brake sit under "HW Slowdown" in the text output.
    for (const QString &base : {QStringLiteral("Clocks Event Reasons"), QStringLiteral("Clocks Throttle Reasons")}) {
        for (const auto &field : gpu.under(base)) {
            if (field.first.endsWith(QLatin1Char('/') + leaf))
                return field.second;
        }
    }
    return {};
}

QStringList hardwareSlowdowns(const SmiGpu &gpu)
{
    QStringList reasons;
    for (const QString &leaf : {QStringLiteral("HW Thermal Slowdown"), QStringLiteral("HW Power Brake Slowdown")}) {
        if (smiActive(clockEventReason(gpu, leaf)))
            reasons.append(leaf);
    }
    if (reasons.isEmpty() && smiActive(clockEventReason(gpu, QStringLiteral("HW Slowdown"))))
        reasons.append(QStringLiteral("HW Slowdown"));
    return reasons;
}

bool smiBusy(const SmiGpu &gpu)
{
    const QString pstate = gpu.value(QStringLiteral("Performance State")).trimmed();
    return pstate == QLatin1StringView("P0") || pstate == QLatin1StringView("P1") || pstate == QLatin1StringView("P2");
}

PcieLink pcieLink(const SmiGpu &gpu)
{
    const QString base = QStringLiteral("PCI/GPU Link Info/");
    return PcieLink{leadingInt(gpu.value(base + QStringLiteral("PCIe Generation/Current"))),
                    leadingInt(gpu.value(base + QStringLiteral("PCIe Generation/Max"))),
                    leadingInt(gpu.value(base + QStringLiteral("Link Width/Current"))),
                    leadingInt(gpu.value(base + QStringLiteral("Link Width/Max")))};
}

long long uncorrectableEcc(const SmiGpu &gpu, const QString &scope)
{
    long long total = 0;
    for (const auto &field : gpu.under(QStringLiteral("ECC Errors/") + scope)) {
        const bool uncorrected = field.first.contains(QLatin1StringView("Uncorrectable"))
                                 || (field.first.contains(QLatin1StringView("Double Bit"))
                                     && field.first.endsWith(QLatin1StringView("/Total")));
        if (uncorrected && leadingInt(field.second) > 0)
            total += leadingInt(field.second);
    }
    return total;
}

SmiQuery parseSmiQuery(const QString &text)
{
    SmiQuery query;
    SmiGpu *gpu = nullptr;
    QList<QPair<int, QString>> stack; // (indent, section name)
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (QString line : lines) {
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (line.trimmed().isEmpty() || line.trimmed().startsWith(QLatin1StringView("====")))
            continue;
        const int indent = indentOf(line);
        const QString body = line.trimmed();
        if (indent == 0 && body.startsWith(QLatin1StringView("GPU ")) && !body.contains(QLatin1StringView(" : "))) {
            query.gpus.append(SmiGpu{body.mid(4).trimmed(), {}});
            gpu = &query.gpus.last();
            stack.clear();
            continue;
        }
        const qsizetype sep = body.indexOf(QLatin1StringView(" : "));
        QString key = sep >= 0 ? body.left(sep).trimmed() : body;
        QString value = sep >= 0 ? body.mid(sep + 3).trimmed() : QString();
        if (sep < 0 && body.endsWith(QLatin1StringView(" :"))) {
            key = body.chopped(2).trimmed();
        } else if (sep < 0 && body.endsWith(QLatin1Char(':'))) {
            key = body.chopped(1).trimmed();
        }
        while (!stack.isEmpty() && stack.last().first >= indent)
            stack.removeLast();
        if (!gpu) {
            if (key == QLatin1StringView("Driver Version") || key == QLatin1StringView("KMD Version")) {
                if (query.driverVersion.isEmpty() || key == QLatin1StringView("KMD Version"))
                    query.driverVersion = stripDeprecation(value);
            } else if (key == QLatin1StringView("CUDA Version") || key == QLatin1StringView("CUDA UMD Version")) {
                if (query.cudaVersion.isEmpty() || key == QLatin1StringView("CUDA UMD Version"))
                    query.cudaVersion = stripDeprecation(value);
            } else if (key == QLatin1StringView("Attached GPUs")) {
                query.attachedGpus = int(leadingInt(value));
            }
            continue;
        }
        QStringList parts;
        for (const auto &entry : std::as_const(stack))
            parts.append(entry.second);
        parts.append(key);
        const QString path = parts.join(QLatin1Char('/'));
        if (sep < 0 && value.isEmpty()) {
            stack.append({indent, key}); // a section header: "PCI", "    GPU Link Info"
            continue;
        }
        gpu->fields.append({path, value});
    }
    return query;
}

} // namespace gantry::verify
