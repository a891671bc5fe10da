#include "core/providers/providerregistry.h"

#include "core/providers/lambdaprovider.h"
#include "core/providers/runpodprovider.h"
#include "core/providers/shadeformprovider.h"
#include "core/providers/vastprovider.h"
#include "core/util/secretstore.h"

#include <QCoreApplication>

namespace gantry::providers {
namespace {
// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class ProvidersText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::providers)
};
} // namespace

QStringList knownProviderIds()
{
    return {QStringLiteral("lambda"), QStringLiteral("runpod"), QStringLiteral("vast"), QStringLiteral("shadeform"),
            QStringLiteral("sandbox")};
}

QStringList cloudProviderIds()
{
    QStringList ids = knownProviderIds();
    ids.removeAll(QStringLiteral("sandbox"));
    return ids;
}

QString providerDisplayName(const QString &id)
{
    if (id == QLatin1String("lambda"))
        return ProvidersText::tr("Lambda Cloud");
    if (id == QLatin1String("runpod"))
        return ProvidersText::tr("RunPod");
    if (id == QLatin1String("vast"))
        return ProvidersText::tr("Vast.ai");
    if (id == QLatin1String("shadeform"))
        return ProvidersText::tr("Shadeform");
    if (id == QLatin1String("sandbox"))
        return ProvidersText::tr("Local sandbox");
    return id;
}

bool providerNeedsApiKey(const QString &id)
{
    return id != QLatin1String("sandbox");
}

QString apiKeySecretName(const QString &id)
{
    return QStringLiteral("provider/%1/api-key").arg(id);
}

QString apiKeyEnvName(const QString &id)
{
    return QStringLiteral("GANTRY_%1_API_KEY").arg(id.toUpper());
}

QString endpointEnvName(const QString &id)
{
    return QStringLiteral("GANTRY_%1_ENDPOINT").arg(id.toUpper());
}

Result<std::optional<QString>> findApiKey(const QString &id, const ProviderSettings &settings)
{
    if (!settings.apiKeyOverride.isEmpty())
        return std::optional<QString>(settings.apiKeyOverride);
    const QString fromEnv = qEnvironmentVariable(apiKeyEnvName(id).toLatin1().constData()).trimmed();
    if (!fromEnv.isEmpty())
        return std::optional<QString>(fromEnv);
    if (!settings.secrets)
        return std::optional<QString>();
    Result<std::optional<QString>> stored = settings.secrets->read(apiKeySecretName(id));
    if (!stored)
        return stored.error();
    if (stored->has_value() && (*stored)->trimmed().isEmpty())
        return std::optional<QString>();
    return stored;
}

QString endpointFor(const QString &id, const ProviderSettings &settings)
{
    if (!settings.endpointOverride.isEmpty())
        return settings.endpointOverride;
    const QString fromEnv = qEnvironmentVariable(endpointEnvName(id).toLatin1().constData()).trimmed();
    if (!fromEnv.isEmpty())
        return fromEnv;
    if (id == QLatin1String("lambda"))
        return LambdaProvider::defaultEndpoint();
    if (id == QLatin1String("runpod"))
        return RunPodProvider::defaultEndpoint();
    if (id == QLatin1String("vast"))
        return VastProvider::defaultEndpoint();
    if (id == QLatin1String("shadeform"))
        return ShadeformProvider::defaultEndpoint();
    return {};
}

QStringList configuredProviderIds(const ProviderSettings &settings)
{
    QStringList ids;
    for (const QString &id : cloudProviderIds()) {
        Result<std::optional<QString>> key = findApiKey(id, settings);
        if (key && key->has_value())
            ids.append(id);
    }
    ids.append(QStringLiteral("sandbox"));
    return ids;
}

QString defaultProviderId(const ProviderSettings &settings)
{
    return configuredProviderIds(settings).constFirst();
}

Result<std::unique_ptr<Provider>> createProvider(const QString &id, const ProviderSettings &settings, QObject *parent)
{
    if (id == QLatin1String("sandbox")) {
        SandboxOptions options = settings.sandbox;
        bool ok = false;
        const int bootMs = qEnvironmentVariableIntValue("GANTRY_SANDBOX_BOOT_MS", &ok);
        if (ok && bootMs >= 0)
            options.bootDelayMs = bootMs;
        return std::unique_ptr<Provider>(std::make_unique<SandboxProvider>(settings.configDir, options, parent));
    }
    if (!cloudProviderIds().contains(id)) {
        return Error{ErrorCode::Usage, ProvidersText::tr("Unknown provider \"%1\" (known: %2).")
                                           .arg(id, knownProviderIds().join(QStringLiteral(", ")))};
    }
    Result<std::optional<QString>> key = findApiKey(id, settings);
    if (!key)
        return key.error();
    if (!key->has_value()) {
        return Error{ErrorCode::Usage,
                     ProvidersText::tr("No API key for %1. Set %2, or store one with: gantry-cli provider-key set %3")
                         .arg(providerDisplayName(id), apiKeyEnvName(id), id)};
    }
    Result<QUrl> endpoint = checkEndpoint(endpointFor(id, settings), providerDisplayName(id));
    if (!endpoint)
        return endpoint.error();
    RestConfig config;
    config.baseUrl = *endpoint;
    config.apiKey = **key;
    config.retry = settings.retry;
    if (id == QLatin1String("lambda"))
        return std::unique_ptr<Provider>(std::make_unique<LambdaProvider>(config, parent));
    if (id == QLatin1String("vast"))
        return std::unique_ptr<Provider>(std::make_unique<VastProvider>(config, parent));
    if (id == QLatin1String("shadeform"))
        return std::unique_ptr<Provider>(std::make_unique<ShadeformProvider>(config, parent));
    return std::unique_ptr<Provider>(std::make_unique<RunPodProvider>(config, parent));
}

} // namespace gantry::providers
