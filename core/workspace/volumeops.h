// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/providers/providertypes.h"
#include "core/util/result.h"

#include <QList>
#include <QStringList>

#include <functional>

namespace gantry::cost { class Ledger; }
namespace gantry::providers { class ProviderHub; }

// The providers' volumes as one list for the GUI (the Storage panel's Volumes page): each
// provider's listing brings the ledger in line, because a volume bills for as long as it exists,
// shown or not; a delete closes its ledger row. Asynchronous on the providers' own threads; the
// callbacks come back on the caller's.
namespace gantry::workspace {

struct VolumeListing
{
    QList<providers::Filesystem> volumes;
    QStringList errors; // one line per provider whose listing failed
};

void listAllVolumes(providers::ProviderHub *hub, cost::Ledger *ledger, std::function<void(VolumeListing)> done);
// Creates a volume at providerId (its name, size where the provider sizes volumes, region) and opens
// its ledger row at once: it bills from now on, attached or not. What the provider's volumes cannot
// be (no volumes API, no size where one is needed, a size outside its bounds) is refused before
// any request. A ledger that cannot record it loses nothing: the next listing reconciles it.
void createVolumeRecorded(providers::ProviderHub *hub, cost::Ledger *ledger, const QString &providerId,
                          const providers::VolumeSpec &spec, std::function<void(Result<providers::Filesystem>)> done);
void deleteVolumeRecorded(providers::ProviderHub *hub, cost::Ledger *ledger, const providers::Filesystem &volume,
                          std::function<void(Result<providers::Filesystem>)> done);

} // namespace gantry::workspace
