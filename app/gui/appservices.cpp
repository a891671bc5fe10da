#include "app/gui/appservices.h"
#include "ui/cluster/clusterspanel.h"

#include "app/gui/resultsguard.h"

#include "ui/cost/costpanel.h"
#include "core/cost/budgetmonitor.h"
#include "core/cost/ledger.h"
#include "core/hosts/connectionmanager.h"
#include "core/jobs/jobservice.h"
#include "ui/jobs/jobstab.h"
#include "ui/monitor/fleetoverview.h"
#include "core/cluster/cluster.h"
#include "core/monitor/monitorservice.h"
#include "ui/monitor/monitortab.h"
#include "ui/providers/instancespanel.h"
#include "ui/providers/launchdialog.h"
#include "ui/providers/pricespanel.h"
#include "core/providers/providerhub.h"
#include "core/providers/providerregistry.h"
#include "ui/shell/machinetablemodel.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/trayicon.h"
#include "ui/transfer/filestab.h"
#include "core/transfer/transferqueue.h"
#include "ui/transfer/transferspanel.h"
#include "core/tunnel/tunnelmanager.h"
#include "ui/verify/verifytab.h"
#include "core/workspace/policylock.h"
#include "core/workspace/policyrunner.h"
#include "core/workspace/resultshome.h"
#include "core/workspace/secretprefetch.h"
#include "core/workspace/workspace.h"

#include <QDir>
#include <QFileInfo>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QUrl>

