// SPDX-License-Identifier: Apache-2.0
#include "core/providers/volumes.h"

#include "core/providers/providerregistry.h"
#include "core/providers/providerstext.h"

#include <QPointer>

namespace gantry::providers {

Result<Filesystem> findVolume(const QList<Filesystem> &volumes, const QString &nameOrId, const QString &providerId)
{
    QList<Filesystem> named;
    for (const Filesystem &volume : volumes) {
        if (volume.id == nameOrId)
            return volume;
        if (volume.name == nameOrId)
            named.append(volume);
    }
    const QString provider = providerDisplayName(providerId);
    if (named.isEmpty())
        return Error{ErrorCode::NotFound, ProvidersText::tr("%1 has no volume named \"%2\". See yours with gantry-cli volumes "
                                                            "list --provider %3.").arg(provider, nameOrId, providerId)};
    if (named.size() > 1)
        return Error{ErrorCode::Usage, ProvidersText::tr("%1 has %2 volumes named \"%3\"; name one by its id (gantry-cli "
                                                         "volumes list --provider %4 shows them).")
                                           .arg(provider).arg(named.size()).arg(nameOrId, providerId)};
    return named.first();
}

void withVolume(Provider &provider, const QString &nameOrId, Callback<Filesystem> done)
{
    const QString id = provider.info().id;
    provider.listFilesystems([nameOrId, id, done = std::move(done)](Result<QList<Filesystem>> volumes) {
        if (!volumes)
            return done(volumes.error());
        done(findVolume(*volumes, nameOrId, id));
    });
}

void deleteVolume(Provider &provider, const QString &nameOrId, Callback<Filesystem> done)
{
    QPointer<Provider> guard(&provider);
    withVolume(provider, nameOrId, [guard, done = std::move(done)](Result<Filesystem> volume) {
        if (!volume)
            return done(volume.error());
        if (volume->inUse || !volume->attachedTo.isEmpty()) {
            const QString users = volume->attachedTo.isEmpty() ? ProvidersText::tr("an instance")
                                                               : volume->attachedTo.join(QStringLiteral(", "));
            return done(Error{ErrorCode::Usage, ProvidersText::tr("Volume \"%1\" is attached to %2. Terminate that "
                                                                  "instance first, then delete the volume.")
                                                    .arg(volume->name, users)});
        }
        if (!guard)
            return;
        const Filesystem gone = *volume;
        guard->deleteFilesystem(gone.id, [gone, done](Result<void> deleted) {
            if (!deleted)
                return done(deleted.error());
            done(gone);
        });
    });
}

QString volumeLossText(const Filesystem &volume)
{
    const QString size = volume.sizeGb > 0 ? ProvidersText::tr("%1 GB").arg(volume.sizeGb)
                                           : ProvidersText::tr("%1 GB used").arg(volume.billedGb(), 0, 'f', 1);
    return ProvidersText::tr("Deleting volume \"%1\" (%2 at %3, %4) erases every file on it; it cannot be undone.")
        .arg(volume.name, size, providerDisplayName(volume.provider), volume.region.isEmpty() ? QStringLiteral("-") : volume.region);
}

Result<Filesystem> checkLaunchVolume(const QList<Filesystem> &volumes, const LaunchRequest &request, const QString &providerId)
{
    if (request.filesystemNames.size() > 1)
        return Error{ErrorCode::Usage, ProvidersText::tr("%1 attaches one volume per launch; name only one.")
                                           .arg(providerDisplayName(providerId))};
    Result<Filesystem> volume = findVolume(volumes, request.filesystemNames.value(0), providerId);
    if (volume && !request.region.isEmpty() && request.region != QLatin1String("any") && !volume->region.isEmpty()
        && volume->region != request.region)
        return Error{ErrorCode::Usage, ProvidersText::tr("Volume \"%1\" is in %2, but the launch is in %3. Launch in %2, "
                                                         "or create a volume in %3.")
                                           .arg(volume->name, volume->region, request.region)};
    return volume;
}

void resolveLaunchVolume(Provider &provider, const LaunchRequest &request, Callback<Filesystem> done)
{
    const QString id = provider.info().id;
    provider.listFilesystems([request, id, done = std::move(done)](Result<QList<Filesystem>> volumes) {
        if (!volumes)
            return done(volumes.error());
        done(checkLaunchVolume(*volumes, request, id));
    });
}

} // namespace gantry::providers
