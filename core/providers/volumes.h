// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/providers/provider.h"

namespace gantry::providers {

// The volume a user names, by id or else by name: an unknown name and a name two volumes share are
// errors that say what to type instead.
Result<Filesystem> findVolume(const QList<Filesystem> &volumes, const QString &nameOrId, const QString &providerId);
// Lists the provider's volumes and finds one (findVolume()).
void withVolume(Provider &provider, const QString &nameOrId, Callback<Filesystem> done);
// Deletes a volume named by id or name. Refused while it is attached to an instance, on every
// provider: a mounted volume's data is in use, and Lambda refuses anyway. The value is the deleted
// volume (the ledger closes its row).
void deleteVolume(Provider &provider, const QString &nameOrId, Callback<Filesystem> done);
// One sentence naming what a delete loses, for the confirmation (CLI and GUI).
QString volumeLossText(const Filesystem &volume);
// The request's volume resolved to the one the launch attaches: its region must be the launch's.
Result<Filesystem> checkLaunchVolume(const QList<Filesystem> &volumes, const LaunchRequest &request, const QString &providerId);
// Lists the provider's volumes and checks the request's one (checkLaunchVolume()).
void resolveLaunchVolume(Provider &provider, const LaunchRequest &request, Callback<Filesystem> done);

} // namespace gantry::providers
