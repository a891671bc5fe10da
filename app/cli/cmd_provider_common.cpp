#include "cmd_provider_common.h"

namespace gantry::cli::providercli {

ProviderOptions providerOptions(const Args &args)
{
    return ProviderOptions{args.provider().provider, args.provider().endpoint};
}

QStringList providersToQuery(const ProviderOptions &options, const ProviderEnv &env)
{
    return options.provider.isEmpty() ? providers::configuredProviderIds(env.settings) : QStringList{options.provider};
}

ProviderEnv makeProviderEnv(const Context &context, const ProviderOptions &options)
{
    ProviderEnv env;
    env.secrets = makeDesktopSecretStore(context.configDir);
    env.settings.configDir = context.configDir;
    env.settings.secrets = env.secrets.get();
    env.settings.endpointOverride = options.endpoint;
    return env;
}

int failProvider(const Context &context, const Error &error)
{
    if (error.code == ErrorCode::Timeout || error.code == ErrorCode::NotFound)
        return context.fail(Error{ErrorCode::Provider, error.message});
    return context.fail(error);
}

int providerExitCode(const Error &error)
{
    if (error.code == ErrorCode::Timeout || error.code == ErrorCode::NotFound)
        return exitCodeFor(Error{ErrorCode::Provider, {}});
    return exitCodeFor(error);
}

int withProvider(Context &context, const Args &args, const std::function<int(providers::Provider &)> &run)
{
    const ProviderOptions options = providerOptions(args);
    ProviderEnv env = makeProviderEnv(context, options);
    const QString providerId = options.provider.isEmpty() ? providers::defaultProviderId(env.settings) : options.provider;
    Result<std::unique_ptr<providers::Provider>> created = providers::createProvider(providerId, env.settings);
    if (!created)
        return context.fail(created.error());
    return run(**created);
}

} // namespace gantry::cli::providercli
