#pragma once

#include "core/providers/providerregistry.h"
#include "core/util/appsettings.h"

namespace gantry::diagnostics {

// The providers that need an account (keys, endpoint overrides), from the registry, so a new
// provider shows up in Settings, `gantry-cli settings` and the report without further edits.
inline QStringList cloudProviderIds()
{
    QStringList ids;
    for (const QString &id : providers::knownProviderIds()) {
        if (providers::providerNeedsApiKey(id))
            ids << id;
    }
    return ids;
}

inline QList<appsettings::SettingInfo> knownSettings()
{
    return appsettings::knownSettings(cloudProviderIds());
}

} // namespace gantry::diagnostics
