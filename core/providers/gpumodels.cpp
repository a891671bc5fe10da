#include "core/providers/gpumodels.h"

#include "core/providers/providertypes.h"

#include <QRegularExpression>

namespace gantry::providers {
namespace {

struct Family
{
    const char *name;      // canonical spelling
    const char *pattern;   // on the normalised (upper-case, single-spaced) text
    bool hasForms;         // sold as SXM / PCIe / NVL variants with different specs
};

// Longer names first: "GH200" before "H200", "A100" before "A10", "L40S" before "L40" before "L4".
const Family kFamilies[] = {
    {"GH200", "\\bGH200\\b", false},     {"GB200", "\\bGB200\\b", false},
    {"B300", "\\bB300\\b", false},       {"B200", "\\bB200\\b", false},
    {"H200", "\\bH200\\b", true},        {"H100", "\\bH100\\b", true},
    {"H800", "\\bH800\\b", true},        {"A800", "\\bA800\\b", true},
    {"A100", "\\bA100\\b", true},        {"A10G", "\\bA10G\\b", false},
    {"A10", "\\bA10\\b", false},         {"A40", "\\bA40\\b", false},
    {"A30", "\\bA30\\b", false},         {"A16", "\\bA16\\b", false},
    {"L40S", "\\bL40S\\b", false},       {"L40", "\\bL40\\b", false},
    {"L4", "\\bL4\\b", false},           {"V100", "\\bV100\\b", true},
    {"T4", "\\bT4\\b", false},           {"P100", "\\bP100\\b", false},
    {"MI300X", "\\bMI300X\\b", false},   {"MI250", "\\bMI250X?\\b", false},
    {"RTX 6000 Ada", "\\bRTX 6000 ADA\\b|\\b6000 ADA\\b", false},
    {"RTX PRO 6000", "\\bRTX PRO 6000\\b", false},
    {"RTX A6000", "\\b(RTX )?A6000\\b", false}, {"RTX A5000", "\\b(RTX )?A5000\\b", false},
    {"RTX A4000", "\\b(RTX )?A4000\\b", false}, {"Quadro RTX 8000", "\\bRTX 8000\\b", false},
    {"RTX 5090", "\\bRTX ?5090\\b", false},  {"RTX 5080", "\\bRTX ?5080\\b", false},
    {"RTX 4090", "\\bRTX ?4090\\b", false},  {"RTX 4080", "\\bRTX ?4080( SUPER)?\\b", false},
    {"RTX 4070", "\\bRTX ?4070( TI)?\\b", false}, {"RTX 3090", "\\bRTX ?3090( TI)?\\b", false},
    {"RTX 3080", "\\bRTX ?3080( TI)?\\b", false}, {"RTX 3070", "\\bRTX ?3070\\b", false},
};

QString normalise(const QString &text)
{
    QString upper = text.toUpper();
    // "H100_sxm5x8", "A100-SXM4-80GB", "H100x2": separators and a trailing count become spaces.
    static const QRegularExpression separators(QStringLiteral("[_\\-/(),]+"));
    static const QRegularExpression countSuffix(QStringLiteral("([0-9A-Z])X\\d+\\b"));
    upper.replace(separators, QStringLiteral(" "));
    upper.replace(countSuffix, QStringLiteral("\\1 "));
    return upper.simplified();
}

QString formOf(const QString &normalised)
{
    static const QRegularExpression nvl(QStringLiteral("\\bNVL\\b"));
    static const QRegularExpression sxm(QStringLiteral("\\bSXM\\d?\\b|\\bHBM3E?\\b"));
    static const QRegularExpression pcie(QStringLiteral("\\bPCIE\\b"));
    if (nvl.match(normalised).hasMatch())
        return QStringLiteral("NVL");
    if (sxm.match(normalised).hasMatch())
        return QStringLiteral("SXM");
    if (pcie.match(normalised).hasMatch())
        return QStringLiteral("PCIe");
    return {};
}

} // namespace

GpuModel parseGpuModel(const QString &text)
{
    // Compiled once: a price grid refresh parses a thousand offers.
    static const QList<QRegularExpression> patterns = [] {
        QList<QRegularExpression> list;
        for (const Family &family : kFamilies)
            list.append(QRegularExpression(QString::fromLatin1(family.pattern)));
        return list;
    }();
    // All the patterns in one: text none of them matches (most lines of a provider's reply) costs
    // one match instead of one per family. Which family wins is still decided in list order below.
    static const QRegularExpression any = [] {
        QStringList alternatives;
        for (const Family &family : kFamilies)
            alternatives.append(QStringLiteral("(?:%1)").arg(QString::fromLatin1(family.pattern)));
        return QRegularExpression(alternatives.join(QLatin1Char('|')));
    }();
    const QString normalised = normalise(text);
    if (!any.match(normalised).hasMatch())
        return {};
    for (qsizetype i = 0; i < patterns.size(); ++i) {
        if (patterns.at(i).match(normalised).hasMatch()) {
            const Family &family = kFamilies[i];
            return GpuModel{QString::fromLatin1(family.name), family.hasForms ? formOf(normalised) : QString()};
        }
    }
    return {};
}

GpuModel gpuModelOf(const InstanceType &type)
{
    if (type.gpuCount <= 0 && type.gpuModel.isEmpty())
        return {};
    GpuModel model = parseGpuModel(type.gpuModel);
    if (!model.isKnown())
        model = parseGpuModel(type.gpuModel + QLatin1Char(' ') + type.name);
    // The form often sits only in the description or the id: "H100 (80 GB SXM5)", "NVIDIA H100 80GB HBM3".
    if (model.isKnown() && model.form.isEmpty()) {
        const GpuModel richer = parseGpuModel(type.gpuModel + QLatin1Char(' ') + type.description + QLatin1Char(' ') + type.name);
        if (richer.family == model.family)
            model.form = richer.form;
    }
    return model;
}

bool gpuModelMatches(const QString &query, const GpuModel &model, const QString &rawText)
{
    const GpuModel wanted = parseGpuModel(query);
    if (!wanted.isKnown())
        return !query.trimmed().isEmpty() && normalise(rawText).contains(normalise(query));
    if (wanted.family != model.family)
        return false;
    return wanted.form.isEmpty() || wanted.form == model.form;
}

} // namespace gantry::providers
