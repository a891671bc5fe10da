#include "core/verify/specs.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gantry::verify {
namespace {

std::optional<double> number(const QJsonObject &object, QLatin1StringView key)
{
    const QJsonValue value = object.value(key);
    if (!value.isDouble())
        return std::nullopt;
    return value.toDouble();
}

QString normalizeAdvertised(QString text)
{
    text.replace(QLatin1Char('_'), QLatin1Char(' '));
    return text.simplified();
}

} // namespace

std::optional<double> GpuSpec::expectedMemoryMib() const
{
    if (memoryMib)
        return memoryMib;
    if (memoryGb)
        return *memoryGb * 1000.0 * 1000.0 * 1000.0 / (1024.0 * 1024.0);
    return std::nullopt;
}

Result<SpecTable> SpecTable::fromJson(const QByteArray &json)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        return Error::make(ErrorCode::Parse, QStringLiteral("the GPU spec table is not valid JSON (%1)")
                                                 .arg(parseError.errorString()));
    }
    const QJsonObject root = document.object();
    if (root.value(QLatin1StringView("schema")).toString() != QLatin1StringView("gantry-gpu-specs/1")) {
        return Error::make(ErrorCode::Parse,
                           QStringLiteral("the GPU spec table has an unknown schema; reinstall Gantry"));
    }
    SpecTable table;
    const QJsonArray gpus = root.value(QLatin1StringView("gpus")).toArray();
    for (const QJsonValue &value : gpus) {
        const QJsonObject o = value.toObject();
        GpuSpec spec;
        spec.id = o.value(QLatin1StringView("id")).toString();
        spec.model = o.value(QLatin1StringView("model")).toString();
        spec.family = o.value(QLatin1StringView("family")).toString();
        for (const QJsonValue &id : o.value(QLatin1StringView("pci_device_ids")).toArray())
            spec.pciDeviceIds.append(normalizePciDeviceId(id.toString()));
        for (const QJsonValue &pattern : o.value(QLatin1StringView("name_patterns")).toArray()) {
            QRegularExpression re(pattern.toString(), QRegularExpression::CaseInsensitiveOption);
            if (!re.isValid()) {
                return Error::make(ErrorCode::Parse, QStringLiteral("GPU spec %1 has a bad name pattern: %2")
                                                         .arg(spec.id, re.errorString()));
            }
            spec.namePatterns.append(re);
        }
        spec.memoryGb = number(o, QLatin1StringView("memory_gb"));
        spec.memoryMib = number(o, QLatin1StringView("memory_mib"));
        spec.memoryType = o.value(QLatin1StringView("memory_type")).toString();
        spec.busWidthBits = number(o, QLatin1StringView("bus_width_bits"));
        spec.memoryBandwidthTbs = number(o, QLatin1StringView("memory_bandwidth_tbs"));
        spec.fp32Tflops = number(o, QLatin1StringView("fp32_tflops"));
        spec.tf32Tflops = number(o, QLatin1StringView("tf32_tflops"));
        spec.bf16Tflops = number(o, QLatin1StringView("bf16_tflops"));
        spec.fp16Tflops = number(o, QLatin1StringView("fp16_tflops"));
        spec.tdpW = number(o, QLatin1StringView("tdp_w"));
        spec.pcieGen = number(o, QLatin1StringView("pcie_gen"));
        spec.pcieWidth = number(o, QLatin1StringView("pcie_width"));
        spec.smCount = number(o, QLatin1StringView("sm_count"));
        spec.computeCapability = o.value(QLatin1StringView("compute_capability")).toString();
        spec.formFactor = o.value(QLatin1StringView("form_factor")).toString();
        spec.nvswitch = o.value(QLatin1StringView("nvswitch")).toBool();
        spec.source = o.value(QLatin1StringView("source")).toString();
        if (spec.id.isEmpty() || spec.family.isEmpty())
            return Error::make(ErrorCode::Parse, QStringLiteral("a GPU spec entry has no id or family"));
        table.m_specs.append(spec);
    }
    return table;
}

const SpecTable &SpecTable::builtIn()
{
    static const SpecTable table = [] {
        QFile file(QStringLiteral(":/gantry/verify/gpu-specs.json"));
        if (!file.open(QIODevice::ReadOnly))
            return SpecTable{};
        auto parsed = fromJson(file.readAll());
        return parsed ? std::move(parsed).value() : SpecTable{};
    }();
    return table;
}

const GpuSpec *SpecTable::byId(const QString &id) const
{
    for (const GpuSpec &spec : m_specs) {
        if (spec.id == id)
            return &spec;
    }
    return nullptr;
}

QString SpecTable::normalizePciDeviceId(const QString &id)
{
    QString hex = id.trimmed().toUpper();
    if (hex.startsWith(QLatin1StringView("0X")))
        hex = hex.mid(2);
    bool ok = false;
    hex.toULongLong(&ok, 16);
    if (!ok || hex.isEmpty())
        return {};
    // NVML prints device<<16 | vendor ("233510DE"); the device part is the upper four digits.
    if (hex.size() == 8)
        hex = hex.left(4);
    else if (hex.size() > 4)
        return {};
    return QStringLiteral("0x") + hex.rightJustified(4, QLatin1Char('0'));
}

const GpuSpec *SpecTable::match(const QString &nvmlName, const QString &pciDeviceId) const
{
    const QString id = normalizePciDeviceId(pciDeviceId);
    if (!id.isEmpty()) {
        for (const GpuSpec &spec : m_specs) {
            if (spec.pciDeviceIds.contains(id))
                return &spec;
        }
    }
    const QString name = nvmlName.simplified();
    if (name.isEmpty())
        return nullptr;
    for (const GpuSpec &spec : m_specs) {
        for (const QRegularExpression &re : spec.namePatterns) {
            if (re.match(name).hasMatch())
                return &spec;
        }
    }
    return nullptr;
}

const GpuSpec *SpecTable::matchAdvertised(const QString &text) const
{
    const QString name = normalizeAdvertised(text);
    const GpuSpec *spec = match(name);
    if (!spec)
        return nullptr;
    // A bare "H100" or "A100 80GB" picks the first variant by pattern; only trust it as a
    // variant when the text is specific enough to also exclude the family's other variants.
    int variants = 0;
    for (const GpuSpec &other : m_specs) {
        if (other.family != spec->family)
            continue;
        for (const QRegularExpression &re : other.namePatterns) {
            if (re.match(name).hasMatch()) {
                ++variants;
                break;
            }
        }
    }
    return variants == 1 ? spec : nullptr;
}

QString SpecTable::familyOf(const QString &text) const
{
    const QString name = normalizeAdvertised(text);
    if (const GpuSpec *spec = match(name))
        return spec->family;
    // Longest family name first, so "RTX 6000 Ada" wins over a shorter one it contains.
    QString best;
    for (const GpuSpec &spec : m_specs) {
        const QRegularExpression re(QStringLiteral("\\b") + QRegularExpression::escape(spec.family) + QStringLiteral("\\b"),
                                    QRegularExpression::CaseInsensitiveOption);
        if (spec.family.size() > best.size() && re.match(name).hasMatch())
            best = spec.family;
    }
    return best;
}

} // namespace gantry::verify
