#include "cliworkspace.h"

#include "core/cost/ledger.h"
#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"
#include "core/providers/providerhub.h"
#include "core/ssh/knownhosts.h"
#include "core/transfer/transferqueue.h"
#include "core/workspace/resultshome.h"
#include "core/workspace/workspace.h"

#include <QDir>

namespace gantry::cli {

CliWorkspace::CliWorkspace(const Context &context, providercli::ProviderEnv &env, const QStringList &providerIds)
    : m_hosts(std::make_unique<HostStore>(context.configDir))
    , m_hub(std::make_unique<providers::ProviderHub>())
    , m_ledger(std::make_unique<cost::Ledger>(cost::Ledger::defaultPath(context.configDir)))
{
    if (Result<void> loaded = m_hosts->load(); !loaded)
        context.warn(loaded.error().message);
    for (const QString &id : providerIds) {
        Result<std::unique_ptr<providers::Provider>> provider = providers::createProvider(id, env.settings);
        if (provider)
            m_hub->addProvider(std::move(*provider));
        else
            m_errors.append(provider.error().message);
    }
    if (Result<void> opened = m_ledger->open(); !opened) {
        context.warn(opened.error().message);
        m_ledger.reset();
    }
    const QString knownHosts = ssh::defaultKnownHostsFile();
    m_connections = std::make_unique<ConnectionManager>(m_hosts.get(), env.secrets.get());
    m_connections->setKnownHostsFile(knownHosts);
    m_queue = std::make_unique<transfer::TransferQueue>(
        QDir(context.configDir).filePath(QStringLiteral("cli")),
        transfer::TransferQueue::savedHostProvider(m_hosts.get(), env.secrets.get(), knownHosts));
    m_workspace = std::make_unique<workspace::Workspace>(context.configDir, m_hub.get(), m_ledger.get(), m_hosts.get());
    m_workspace->setResultsHome(new workspace::ResultsHome(context.configDir, m_hosts.get(), m_connections.get(), m_queue.get(),
                                                           m_workspace.get()));
}

CliWorkspace::~CliWorkspace() = default;

} // namespace gantry::cli
