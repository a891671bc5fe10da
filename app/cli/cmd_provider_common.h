#pragma once

#include "clicommand.h"
#include "core/providers/provider.h"
#include "core/providers/providerregistry.h"
#include "core/util/secretstore.h"

#include <QCoreApplication>

#include <memory>

namespace gantry::cli::providercli {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class CliText
{
    Q_DECLARE_TR_FUNCTIONS(cli)
};

// Options every provider command accepts: --provider P, --endpoint URL.
struct ProviderOptions
{
    QString provider;  // empty: ask the caller's default
    QString endpoint;
};
Result<ProviderOptions> takeProviderOptions(QStringList &args);
// Removes "--name VALUE" (or --name=VALUE) from args; nullopt when absent.
Result<std::optional<QString>> takeValue(QStringList &args, const QString &name);
bool takeFlag(QStringList &args, const QString &name);

// Secrets and settings for this invocation; the keychain is only opened when needed.
struct ProviderEnv
{
    std::unique_ptr<SecretStore> secrets;
    providers::ProviderSettings settings;
};
ProviderEnv makeProviderEnv(const Context &context, const ProviderOptions &options);
// --provider P, or every configured provider when it is absent.
QStringList providersToQuery(const ProviderOptions &options, const ProviderEnv &env);

// Errors that came from a provider keep exit code 5 (also a launch that timed out).
int failProvider(const Context &context, const Error &error);
// The exit code failProvider() would use, for commands that report errors themselves.
int providerExitCode(const Error &error);

} // namespace gantry::cli::providercli
