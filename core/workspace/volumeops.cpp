// SPDX-License-Identifier: Apache-2.0
#include "core/workspace/volumeops.h"

#include "core/cost/ledger.h"
#include "core/providers/providerdescriptor.h"
#include "core/providers/providerhub.h"
#include "core/providers/providerregistry.h"
#include "core/providers/providerstext.h"
#include "core/providers/volumes.h"

#include <QPointer>

#include <memory>

namespace gantry::workspace {

void listAllVolumes(providers::ProviderHub *hub, cost::Ledger *ledger, std::function<void(VolumeListing)> done)
{
    QStringList ids;
    for (const QString &id : hub->ids()) {
        const providers::ProviderDescriptor *descriptor = providers::providerDescriptor(id);
        if (descriptor && descriptor->volumes.api && hub->provider(id))
            ids.append(id);
    }
    auto listing = std::make_shared<VolumeListing>();
    auto pending = std::make_shared<int>(int(ids.size()));
    if (ids.isEmpty())
        return done(*listing);
    QPointer<cost::Ledger> guard(ledger);
    const QDateTime listedAt = ledger ? ledger->clock().now() : QDateTime();
    for (const QString &id : std::as_const(ids)) {
        hub->provider(id)->listFilesystems([listing, pending, done, guard, id, listedAt](Result<QList<providers::Filesystem>> list) {
            if (!list) {
                listing->errors.append(list.error().message);
            } else {
                listing->volumes.append(*list);
                if (guard) {
                    if (auto noted = guard->reconcileVolumes(id, *list, listedAt); !noted)
                        listing->errors.append(noted.error().message);
                }
            }
            if (--*pending == 0)
                done(*listing);
        });
    }
}

void createVolumeRecorded(providers::Provider &provider, cost::Ledger *ledger, const providers::VolumeSpec &spec,
                          std::function<void(Result<CreatedVolume>)> done)
{
    const QString id = provider.info().id;
    const providers::ProviderDescriptor *descriptor = providers::providerDescriptor(id);
    const QString name = providers::providerDisplayName(id);
    if (!descriptor || !descriptor->volumes.api)
        return done(Error{ErrorCode::Usage, providers::ProvidersText::tr("%1 has no volumes Gantry can create.").arg(name)});
    const providers::VolumeTerms &terms = descriptor->volumes;
    if (terms.sizeAtCreate && spec.sizeGb < terms.minGb)
        return done(Error{ErrorCode::Usage, providers::ProvidersText::tr("A %1 volume needs a size of at least %2 GB.").arg(name).arg(terms.minGb)});
    if (terms.sizeAtCreate && terms.maxGb > 0 && spec.sizeGb > terms.maxGb)
        return done(Error{ErrorCode::Usage, providers::ProvidersText::tr("A %1 volume holds at most %2 GB.").arg(name).arg(terms.maxGb)});
    QPointer<cost::Ledger> guard(ledger);
    provider.createFilesystem(spec, [guard, done](Result<providers::Filesystem> made) {
        if (!made)
            return done(made.error());
        CreatedVolume created{*made, {}};
        if (guard) {
            if (Result<void> noted = guard->recordVolume(*made); !noted)
                created.warning = noted.error().message;
        }
        done(created);
    });
}

void createVolumeRecorded(providers::ProviderHub *hub, cost::Ledger *ledger, const QString &providerId,
                          const providers::VolumeSpec &spec, std::function<void(Result<CreatedVolume>)> done)
{
    providers::Provider *provider = hub->provider(providerId);
    if (!provider)
        return done(Error{ErrorCode::NotFound, providers::ProvidersText::tr("%1 has no API key: add it in Settings → Accounts.")
                                                   .arg(providers::providerDisplayName(providerId))});
    createVolumeRecorded(*provider, ledger, spec, std::move(done));
}

void deleteVolumeRecorded(providers::ProviderHub *hub, cost::Ledger *ledger, const providers::Filesystem &volume,
                          std::function<void(Result<providers::Filesystem>)> done)
{
    providers::Provider *provider = hub->provider(volume.provider);
    if (!provider)
        return done(Error{ErrorCode::NotFound, providers::ProvidersText::tr("%1 has no API key any more: add it in Settings → Accounts.").arg(volume.provider)});
    QPointer<cost::Ledger> guard(ledger);
    providers::deleteVolume(*provider, volume.id, [guard, done](Result<providers::Filesystem> deleted) {
        if (deleted && guard)
            (void)guard->recordVolumeDeleted(deleted->provider, deleted->id); // the listing reconciles it otherwise
        done(deleted);
    });
}

} // namespace gantry::workspace
