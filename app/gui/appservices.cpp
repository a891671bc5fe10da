#include "appservices.h"

#include "resultsguard.h"

#include "cost/costpanel.h"
#include "cost/ledger.h"
#include "hosts/connectionmanager.h"
#include "jobs/jobservice.h"
#include "jobs/jobstab.h"
#include "monitor/fleetoverview.h"
#include "monitor/monitorservice.h"
#include "monitor/monitortab.h"
#include "providers/instancespanel.h"
#include "providers/launchdialog.h"
#include "providers/pricespanel.h"
#include "providers/providerhub.h"
#include "providers/providerregistry.h"
#include "shell/machinetablemodel.h"
#include "shell/mainwindow.h"
#include "shell/trayicon.h"
#include "sshconfig/sshconfigfile.h"
#include "transfer/filestab.h"
#include "transfer/transferqueue.h"
#include "transfer/transferspanel.h"
#include "tunnel/tunnelmanager.h"
#include "verify/verifytab.h"

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
    settings.secrets = secrets;
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

    m_results = new ResultsGuard(context.configDir, context.hosts, context.connections, m_transfers, window, this);
    connect(m_results, &ResultsGuard::message, this, [this](const QString &text) { notify(tr("Results"), text); });

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
    connect(m_monitor, &monitor::MonitorService::machineAdded, this, &AppServices::wireIdlePolicy);
    connect(m_monitor, &monitor::MonitorService::alertRaised, this, [this](const monitor::Alert &alert) {
        notify(tr("Gantry: %1").arg(alert.host), alert.message);
    });

    // Managed ~/.ssh/config entries (opt-in) follow the saved hosts.
    connect(context.hosts, &HostStore::changed, this, [hosts = context.hosts, dir = context.configDir] {
        (void)sshconfig::syncIfEnabled(dir, hosts->hosts());
    });

    window->addCloseGuard([this]() -> QString {
        return m_transfers->hasPendingTransfers() ? tr("Transfers are still running or queued; they resume next time.") : QString();
    });
    if (auto restored = m_transfers->restore(); !restored)
        window->statusBar()->showMessage(restored.error().message, 15000);
}

AppServices::~AppServices() = default;

void AppServices::installTabs()
{
    const ui::AppContext context = m_window->context();
    m_window->addDetailTab(new ui::FilesTab(context, m_transfers));
    m_window->addDetailTab(new ui::monitor::MonitorTab(m_monitor));
    m_window->addDetailTab(new ui::VerifyTab(context));
    m_window->addDetailTab(new ui::JobsTab(context, m_jobs, m_tunnels));
}

void AppServices::installPanels()
{
    const ui::AppContext context = m_window->context();
    auto *prices = new ui::PricesPanel(m_hub, context.configDir);
    m_instances = new ui::InstancesPanel(m_hub, m_ledger, context.hosts, context.configDir);
    auto *fleet = new ui::monitor::FleetOverview(m_monitor);
    m_window->addPanel(QStringLiteral("prices"), tr("Prices"), prices);
    // The cached table shows at once; a fresh one is fetched in the background.
    QMetaObject::invokeMethod(prices, &ui::PricesPanel::refresh, Qt::QueuedConnection);
    m_window->addPanel(QStringLiteral("instances"), tr("Instances"), m_instances);
    m_window->addPanel(QStringLiteral("transfers"), tr("Transfers"), new ui::TransfersPanel(m_transfers));
    m_window->addPanel(QStringLiteral("monitor"), tr("Fleet monitor"), fleet);
    auto *costPanel = new ui::CostPanel(m_ledger);
    m_window->addPanel(QStringLiteral("cost"), tr("Cost"), costPanel);
    connect(costPanel, &ui::CostPanel::budgetAlert, this, [this](const QString &text) { notify(tr("Budget"), text); });
    m_instances->setTerminateGuard([this](const providers::Instance &instance) { return m_results->allowTerminate(instance); });

    connect(prices, &ui::PricesPanel::launchRequested, this, [this, context](const QString &provider, const QString &typeName) {
        auto *dialog = new ui::LaunchDialog(m_hub, context.configDir, m_window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->preselect(provider, typeName);
        connect(dialog, &ui::LaunchDialog::launched, m_instances, &ui::InstancesPanel::trackLaunch);
        connect(dialog, &ui::LaunchDialog::launched, this, [this] { m_window->showPanel(QStringLiteral("instances")); });
        dialog->open();
    });
    connect(m_instances, &ui::InstancesPanel::hostReady, this, [this](const QString &hostName) {
        m_window->showPanel(QStringLiteral("machines"));
        m_window->selectHost(hostName);
        m_window->connectSelected();
        notify(tr("Instance ready"), tr("%1 is up; connecting.").arg(hostName));
    });
    connect(m_instances, &ui::InstancesPanel::message, this, [this](const QString &text) {
        m_window->statusBar()->showMessage(text, 15000);
    });
    connect(fleet, &ui::monitor::FleetOverview::machineActivated, this, [this](const QString &hostName) {
        m_window->showPanel(QStringLiteral("machines"));
        m_window->selectHost(hostName);
    });
}

void AppServices::wireIdlePolicy(const QString &hostName)
{
    monitor::IdlePolicy *policy = m_monitor->idlePolicy(hostName);
    if (!policy)
        return;
    m_jobs->watch(hostName);
    policy->setTransfersPending([this, hostName] { return m_transfers->hasPendingTransfers(hostName); });
    policy->setJobsRunning([this, hostName] { return m_jobs->hasRunningJobs(hostName); });
    connect(policy, &monitor::IdlePolicy::notify, this, [this](const QString &host, const QString &message) {
        notify(tr("Idle GPU on %1").arg(host), message);
    });
    connect(policy, &monitor::IdlePolicy::actionRequested, this, [this](const QString &host, monitor::IdleAction action) {
        if (action == monitor::IdleAction::Stop || action == monitor::IdleAction::Terminate)
            requestInstanceAction(host, action == monitor::IdleAction::Terminate);
    });
}

void AppServices::requestInstanceAction(const QString &hostName, bool terminate)
{
    const std::optional<SavedHost> host = m_window->hosts()->find(hostName);
    providers::Provider *provider = host ? m_hub->provider(host->provider) : nullptr;
    if (!host || !provider || host->instanceId.isEmpty()) {
        notify(tr("Idle GPU on %1").arg(hostName),
               tr("Gantry cannot stop this machine: it was not launched through a provider Gantry manages. Stop it in "
                  "your provider's console."));
        return;
    }
    auto done = [this, hostName, terminate](Result<void> result) {
        notify(tr("Idle GPU on %1").arg(hostName),
               result ? (terminate ? tr("Terminated after the idle countdown.") : tr("Stopped after the idle countdown."))
                      : result.error().message);
        m_instances->refresh();
    };
    if (terminate)
        provider->terminate(host->instanceId, done);
    else
        provider->stop(host->instanceId, done);
}

void AppServices::notify(const QString &title, const QString &text)
{
    if (m_tray && QSystemTrayIcon::supportsMessages())
        m_tray->showMessage(title, text);
    m_window->statusBar()->showMessage(title + QStringLiteral(": ") + text.section(QLatin1Char('\n'), 0, 0), 20000);
}

} // namespace gantry::app
