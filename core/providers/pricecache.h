#pragma once

#include "core/providers/providertypes.h"

#include <QDateTime>

namespace gantry::providers {

// The last price table on disk (<configDir>/cache/prices.json), so the Prices view opens at once
// and shows how old its numbers are while a refresh runs.
struct PriceSnapshot
{
    QList<InstanceType> types;
    QDateTime fetchedAt;   // UTC; invalid when there is no cache
};

QString priceCachePath(const QString &configDir);
// Refuses to replace a cache written by a newer Gantry (a higher "schema").
Result<void> savePriceCache(const QString &path, const PriceSnapshot &snapshot);
PriceSnapshot loadPriceCache(const QString &path); // empty on a missing or damaged file, or one from a newer Gantry

} // namespace gantry::providers
