#include "cliworkspace.h"

#include "core/providers/providerhub.h"
#include "core/workspace/appcore.h"

#include <QDir>

namespace gantry::cli {

CliWorkspace::CliWorkspace(const Context &context, providercli::ProviderEnv &env, const QStringList &providerIds)
{
    workspace::AppCore::Options options;
    options.accounts = env.settings;
    options.providerIds = providerIds;
    options.transfersDir = QDir(context.configDir).filePath(QStringLiteral("cli"));
    options.resumeWork = false;
    m_core = std::make_unique<workspace::AppCore>(context.configDir, env.secrets.get(), std::move(options));
    m_core->open();
    for (const QString &problem : m_core->openProblems())
        context.warn(problem);
}

CliWorkspace::~CliWorkspace() = default;

workspace::Workspace *CliWorkspace::get() const
{
    return m_core->workspace();
}

providers::ProviderHub *CliWorkspace::hub() const
{
    return m_core->providers();
}

cost::Ledger *CliWorkspace::ledger() const
{
    return m_core->ledgerOpen() ? m_core->ledger() : nullptr;
}

QStringList CliWorkspace::errors() const
{
    return m_core->providers()->errors();
}

} // namespace gantry::cli