namespace gantry::app {

AppServices::AppServices(ui::MainWindow *window, SecretStore *secrets)
    : QObject(window)
    , m_window(window)
    , m_secrets(secrets)
{
    const ui::AppContext context = window->context();
    const QString knownHosts = context.connections->knownHostsFile();

    providers::ProviderSettings settings;
    settings.configDir = context.configDir;
    settings.secrets = prefetchProviderKeys(secrets);
    m_hub = new providers::ProviderHub(settings, this);
    m_ledger = new cost::Ledger(cost::Ledger::defaultPath(context.configDir), Clock::system(), this);
    if (auto opened = m_ledger->open(); !opened)
        QMetaObject::invokeMethod(this, [this, message = opened.error().message] {
            m_window->statusBar()->showMessage(message, 30000);
        }, Qt::QueuedConnection);
    m_transfers = new transfer::TransferQueue(
        context.configDir, transfer::TransferQueue::savedHostProvider(context.hosts, secrets, knownHosts), this);
    m_monitor = new monitor::MonitorService(secrets, knownHosts, Clock::system(), this);
    m_jobs = new jobs::JobService(context.hosts, secrets, knownHosts, this);
    m_tunnels = new tunnel::TunnelManager(this);

    m_tray = ui::TrayIcon::createIfAvailable(window, this);

    m_workspace = new workspace::Workspace(context.configDir, m_hub, m_ledger, context.hosts, this);
    auto *resultsHome = new workspace::ResultsHome(context.configDir, context.hosts, context.connections, m_transfers, m_workspace);
    m_workspace->setResultsHome(resultsHome);
    m_results = new ResultsGuard(m_workspace, window, this);
    connect(m_results, &ResultsGuard::message, this, [this](const QString &text) { notify(tr("Results"), text); });
    connect(resultsHome, &workspace::ResultsHome::message, this, [this](const QString &text) { notify(tr("Results"), text); });

    installTabs();
    installPanels();

    // Drops of local files onto a machine row go to the machine's home directory.
    connect(window->machineModel(), &ui::MachineTableModel::filesDropped, this,
            [this](const QString &hostName, const QList<QUrl> &urls) {
                for (const QUrl &url : urls) {
                    transfer::TransferRequest request;
                    request.direction = transfer::Direction::Upload;
                    request.host = hostName;
                    request.localPath = url.toLocalFile();
                    request.remotePath = QStringLiteral(".");
                    request.destinationIsDir = true;
                    m_transfers->enqueue(request);
                }
                m_window->statusBar()->showMessage(tr("Uploading %n item(s) to %1…", nullptr, int(urls.size())).arg(hostName), 8000);
            });

    connect(m_jobs, &jobs::JobService::jobExited, this,
            [this](const QString &hostName, const jobs::JobInfo &job, const QString &lastLines) {
                notify(tr("Job finished on %1").arg(hostName),
                       tr("%1 ended (%2).\n%3").arg(job.name, job.statusText(), lastLines.right(400)));
            });
    installPolicies();
    connect(m_monitor, &monitor::MonitorService::alertRaised, this, [this](const monitor::Alert &alert) {
        notify(tr("Gantry: %1").arg(alert.host), alert.message);
    });

    // Managed ~/.ssh/config entries (opt-in) follow the saved hosts in the workspace.
    connect(m_workspace, &workspace::Workspace::sshConfigWarning, this, [this](const QString &message) {
        m_window->statusBar()->showMessage(message, 15000);
    });

    window->addCloseGuard([this]() -> QString {
        return m_transfers->hasPendingTransfers() ? tr("Transfers are still running or queued; they resume next time.") : QString();
    });
    if (auto restored = m_transfers->restore(); !restored)
        window->statusBar()->showMessage(restored.error().message, 15000);
}

AppServices::~AppServices() = default;

void AppServices::openLaunchDialog(const QString &provider, const QString &typeName)
{
    auto *dialog = new ui::LaunchDialog(m_workspace, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!provider.isEmpty())
        dialog->preselect(provider, typeName);
    connect(dialog, &ui::LaunchDialog::launched, this, [this] { m_window->showPanel(QStringLiteral("instances")); });
    dialog->open();
}

SecretStore *AppServices::prefetchProviderKeys(SecretStore *secrets)
{
    // The keychain is read on a worker: the window opens with the sandbox (and any key from the
    // environment), and the clouds whose keys the keychain holds join when it has answered.
    auto *prefetch = new workspace::SecretPrefetch(secrets, this);
    QStringList keys;
    for (const QString &id : providers::knownProviderIds()) {
        if (providers::providerNeedsApiKey(id))
            keys.append(providers::apiKeySecretName(id));
    }
    connect(prefetch, &workspace::SecretPrefetch::ready, this, [this, prefetch] {
        for (const QString &id : providers::configuredProviderIds(m_hub->settings())) {
            if (m_hub->provider(id))
                continue;
            Result<std::unique_ptr<providers::Provider>> created = providers::createProvider(id, m_hub->settings());
            if (created)
                m_hub->addProvider(std::move(*created));
            else
                m_window->statusBar()->showMessage(created.error().message, 30000);
        }
        prefetch->release(); // later reads (a key changed in the settings) ask the keychain again
    });
    prefetch->prefetch(keys);
    return prefetch;
}

void AppServices::installTabs()
{
    const ui::AppContext context = m_window->context();
    m_window->addDetailTab(new ui::FilesTab(context, m_transfers));
    m_window->addDetailTab(new ui::monitor::MonitorTab(m_monitor, context.configDir));
    m_window->addDetailTab(new ui::VerifyTab(context));
    m_window->addDetailTab(new ui::JobsTab(context, m_jobs, m_tunnels));
}

QStringList AppServices::panelIds()
{
    // Kept in step with installPanels() by test_shell_sandbox (registeredPanelsAreListed).
    return {QStringLiteral("machines"), QStringLiteral("prices"),    QStringLiteral("instances"), QStringLiteral("clusters"),
            QStringLiteral("transfers"), QStringLiteral("monitor"), QStringLiteral("cost")};
}

void AppServices::installPanels()
{
    const ui::AppContext context = m_window->context();
    auto *prices = new ui::PricesPanel(m_hub, context.configDir);
    m_instances = new ui::InstancesPanel(m_workspace);
    auto *fleet = new ui::monitor::FleetOverview(m_monitor);
    fleet->setClusterSource([configDir = context.configDir] {
        ui::monitor::FleetOverview::ClusterGroups groups;
        cluster::ClusterStore store(configDir); // a small file, read when machines come or go
        if (store.load()) {
            for (const cluster::Cluster &c : store.clusters()) {
                QStringList nodes;
                for (const cluster::ClusterNode &node : c.nodes)
                    nodes << node.hostName;
                groups.append({c.name, nodes});
            }
        }
        return groups;
    });
    m_window->addPanel(QStringLiteral("prices"), tr("Prices"), prices);
    // The cached table shows at once; a fresh one is fetched in the background.
    QMetaObject::invokeMethod(prices, &ui::PricesPanel::refresh, Qt::QueuedConnection);
    m_window->addPanel(QStringLiteral("instances"), tr("Instances"), m_instances);
    m_window->addPanel(QStringLiteral("clusters"), tr("Clusters"), new ui::ClustersPanel(m_workspace));
    m_window->addPanel(QStringLiteral("transfers"), tr("Transfers"), new ui::TransfersPanel(m_transfers));
    m_window->addPanel(QStringLiteral("monitor"), tr("Fleet monitor"), fleet);
    auto *costPanel = new ui::CostPanel(m_ledger);
    m_window->addPanel(QStringLiteral("cost"), tr("Cost"), costPanel);
    connect(costPanel, &ui::CostPanel::budgetAlert, this, [this](const QString &text) { notify(tr("Budget"), text); });
    m_instances->setTerminateGuard([this](const providers::Instance &instance) { return m_results->allowTerminate(instance); });

    connect(prices, &ui::PricesPanel::launchRequested, this, &AppServices::openLaunchDialog);
    prices->setLauncher(m_workspace->capacityLauncher({}));
    connect(m_instances, &ui::InstancesPanel::hostReady, this, [this](const QString &hostName) {
        m_window->showPanel(QStringLiteral("machines"));
        m_window->selectHost(hostName);
        m_window->connectSelected();
        const ssh::Connection *connection = m_window->connections()->connection(hostName);
        if (connection && connection->state() == ssh::ConnectionState::Connected) {
            notify(tr("Instance ready"), tr("%1 is up and connected.").arg(hostName));
            return;
        }
        notify(tr("Instance ready"), tr("%1 is up; connecting.").arg(hostName));
        // That line says what happens next: once it has happened (or failed) it gives way.
        auto *until = new QObject(this);
        connect(m_window->connections(), &ConnectionManager::stateChanged, until,
                [this, until, hostName](const QString &host, ssh::ConnectionState state, const QString &message) {
                    if (host != hostName || state == ssh::ConnectionState::Connecting)
                        return;
                    m_window->statusBar()->showMessage(state == ssh::ConnectionState::Connected
                                                           ? tr("%1 is up and connected.").arg(hostName)
                                                           : QStringLiteral("%1: %2").arg(hostName, message),
                                                       10000);
                    until->deleteLater();
                });
    });
    connect(m_instances, &ui::InstancesPanel::message, this, [this](const QString &text) {
        m_window->statusBar()->showMessage(text, 15000);
    });
    connect(fleet, &ui::monitor::FleetOverview::machineActivated, this, [this](const QString &hostName) {
        m_window->showPanel(QStringLiteral("machines"));
        m_window->selectHost(hostName);
    });
}

void AppServices::installPolicies()
{
    m_policyLock = std::make_unique<workspace::PolicyLock>(m_window->context().configDir);
    m_policies = new workspace::PolicyRunner(m_workspace, m_monitor, m_policyLock.get(), this);
    m_policies->setTransfersPending([this](const QString &host) { return m_transfers->hasPendingTransfers(host); });
    m_policies->setJobsRunning([this](const QString &host) { return m_jobs->hasRunningJobs(host); });
    connect(m_monitor, &monitor::MonitorService::machineAdded, m_jobs, &jobs::JobService::watch);
    connect(m_policies, &workspace::PolicyRunner::idleNotice, this, [this](const QString &host, const QString &message) {
        notify(tr("Idle GPU on %1").arg(host), message);
    });
    connect(m_policies, &workspace::PolicyRunner::acted, this, [this](const QString &host, const workspace::ActionOutcome &outcome) {
        notify(tr("Idle GPU on %1").arg(host), (QStringList{outcome.message} + outcome.warnings).join(QLatin1Char('\n')));
        m_instances->refresh();
    });
    connect(m_policies, &workspace::PolicyRunner::actionFailed, this, [this](const QString &host, const QString &, const QString &message) {
        notify(tr("Idle GPU on %1").arg(host), message);
    });
    connect(m_policies, &workspace::PolicyRunner::deferred, this, [this](const QString &host, const QString &holder) {
        notify(tr("Idle GPU on %1").arg(host), tr("The idle policy is run by %1; this window leaves the action to it.").arg(holder));
    });
    // The budget watch is the same as the watcher's; each threshold is announced once (the ledger
    // remembers), whoever sees it first.
    connect(m_policies, &workspace::PolicyRunner::budgetReached, this,
            [this](const QString &, int, double, double, const QString &text) { notify(tr("Budget"), text); });
    m_policies->budgets()->setInterval(60000);
    if (!m_policies->ownsPolicy())
        QMetaObject::invokeMethod(this, [this] {
            m_window->statusBar()->showMessage(tr("The idle policy is run by %1; this window leaves the action to it.").arg(m_policyLock->holder()), 30000);
        }, Qt::QueuedConnection);
}

void AppServices::notify(const QString &title, const QString &text)
{
    if (m_tray && QSystemTrayIcon::supportsMessages())
        m_tray->showMessage(title, text);
    m_window->statusBar()->showMessage(title + QStringLiteral(": ") + text.section(QLatin1Char('\n'), 0, 0), 20000);
}

} // namespace gantry::app
