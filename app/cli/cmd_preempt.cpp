// SPDX-License-Identifier: Apache-2.0
// gantry-cli preempt: the local sandbox reclaims a spot instance as a spot market does, so the
// recovery of a managed run can be tried without a cloud. Refused for real clouds.
#include "cliworkspace.h"
#include "cmd_provider_common.h"

#include "core/providers/await.h"
#include "core/providers/providerhub.h"
#include "core/providers/sandboxprovider.h"

namespace gantry::cli {
namespace {

using namespace providercli;

int preemptCommand(Context &context, const Args &args)
{
    const ProviderOptions options = providerOptions(args);
    const QString id = args.arg("ID");
    ProviderEnv env = makeProviderEnv(context, options);
    CliWorkspace workspace(context, env, {options.provider});
    // Only the sandbox can reclaim its own instances: the provider object says what it is, not its id.
    auto *sandbox = qobject_cast<providers::SandboxProvider *>(workspace.hub()->provider(options.provider));
    if (!sandbox) {
        return context.fail(Error{ErrorCode::Usage, QStringLiteral("preempt reclaims local sandbox instances only (--provider sandbox); "
                                                                   "a real cloud reclaims its spot machines itself")});
    }
    Result<void> done = providers::await<void>([&](providers::Callback<void> cb) { sandbox->preempt(id, std::move(cb)); });
    if (!done)
        return failProvider(context, done.error());
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("provider"), options.provider},
                                      {QStringLiteral("state"), QStringLiteral("preempted")}});
    else
        context.out << QStringLiteral("Preempted %1: its processes ended; the sandbox reports it preempted, then gone.").arg(id) << Qt::endl;
    return ExitOk;
}

const Registrar preemptRegistrar(Command{
    .name = "preempt",
    .summary = "reclaim a spot instance of the local sandbox as a spot market would (to try a managed run's recovery)",
    .arguments = {{"ID"}},
    .groups = Provider,
    .notes = {"Only --provider sandbox, and only its spot types (*-spot, *_spot): every process of the instance ends at once; "
              "the next listing reports it preempted, the one after finds it gone."},
    .run = preemptCommand,
});

} // namespace
} // namespace gantry::cli
