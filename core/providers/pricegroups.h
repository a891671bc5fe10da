#pragma once

#include "core/providers/providertypes.h"

#include <QList>

namespace gantry::providers {

// Marketplace offers grouped the way people compare them: one row per provider, GPU model (the
// canonical name, so "H100 SXM" and "H100 PCIe" stay apart) and GPU count, with the cheapest and
// median price and how many offers there are. Pure computation: run it off the GUI thread.
struct PriceGroup
{
    QString provider;
    QString gpuModel;        // canonical, e.g. "H100 SXM"; the raw name when the table does not know it
    int gpuCount = 0;
    int vramGbPerGpu = 0;    // the largest among the offers
    double cheapest = 0;     // $/h for the whole instance
    double median = 0;
    int offers = 0;
    int available = 0;       // offers rentable right now
    QList<InstanceType> members; // cheapest first

    QString key() const;     // "vast|H100 SXM|1"
    double cheapestPerGpu() const { return gpuCount > 0 ? cheapest / gpuCount : cheapest; }
};

// Groups in input order of first appearance per provider, then sorted by model and count.
QList<PriceGroup> groupPrices(const QList<InstanceType> &types);
// One price-table row per group: named "MODELxN" (which a marketplace launch resolves to the
// cheapest rentable offer), priced at the cheapest, with offerCount and the median set.
QList<InstanceType> groupRows(const QList<InstanceType> &offers);
// The offers a user can take instead of one that was just taken: the same GPU model (as grouped
// above) and count as `like`, rentable now, none of `exclude` (offer names), cheapest first, at
// most `limit`. `like` may be an offer or a group row.
QList<InstanceType> equivalentOffers(const QList<InstanceType> &offers, const InstanceType &like, const QStringList &exclude,
                                     int limit = 5);

} // namespace gantry::providers
