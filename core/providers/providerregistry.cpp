#include "core/providers/providerregistry.h"
#include "core/providers/providerstext.h"

#include "core/providers/providerdescriptor.h"
#include "core/providers/restprovider.h"
#include "core/util/appsettings.h"
#include "core/util/secretstore.h"

#include <QCoreApplication>

namespace gantry::providers {
QStringList knownProviderIds()
{
    QStringList ids;
    for (const ProviderDescriptor &d : providerDescriptors())
        ids << d.id;
    return ids;
}

QStringList cloudProviderIds()
{
    QStringList ids;
    for (const ProviderDescriptor &d : providerDescriptors()) {
        if (!d.local)
            ids << d.id;
    }
    return ids;
}

QString providerDisplayName(const QString &id)
{
    const ProviderDescriptor *d = providerDescriptor(id);
    return d ? ProvidersText::tr(d->displayName) : id;
}

bool providerNeedsApiKey(const QString &id)
{
    const ProviderDescriptor *d = providerDescriptor(id);
    return !d || !d->local;
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

// --endpoint > environment > Settings (gantry.ini, read now: a change applies at the next
// ProviderHub::reload, no restart) > the vendor's.
QString endpointFor(const QString &id, const ProviderSettings &settings)
{
    if (!settings.endpointOverride.isEmpty())
        return settings.endpointOverride;
    const QString fromEnv = qEnvironmentVariable(endpointEnvName(id).toLatin1().constData()).trimmed();
    if (!fromEnv.isEmpty())
        return fromEnv;
    if (!settings.configDir.isEmpty()) {
        const QString stored = appsettings::value(settings.configDir, QStringLiteral("endpoint.") + id).trimmed();
        if (!stored.isEmpty())
            return stored;
    }
    const ProviderDescriptor *d = providerDescriptor(id);
    return d ? d->defaultEndpoint : QString();
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
    const ProviderDescriptor *d = providerDescriptor(id);
    if (!d) {
        return Error{ErrorCode::Usage, ProvidersText::tr("Unknown provider \"%1\" (known: %2).")
                                           .arg(id, knownProviderIds().join(QStringLiteral(", ")))};
    }
    if (d->local)
        return d->create(settings, RestConfig{}, parent);
    Result<std::optional<QString>> key = findApiKey(id, settings);
    if (!key)
        return key.error();
    if (!key->has_value()) {
        return Error{ErrorCode::Usage,
                     ProvidersText::tr("No API key for %1. Add one in Settings → Accounts, set %2, or store one with: gantry-cli provider-key set %3")
                         .arg(providerDisplayName(id), apiKeyEnvName(id), id)};
    }
    Result<QUrl> endpoint = checkEndpoint(endpointFor(id, settings), providerDisplayName(id));
    if (!endpoint)
        return endpoint.error();
    RestConfig config;
    config.baseUrl = *endpoint;
    config.apiKey = **key;
    config.retry = settings.retry;
    return d->create(settings, config, parent);
}

} // namespace gantry::providers
