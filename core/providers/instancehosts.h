#pragma once

#include "core/hosts/hoststore.h"
#include "core/providers/providertypes.h"

namespace gantry::providers {

// The saved host for a running instance: provider "lambda"/"runpod"/"sandbox", its instance id,
// ubuntu@ip:22 (Lambda), the pod's ssh.direct (RunPod) or the local sshd (sandbox), logging in with
// the Gantry key when there is one. A host key the provider vouches for (the sandbox's own) is
// recorded with the host and trusted without asking; any other first connection still shows the
// fingerprint and asks, like any new host. identityFile: the private key of the account key the
// instance was launched with, when the launch knows it (it wins over the Gantry key).
SavedHost savedHostFor(const Instance &instance, const QString &configDir, const QString &identityFile = {});
// Adds or refreshes the host (matched by provider + instance id). Returns the host's name. A
// refresh without an identityFile keeps the key the host already logs in with.
Result<QString> rememberInstanceHost(HostStore &hosts, const Instance &instance, const QString &configDir,
                                     const QString &identityFile = {});
// Removes the host of a terminated instance; true when there was one.
Result<bool> forgetInstanceHost(HostStore &hosts, const QString &provider, const QString &instanceId);

} // namespace gantry::providers
