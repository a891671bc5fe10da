// SPDX-License-Identifier: Apache-2.0
#include "core/runs/offers.h"

#include "core/providers/gpumodels.h"
#include "core/providers/provider.h"
#include "core/providers/providerhub.h"
#include "core/runs/runspec.h"

#include <algorithm>

namespace gantry::runs {

QList<RunOffer> fittingOffers(const RunSpec &spec, const QList<providers::InstanceType> &types,
                              const providers::ProviderHub &hub, const QSet<QString> &badMachines, const MachineFilter &flagged)
{
    const RunResources &want = spec.resources;
    QList<RunOffer> offers;
    for (const providers::InstanceType &type : types) {
        providers::Provider *provider = hub.provider(type.provider);
        if (!provider || (!want.providers.isEmpty() && !want.providers.contains(type.provider)) || !type.availableNow())
            continue;
        if (!type.machineId.isEmpty() && badMachines.contains(type.provider + QLatin1Char('/') + type.machineId))
            continue;
        if (!type.machineId.isEmpty() && flagged && flagged(type.provider, type.machineId))
            continue; // it failed its last acceptance test or Verify here: never rented again
        const providers::ProviderInfo info = provider->info();
        const bool perGpu = info.capabilities.testFlag(providers::Capability::PerGpuPricing);
        if (type.gpuCount <= 0 || (!perGpu && type.gpuCount != want.count))
            continue;
        // A type whose GPU name says nothing (the sandbox's "Simulated GPU") is what its description names.
        providers::GpuModel model = providers::gpuModelOf(type);
        if (!model.isKnown())
            model = providers::parseGpuModel(type.description);
        if (want.gpu != QLatin1String("any") && !providers::gpuModelMatches(want.gpu, model, type.description))
            continue;
        RunOffer offer{type.provider, type, providers::launchPricePerHour(info, type, want.count), 0};
        if (want.spot) {
            if (type.minBidPerHour > 0) {
                // A marketplace's interruptible offer: bid its floor, which is what it bills.
                offer.bidPerHour = type.minBidPerHour * (perGpu ? std::max(1, want.count) : 1);
                offer.pricePerHour = offer.bidPerHour;
            } else if (!type.spot) {
                continue;
            }
        } else if (type.spot) {
            continue;
        }
        if (want.maxPricePerHour > 0 && offer.pricePerHour > want.maxPricePerHour)
            continue;
        offers.append(offer);
    }
    std::stable_sort(offers.begin(), offers.end(), [](const RunOffer &a, const RunOffer &b) {
        if (a.pricePerHour != b.pricePerHour)
            return a.pricePerHour < b.pricePerHour;
        return a.provider + a.type.name < b.provider + b.type.name;
    });
    return offers;
}

} // namespace gantry::runs
