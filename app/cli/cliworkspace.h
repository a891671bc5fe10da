#pragma once

#include "cmd_provider_common.h"

#include <memory>

namespace gantry {
namespace cost { class Ledger; }
namespace providers { class ProviderHub; }
namespace workspace { class AppCore; class Workspace; }
} // namespace gantry

namespace gantry::cli {

// The application core the window drives (workspace::AppCore), made for one command: the accounts
// the command resolved and only the clouds it names, the saved hosts and the ledger (what cannot be
// read is a warning on stderr: a broken ledger never blocks an action), and a transfer queue of its
// own (<configDir>/cli, so it never rewrites the window's queue). The window's background work —
// queued transfers, sync watches — is not resumed.
class CliWorkspace final
{
    Q_DISABLE_COPY_MOVE(CliWorkspace)

public:
    CliWorkspace(const Context &context, providercli::ProviderEnv &env, const QStringList &providerIds);
    ~CliWorkspace();

    workspace::AppCore *core() const { return m_core.get(); }
    workspace::Workspace *get() const;
    providers::ProviderHub *hub() const;
    cost::Ledger *ledger() const; // null when the ledger could not be opened
    QStringList errors() const;   // providers that could not be created

private:
    std::unique_ptr<workspace::AppCore> m_core;
};

} // namespace gantry::cli
