#include "core/providers/launchtypes.h"
#include "core/providers/providerstext.h"

#include "core/providers/gpumodels.h"
#include "core/providers/providerregistry.h"
#include "core/util/printable.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>

namespace gantry::providers {
namespace {
bool inRegion(const InstanceType &type, const QString &region)
{
    return region.isEmpty() || std::any_of(type.regionsWithCapacity.cbegin(), type.regionsWithCapacity.cend(), [&](const Region &r) {
        return r.name.compare(region, Qt::CaseInsensitive) == 0;
    });
}
} // namespace

bool parseGpuSpec(const QString &text, QString *gpu, int *count)
{
    static const QRegularExpression spec(QStringLiteral("^(.+?)\\s*[xX](\\d{1,2})$"));
    const QRegularExpressionMatch match = spec.match(text.trimmed());
    if (!match.hasMatch() || !parseGpuModel(match.captured(1)).isKnown())
        return false;
    *gpu = match.captured(1).trimmed();
    *count = match.captured(2).toInt();
    return *count > 0;
}

Result<InstanceType> resolveLaunchType(const ProviderInfo &info, const QList<InstanceType> &types, const LaunchRequest &request)
{
    for (const InstanceType &type : types) {
        if (type.name == request.typeName)
            return type;
    }
    QString gpu;
    int count = 0;
    if (info.capabilities.testFlag(Capability::Marketplace) && parseGpuSpec(request.typeName, &gpu, &count)) {
        const InstanceType *best = nullptr;
        for (const InstanceType &type : types) {
            if (type.gpuCount == count && type.availableNow() && inRegion(type, request.region)
                && gpuModelMatches(gpu, gpuModelOf(type)) && (!best || type.pricePerHour < best->pricePerHour))
                best = &type;
        }
        if (best)
            return *best;
        return Error{ErrorCode::Provider,
                     ProvidersText::tr("%1 has no rentable %2x%3 offer%4 right now (out of capacity). Try another GPU or "
                                         "region, or wait for one: gantry-cli watch-capacity --gpu \"%2\" --count %3 --providers %5")
                         .arg(info.displayName, text::printable(gpu)).arg(count)
                         .arg(request.region.isEmpty() ? QString() : ProvidersText::tr(" in %1").arg(text::printable(request.region)),
                              info.id)};
    }
    return Error{ErrorCode::Usage, ProvidersText::tr("%1 has no instance type \"%2\" (see gantry-cli types --provider %3)")
                                       .arg(info.displayName, text::printable(request.typeName), info.id)};
}

} // namespace gantry::providers
