#pragma once

#include "cmd_provider_common.h"

#include <memory>

namespace gantry {
class ConnectionManager;
class HostStore;
namespace cost { class Ledger; }
namespace providers { class ProviderHub; }
namespace transfer { class TransferQueue; }
namespace workspace { class Workspace; }
} // namespace gantry

namespace gantry::cli {

// The workspace the GUI drives, built for one command: the given providers, the ledger (errors on
// stderr: a broken ledger never blocks an action), the saved hosts, and results downloads in a
// transfer queue of its own (<configDir>/cli, so it never rewrites the GUI's queue).
class CliWorkspace final
{
    Q_DISABLE_COPY_MOVE(CliWorkspace)

public:
    CliWorkspace(const Context &context, providercli::ProviderEnv &env, const QStringList &providerIds);
    ~CliWorkspace();

    workspace::Workspace *get() const { return m_workspace.get(); }
    providers::ProviderHub *hub() const { return m_hub.get(); }
    cost::Ledger *ledger() const { return m_ledger.get(); }
    QStringList errors() const { return m_errors; } // providers that could not be created

private:
    std::unique_ptr<HostStore> m_hosts;
    std::unique_ptr<providers::ProviderHub> m_hub;
    std::unique_ptr<cost::Ledger> m_ledger;
    std::unique_ptr<ConnectionManager> m_connections;
    std::unique_ptr<transfer::TransferQueue> m_queue;
    std::unique_ptr<workspace::Workspace> m_workspace;
    QStringList m_errors;
};

} // namespace gantry::cli
