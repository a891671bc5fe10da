#include "core/providers/instancehosts.h"

#include "core/providers/gantrykey.h"

#include "core/util/printable.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace gantry::providers {

SavedHost savedHostFor(const Instance &instance, const QString &configDir, const QString &identityFile)
{
    SavedHost host;
    // The provider's name for the instance becomes the host's name, which names folders (results
    // home) and ~/.ssh/config aliases: one a host name may not be falls back to provider-id.
    host.name = instance.name;
    SavedHost probe;
    probe.name = instance.name;
    probe.target.host = QStringLiteral("127.0.0.1");
    if (!HostStore::check(probe))
        host.name = instance.provider + QLatin1Char('-') + instance.id.left(8);
    host.target.host = instance.sshHost;
    host.target.port = instance.sshPort;
    host.target.user = instance.sshUser;
    const QString key = identityFile.isEmpty() ? gantryKeyPath(configDir) : identityFile;
    if (QFileInfo::exists(key))
        host.target.identityFiles = QStringList{key};
    host.hourlyPriceUsd = instance.pricePerHour;
    host.provider = instance.provider;
    host.instanceId = instance.id;
    host.machineId = instance.machineId;
    host.hostKeyFingerprint = instance.hostKeyFingerprint;
    host.source = QStringLiteral("provider");
    return host;
}

Result<QString> rememberInstanceHost(HostStore &hosts, const Instance &instance, const QString &configDir,
                                     const QString &identityFile)
{
    SavedHost host = savedHostFor(instance, configDir, identityFile);
    // The address comes from the provider's API and ends up in ~/.ssh/config: a hostile or broken
    // reply must not become a saved host.
    if (Result<void> checked = ssh::checkTarget(host.target); !checked)
        return makeError(ErrorCode::Provider,
                         QCoreApplication::translate("gantry::providers",
                                                     "%1 reported an SSH address for instance %2 that Gantry will not "
                                                     "use (%3), so no host was saved. The instance may still be billing: "
                                                     "check it in the provider's console, terminate it if you do not trust "
                                                     "it, and report the reply to the provider.")
                             .arg(text::printable(instance.provider), text::printable(instance.id), checked.error().message));
    for (const SavedHost &existing : hosts.hosts()) {
        if (existing.provider == host.provider && existing.instanceId == host.instanceId) {
            host.name = existing.name;
            if (identityFile.isEmpty())
                host.target.identityFiles = existing.target.identityFiles;
            if (existing == host)
                return host.name;
            Result<void> updated = hosts.update(host);
            if (!updated)
                return updated.error();
            return host.name;
        }
    }
    // Another host may already use the instance's name.
    const QString base = host.name;
    for (int n = 2; hosts.find(host.name).has_value(); ++n)
        host.name = base + QLatin1Char('-') + QString::number(n);
    Result<void> added = hosts.add(host);
    if (!added)
        return added.error();
    return host.name;
}

Result<bool> forgetInstanceHost(HostStore &hosts, const QString &provider, const QString &instanceId)
{
    for (const SavedHost &existing : hosts.hosts()) {
        if (existing.provider == provider && existing.instanceId == instanceId) {
            const QString name = existing.name; // remove() invalidates existing
            Result<void> removed = hosts.remove(name);
            if (!removed)
                return removed.error();
            return true;
        }
    }
    return false;
}

} // namespace gantry::providers
