#include "providers/pricegroups.h"

#include "providers/gpumodels.h"

#include <QHash>

#include <algorithm>

namespace gantry::providers {

QString PriceGroup::key() const
{
    return provider + QLatin1Char('|') + gpuModel + QLatin1Char('|') + QString::number(gpuCount);
}

QList<PriceGroup> groupPrices(const QList<InstanceType> &types)
{
    QList<PriceGroup> groups;
    QHash<QString, qsizetype> index;
    for (const InstanceType &type : types) {
        const GpuModel model = gpuModelOf(type);
        PriceGroup probe;
        probe.provider = type.provider;
        probe.gpuModel = model.isKnown() ? model.name() : (type.gpuModel.isEmpty() ? type.name : type.gpuModel);
        probe.gpuCount = type.gpuCount;
        const QString key = probe.key();
        auto it = index.constFind(key);
        if (it == index.constEnd()) {
            it = index.insert(key, groups.size());
            groups.append(probe);
        }
        PriceGroup &group = groups[*it];
        group.members.append(type);
        group.vramGbPerGpu = std::max(group.vramGbPerGpu, type.vramGbPerGpu);
    }
    for (PriceGroup &group : groups) {
        std::stable_sort(group.members.begin(), group.members.end(),
                         [](const InstanceType &a, const InstanceType &b) { return a.pricePerHour < b.pricePerHour; });
        group.offers = int(group.members.size());
        group.available = int(std::count_if(group.members.cbegin(), group.members.cend(),
                                            [](const InstanceType &t) { return t.availableNow(); }));
        group.cheapest = group.members.constFirst().pricePerHour;
        const qsizetype n = group.members.size();
        group.median = n % 2 == 1 ? group.members.at(n / 2).pricePerHour
                                  : (group.members.at(n / 2 - 1).pricePerHour + group.members.at(n / 2).pricePerHour) / 2;
    }
    QHash<QString, int> providerRank; // providers keep the order they came in
    for (const PriceGroup &group : std::as_const(groups))
        providerRank.insert(group.provider, providerRank.value(group.provider, int(providerRank.size())));
    std::stable_sort(groups.begin(), groups.end(), [&providerRank](const PriceGroup &a, const PriceGroup &b) {
        if (a.provider != b.provider)
            return providerRank.value(a.provider) < providerRank.value(b.provider);
        if (a.gpuModel != b.gpuModel)
            return a.gpuModel < b.gpuModel;
        return a.gpuCount < b.gpuCount;
    });
    return groups;
}

} // namespace gantry::providers
