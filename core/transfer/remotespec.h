#pragma once

#include <QString>

#include <optional>

namespace gantry::transfer {

// "HOST:PATH" where HOST is a saved name or [user@]host[:port] (IPv6 as [addr]), so a port is
// written user@host:2222:/data. nullopt when there is no ':' separating a host.
struct RemoteSpec
{
    QString host;
    QString path;
};
std::optional<RemoteSpec> parseRemoteSpec(const QString &text);

} // namespace gantry::transfer
