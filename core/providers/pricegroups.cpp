#include "core/providers/pricegroups.h"

#include "core/providers/gpumodels.h"

#include <QHash>
#include <QSet>

#include <algorithm>

namespace gantry::providers {

QString PriceGroup::key() const
{
    return provider + QLatin1Char('|') + gpuModel + QLatin1Char('|') + QString::number(gpuCount);
}

namespace {

// The model a row is grouped under: the canonical name, else the provider's own words.
QString groupModel(const InstanceType &type)
{
    const GpuModel model = gpuModelOf(type);
    return model.isKnown() ? model.name() : (type.gpuModel.isEmpty() ? type.name : type.gpuModel);
}

} // namespace

QList<PriceGroup> groupPrices(const QList<InstanceType> &types)
{
    QList<PriceGroup> groups;
    QHash<QString, qsizetype> index;
    for (const InstanceType &type : types) {
        PriceGroup probe;
        probe.provider = type.provider;
        probe.gpuModel = groupModel(type);
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

QList<InstanceType> groupRows(const QList<InstanceType> &offers)
{
    QList<InstanceType> rows;
    const QList<PriceGroup> groups = groupPrices(offers);
    rows.reserve(groups.size());
    for (const PriceGroup &group : groups) {
        InstanceType row = group.members.constFirst();
        row.name = QStringLiteral("%1x%2").arg(group.gpuModel).arg(group.gpuCount);
        row.gpuModel = group.gpuModel;
        row.vramGbPerGpu = group.vramGbPerGpu;
        row.pricePerHour = group.cheapest;
        row.medianPricePerHour = group.median;
        row.offerCount = group.offers;
        row.description = group.members.constFirst().description;
        row.note.clear();
        row.regionsWithCapacity.clear();
        QSet<QString> seen;
        for (const InstanceType &offer : group.members) {
            for (const Region &region : offer.regionsWithCapacity) {
                if (!seen.contains(region.name)) {
                    seen.insert(region.name);
                    row.regionsWithCapacity.append(Region{region.name, {}});
                }
            }
        }
        rows.append(row);
    }
    return rows;
}

QList<InstanceType> equivalentOffers(const QList<InstanceType> &offers, const InstanceType &like, const QStringList &exclude, int limit)
{
    const QString model = groupModel(like);
    QList<InstanceType> same;
    for (const InstanceType &offer : offers) {
        if (offer.gpuCount == like.gpuCount && offer.availableNow() && !exclude.contains(offer.name) && groupModel(offer) == model)
            same.append(offer);
    }
    std::stable_sort(same.begin(), same.end(), [](const InstanceType &a, const InstanceType &b) { return a.pricePerHour < b.pricePerHour; });
    return same.mid(0, std::max(0, limit));
}

} // namespace gantry::providers
