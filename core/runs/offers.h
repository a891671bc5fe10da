// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/providers/providertypes.h"

#include <QSet>

#include <functional>

namespace gantry::providers { class ProviderHub; }

namespace gantry::runs {

struct RunSpec;

// One way to rent what a run asks for: the type, where, and what it bills per hour.
struct RunOffer
{
    QString provider;
    providers::InstanceType type;
    double pricePerHour = 0;
    double bidPerHour = 0; // a marketplace's interruptible bid (0: on demand or a spot type)
};

// The offers that fit the spec among `types` (the price board's), cheapest first: an allowed and
// configured provider, capacity now, the GPU model and count, spot or on demand as asked (a
// marketplace's interruptible offer bids its floor), under max_price_per_hour, and never a
// machine in `badMachines` (provider/machine id, or provider/type for clouds without machine ids
// when the spec allows nothing else).
// `flagged` keeps out the marketplace machines whose last Verify or acceptance test failed
// (verify::flaggedMachines: the machine's reputation).
using MachineFilter = std::function<bool(const QString &provider, const QString &machineId)>;
QList<RunOffer> fittingOffers(const RunSpec &spec, const QList<providers::InstanceType> &types,
                              const providers::ProviderHub &hub, const QSet<QString> &badMachines = {},
                              const MachineFilter &flagged = {});

} // namespace gantry::runs
