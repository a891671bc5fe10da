#include "cmd_provider_common.h"

#include <QCoreApplication>

namespace gantry::cli::providercli {

Result<std::optional<QString>> takeValue(QStringList &args, const QString &name)
{
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args.at(i) == QLatin1String("--"))
            break;
        if (args.at(i) == name) {
            if (i + 1 >= args.size())
                return Error{ErrorCode::Usage, CliText::tr("%1 needs a value (see gantry-cli --help)").arg(name)};
            const QString value = args.at(i + 1);
            args.remove(i, 2);
            return std::optional<QString>(value);
        }
        if (args.at(i).startsWith(name + QLatin1Char('='))) {
            const QString value = args.at(i).mid(name.size() + 1);
            args.removeAt(i);
            return std::optional<QString>(value);
        }
    }
    return std::optional<QString>();
}

bool takeFlag(QStringList &args, const QString &name)
{
    return args.removeAll(name) > 0;
}

Result<ProviderOptions> takeProviderOptions(QStringList &args)
{
    ProviderOptions options;
    Result<std::optional<QString>> provider = takeValue(args, QStringLiteral("--provider"));
    if (!provider)
        return provider.error();
    Result<std::optional<QString>> endpoint = takeValue(args, QStringLiteral("--endpoint"));
    if (!endpoint)
        return endpoint.error();
    options.provider = provider->value_or(QString());
    options.endpoint = endpoint->value_or(QString());
    if (!options.provider.isEmpty() && !providers::knownProviderIds().contains(options.provider)) {
        return Error{ErrorCode::Usage, CliText::tr("unknown provider \"%1\" (known: %2)")
                                           .arg(options.provider, providers::knownProviderIds().join(QStringLiteral(", ")))};
    }
    if (!options.endpoint.isEmpty() && options.provider.isEmpty())
        return Error{ErrorCode::Usage, CliText::tr("--endpoint needs --provider (which provider the URL is for)")};
    return options;
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

} // namespace gantry::cli::providercli
