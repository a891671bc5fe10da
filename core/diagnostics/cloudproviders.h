#pragma once

#include "core/providers/providerregistry.h"
#include "core/util/appsettings.h"

namespace gantry::diagnostics {

// Every setting, with an endpoint override for each provider that needs an account (from the
// providers' table, so a new provider shows up in Settings, `gantry-cli settings` and the report).
inline QList<appsettings::SettingInfo> knownSettings()
{
    return appsettings::knownSettings(providers::cloudProviderIds());
}

} // namespace gantry::diagnostics
