#pragma once

#include "core/providers/httpclient.h"
#include "core/providers/provider.h"
#include "core/providers/sandboxprovider.h"

#include <QStringList>

#include <memory>

namespace gantry {
class SecretStore;
}

namespace gantry::providers {

// What creating a provider needs. API keys come from the environment (GANTRY_LAMBDA_API_KEY,
// GANTRY_RUNPOD_API_KEY, GANTRY_VAST_API_KEY, GANTRY_SHADEFORM_API_KEY) for scripts, else from the SecretStore under "provider/<id>/api-key".
struct ProviderSettings
{
    QString configDir;
    SecretStore *secrets = nullptr;   // may be null (environment only)
    QString endpointOverride;         // --endpoint; else GANTRY_<ID>_ENDPOINT; else the vendor's URL
    QString apiKeyOverride;
    SandboxOptions sandbox;           // GANTRY_SANDBOX_BOOT_MS overrides bootDelayMs
    RetryPolicy retry;
};

QStringList knownProviderIds();                  // lambda, runpod, vast, shadeform, sandbox
QStringList cloudProviderIds();                  // the same without the sandbox
QString providerDisplayName(const QString &id);
bool providerNeedsApiKey(const QString &id);     // false for the local sandbox
QString apiKeySecretName(const QString &id);     // "provider/lambda/api-key"
QString apiKeyEnvName(const QString &id);        // "GANTRY_LAMBDA_API_KEY"
QString endpointEnvName(const QString &id);      // "GANTRY_LAMBDA_ENDPOINT"

// The key for a cloud provider, or nullopt when none is configured. Never logged.
Result<std::optional<QString>> findApiKey(const QString &id, const ProviderSettings &settings);
QString endpointFor(const QString &id, const ProviderSettings &settings);

// Providers with a key (plus the sandbox, always last).
QStringList configuredProviderIds(const ProviderSettings &settings);
// The first configured cloud, else "sandbox".
QString defaultProviderId(const ProviderSettings &settings);

Result<std::unique_ptr<Provider>> createProvider(const QString &id, const ProviderSettings &settings,
                                                 QObject *parent = nullptr);

} // namespace gantry::providers
