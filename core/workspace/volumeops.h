// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/providers/providertypes.h"
#include "core/util/result.h"

#include <QList>
#include <QStringList>

#include <functional>

namespace gantry::cost { class Ledger; }
namespace gantry::providers { class Provider; class ProviderHub; }

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
// A volume just made, and why its ledger row could not be written ("" when it was; the next
// listing reconciles it, nothing is lost).
struct CreatedVolume
{
    providers::Filesystem volume;
    QString warning;
};

// Creates a volume (its name, size where the provider sizes volumes, region) and opens its ledger
// row at once: it bills from now on, attached or not. What the provider's volumes cannot be (no
// volumes API, no size where one is needed, a size outside its bounds) is refused before any
// request. The window (through the hub) and `gantry-cli volumes create` (its own provider) both.
void createVolumeRecorded(providers::Provider &provider, cost::Ledger *ledger, const providers::VolumeSpec &spec,
                          std::function<void(Result<CreatedVolume>)> done);
void createVolumeRecorded(providers::ProviderHub *hub, cost::Ledger *ledger, const QString &providerId,
                          const providers::VolumeSpec &spec, std::function<void(Result<CreatedVolume>)> done);
void deleteVolumeRecorded(providers::ProviderHub *hub, cost::Ledger *ledger, const providers::Filesystem &volume,
                          std::function<void(Result<providers::Filesystem>)> done);

} // namespace gantry::workspace
