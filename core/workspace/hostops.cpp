// SPDX-License-Identifier: Apache-2.0
// Workspace: the saved hosts. The GUI's dialogs and `gantry-cli hosts` add, remove and import here;
// the ledger and the managed ~/.ssh/config block follow every change of the HostStore (followHosts).
#include "core/workspace/workspace.h"

#include "core/cost/hostbilling.h"
#include "core/cost/ledger.h"
#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"
#include "core/hosts/sshconfigimport.h"
#include "core/sshconfig/sshconfigfile.h"

namespace gantry::workspace {

// Every path that adds, edits or removes a saved host goes through the HostStore, so the ledger and
// ~/.ssh/config follow its signals rather than each caller (a rented instance's host saved by a
// launch, forgotten by a terminate, a host added in the GUI or by gantry-cli).
void Workspace::followHosts()
{
    if (!m_hosts)
        return;
    connect(m_hosts, &HostStore::changed, this, [this] {
        if (m_ledger) {
            if (Result<void> billed = cost::reconcileHostBilling(*m_ledger, m_hosts->hosts()); !billed)
                emit billingWarning(billed.error().message);
        }
        if (Result<bool> synced = sshconfig::syncIfEnabled(m_configDir, m_hosts->hosts()); !synced)
            emit sshConfigWarning(synced.error().message);
    });
    connect(m_hosts, &HostStore::added, this, [this](const QString &name) {
        if (!m_ledger || !m_billNewHosts)
            return;
        if (std::optional<SavedHost> host = m_hosts->find(name); host && cost::isBillableHost(*host)) {
            if (Result<void> billed = cost::startHostBilling(*m_ledger, *host); !billed) // added with a price: rented just now
                emit billingWarning(billed.error().message);
        }
    });
}

Result<void> Workspace::addHost(const SavedHost &host, bool bill)
{
    if (!m_hosts)
        return Error{ErrorCode::Io, tr("The saved hosts are not loaded, so %1 cannot be added.").arg(host.name)};
    m_billNewHosts = bill;
    Result<void> added = m_hosts->add(host);
    m_billNewHosts = true;
    return added;
}

Result<void> Workspace::removeHost(const QString &name, SecretStore *secrets)
{
    if (!m_hosts)
        return Error{ErrorCode::Io, tr("The saved hosts are not loaded, so %1 cannot be removed.").arg(name)};
    if (Result<void> removed = m_hosts->remove(name); !removed)
        return removed;
    if (secrets)
        forgetHostSecrets(*secrets, name);
    return {};
}

Result<int> Workspace::importSshConfig(const QString &file, QStringList *warnings, int *found)
{
    if (!m_hosts)
        return Error{ErrorCode::Io, tr("The saved hosts are not loaded, so %1 cannot be imported.").arg(file)};
    const QList<SavedHost> hosts = gantry::importSshConfig(file, warnings);
    if (found)
        *found = int(hosts.size());
    return m_hosts->merge(hosts);
}

} // namespace gantry::workspace
