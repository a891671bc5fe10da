#pragma once

#include "clicommand.h"
#include "core/providers/provider.h"
#include "core/providers/providerregistry.h"
#include "core/util/secretstore.h"

#include <functional>
#include <memory>

namespace gantry::cli::providercli {

// Options every provider command accepts: --provider P, --endpoint URL (the Provider group).
struct ProviderOptions
{
    QString provider;  // empty: ask the caller's default
    QString endpoint;
};
ProviderOptions providerOptions(const Args &args);

// Secrets and settings for this invocation; the keychain is only opened when needed.
struct ProviderEnv
{
    std::unique_ptr<SecretStore> secrets;
    providers::ProviderSettings settings;
};
ProviderEnv makeProviderEnv(const Context &context, const ProviderOptions &options);
// --provider P, or every configured provider when it is absent.
QStringList providersToQuery(const ProviderOptions &options, const ProviderEnv &env);

// Runs `run` with the provider a command talks to: --provider, else the default one.
int withProvider(Context &context, const Args &args, const std::function<int(providers::Provider &)> &run);

// Errors that came from a provider keep exit code 5 (also a launch that timed out).
int failProvider(const Context &context, const Error &error);
// The exit code failProvider() would use, for commands that report errors themselves.
int providerExitCode(const Error &error);

} // namespace gantry::cli::providercli
