#pragma once

#include "core/hosts/hoststore.h"
#include "core/transfer/transfertypes.h"
#include "core/util/secretstore.h"

namespace gantry::transfer {

// Sessions for a target with fixed connect options (CLI, tests).
SessionFactory makeSessionFactory(const ssh::Target &target, const ssh::ConnectOptions &options);

// Sessions for a saved host, non-interactive (backgroundConnectOptions): secrets from the store,
// unknown or changed host keys refused with the foundation's messages.
SessionFactory makeHostSessionFactory(const SavedHost &host, SecretStore *secrets, const QString &knownHostsFile);

} // namespace gantry::transfer
