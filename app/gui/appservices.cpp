#include "app/gui/appservices.h"

#include "core/storage/copyjobs.h"
#include "ui/cluster/clusterspanel.h"

#include "app/gui/resultsguard.h"

#include "ui/cost/costpanel.h"
#include "core/cost/budgetmonitor.h"
#include "core/cost/ledger.h"
#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"
#include "core/jobs/jobservice.h"
#include "ui/jobs/jobstab.h"
#include "ui/monitor/fleetoverview.h"
#include "core/cluster/cluster.h"
#include "core/monitor/monitorservice.h"
#include "ui/monitor/monitortab.h"
#include "ui/providers/instancesmodel.h"
#include "ui/providers/instancespanel.h"
#include "ui/providers/launchdialog.h"
#include "ui/providers/pricespanel.h"
#include "ui/runs/runspanel.h"
#include "core/providers/providerhub.h"
#include "core/providers/providerregistry.h"
#include "ui/shell/machinetablemodel.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/trayicon.h"
#include "ui/shell/handoffactions.h"
#include "ui/transfer/filestab.h"
#include "core/transfer/transferqueue.h"
#include "ui/transfer/transferspanel.h"
#include "core/tunnel/tunnelmanager.h"
#include "ui/verify/verifytab.h"
#include "ui/storage/storagepanel.h"
#include "ui/storage/volumesview.h"
#include "core/runs/runservice.h"
#include "core/workspace/appcore.h"
#include "core/workspace/policylock.h"
#include "core/workspace/policyrunner.h"
#include "core/workspace/resultshome.h"
#include "core/workspace/workspace.h"
#include "core/util/appsettings.h"

#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QUrl>

namespace gantry::app {

AppServices::AppServices(ui::MainWindow *window, workspace::AppCore *core)
    : QObject(window)
    , m_window(window)
    , m_core(core)
{
    m_tray = ui::TrayIcon::createIfAvailable(window, this);
    m_results = new ResultsGuard(m_core->workspace(), window, this);
    connect(m_results, &ResultsGuard::message, this, [this](const QString &text) { notify(tr("Results"), text); });
    connect(core->resultsHome(), &workspace::ResultsHome::message, this, [this](const QString &text) { notify(tr("Results"), text); });

    installTabs();
    installPanels();
    connectInstanceCommands();

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
                    m_core->transfers()->enqueue(request);
                }
                m_window->statusBar()->showMessage(tr("Uploading %n item(s) to %1…", nullptr, int(urls.size())).arg(hostName), 8000);
            });

    connect(m_core->jobs(), &jobs::JobService::jobExited, this,
            [this](const QString &hostName, const jobs::JobInfo &job, const QString &lastLines) {
                notify(tr("Job finished on %1").arg(hostName),
                       tr("%1 ended (%2).\n%3").arg(job.name, job.statusText(), lastLines.right(400)));
            });
    installPolicies();
    connect(m_core->monitor(), &monitor::MonitorService::alertRaised, this, [this](const monitor::Alert &alert) {
        notify(tr("Gantry: %1").arg(alert.host), alert.message);
    });

    // Managed ~/.ssh/config entries (opt-in) follow the saved hosts in the workspace.
    connect(m_core->workspace(), &workspace::Workspace::sshConfigWarning, this, [this](const QString &message) {
        m_window->statusBar()->showMessage(message, 15000);
    });

    window->addCloseGuard([this]() -> QString {
        return m_core->transfers()->hasPendingTransfers() ? tr("Transfers are still running or queued; they resume next time.") : QString();
    });
    window->addCloseGuard([this]() -> QString {
        return m_core->copies()->hasRunning() ? tr("Copies through a bucket or between machines are still running; they stop. Run them again to go on: "
                                                   "files already copied are skipped.")
                                              : QString();
    });
    window->addCloseGuard([this]() -> QString {
        const QStringList runs = m_core->runs()->drivenNames();
        return runs.isEmpty() ? QString() : tr("Managed runs go on without the window: gantry-cli watch takes over %1.").arg(runs.join(QStringLiteral(", ")));
    });
}

AppServices::~AppServices() = default;

// A launched instance is up: the Machines view shows and connects it; once connected, the
// acceptance test is offered or run as Settings say (accept.after_launch) — keep it or give it back
// before the bill grows.
void AppServices::onHostReady(const QString &hostName)
{
    m_window->showPanel(QStringLiteral("machines"));
    m_window->selectHost(hostName);
    m_window->connectSelected();
    const ssh::Connection *connection = m_window->connections()->connection(hostName);
    if (connection && connection->state() == ssh::ConnectionState::Connected) {
        notify(tr("Instance ready"), tr("%1 is up and connected.").arg(hostName));
        afterLaunchConnected(hostName);
        return;
    }
    notify(tr("Instance ready"), tr("%1 is up; connecting.").arg(hostName));
    // That line says what happens next: once it has happened (or failed) it gives way.
    auto *until = new QObject(this);
    connect(m_window->connections(), &ConnectionManager::stateChanged, until,
            [this, until, hostName](const QString &host, ssh::ConnectionState state, const QString &message) {
                if (host != hostName || state == ssh::ConnectionState::Connecting)
                    return;
                until->deleteLater();
                if (state == ssh::ConnectionState::Connected)
                    afterLaunchConnected(hostName);
                else
                    m_window->statusBar()->showMessage(QStringLiteral("%1: %2").arg(hostName, message), 10000);
            });
}

void AppServices::afterLaunchConnected(const QString &hostName)
{
    const QString when = appsettings::value(m_core->configDir(), QStringLiteral("accept.after_launch"));
    auto *verify = m_window->findChild<ui::VerifyTab *>();
    QString next;
    if (verify && when == QLatin1String("run")) {
        m_window->showDetailTab(verify);
        verify->startAcceptance();
        next = tr("The acceptance test runs on its Verify tab.");
    } else if (verify && when != QLatin1String("off")) {
        next = tr("Keep it or give it back: the acceptance test is on its Verify tab.");
    }
    const QString up = tr("%1 is up and connected.").arg(hostName);
    m_window->statusBar()->showMessage(next.isEmpty() ? up : up + QStringLiteral(" ") + next, 30000);
}

providers::ProviderHub *AppServices::providers() const { return m_core->providers(); }
transfer::TransferQueue *AppServices::transfers() const { return m_core->transfers(); }
monitor::MonitorService *AppServices::monitor() const { return m_core->monitor(); }
cost::Ledger *AppServices::ledger() const { return m_core->ledger(); }
workspace::Workspace *AppServices::workspace() const { return m_core->workspace(); }

void AppServices::openLaunchDialog(const QString &provider, const QString &typeName)
{
    auto *dialog = new ui::LaunchDialog(m_core->workspace(), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!provider.isEmpty())
        dialog->preselect(provider, typeName);
    connect(dialog, &ui::LaunchDialog::launched, this, [this] { m_window->showPanel(QStringLiteral("instances")); });
    dialog->open();
}

void AppServices::connectInstanceCommands()
{
    // Machine → Stop/Start/Restart/Terminate: the Instances view asks (what is lost, what bills) and acts.
    connect(m_window, &ui::MainWindow::instanceActionRequested, this, [this](const QString &hostName, const QString &verb) {
        const std::optional<SavedHost> host = m_core->hosts()->find(hostName);
        if (!host)
            return;
        m_window->showPanel(QStringLiteral("instances"));
        if (m_instances->selectInstance(host->provider, host->instanceId)) {
            m_instances->act(verb);
            return;
        }
        m_instances->refresh();
        m_window->statusBar()->showMessage(tr("%1 is not in the Instances list yet; it is being refreshed. Choose the command again "
                                              "once it shows.").arg(hostName), 10000);
    });
}

void AppServices::installTabs()
{
    const ui::AppContext context = m_window->context();
    auto *files = new ui::FilesTab(context, m_core->transfers(), m_core->syncPairs(), m_core->remoteFiles());
    connect(files, &ui::FilesTab::editRequested, m_window->handoff(), &ui::HandoffActions::edit);
    m_window->addDetailTab(files);
    m_window->addDetailTab(new ui::monitor::MonitorTab(m_core->monitor(), context.configDir, m_core->guards()));
    m_window->addDetailTab(new ui::VerifyTab(context, m_core->checks()));
    m_window->addDetailTab(new ui::JobsTab(context, m_core->jobs(), m_core->tunnels()));
}

namespace {

// Buckets and their copies; Copy to machine… reaches the saved hosts as the transfer queue does,
// and objects dragged onto a machine in the list open it for that machine.
// The Fleet overview's groups: clusters.json, a small file read when machines come or go.
ui::monitor::FleetOverview::ClusterGroups clusterGroups(const QString &configDir)
{
    ui::monitor::FleetOverview::ClusterGroups groups;
    cluster::ClusterStore store(configDir);
    if (store.load()) {
        for (const cluster::Cluster &c : store.clusters()) {
            QStringList nodes;
            for (const cluster::ClusterNode &node : c.nodes)
                nodes << node.hostName;
            groups.append({c.name, nodes});
        }
    }
    return groups;
}

ui::StoragePanel *makeStoragePanel(workspace::AppCore *core, ui::MainWindow *window)
{
    auto *panel = new ui::StoragePanel(core->buckets(), core->copies());
    panel->setMachines(core->hosts(),
                       transfer::TransferQueue::savedHostProvider(core->hosts(), core->secrets(), core->connections()->knownHostsFile()));
    QObject::connect(window->machineModel(), &ui::MachineTableModel::objectsDropped, panel, &ui::StoragePanel::copyDroppedObjects);
    QObject::connect(window->machineModel(), &ui::MachineTableModel::machineFilesDropped, panel,
                     [window, panel](const QString &target, const QString &source, const QStringList &paths) {
                         if (QDialog *asked = panel->copyBetweenMachines(target, source, paths))
                             QObject::connect(asked, &QDialog::accepted, window, [window] { window->showPanel(QStringLiteral("storage")); });
                     });
    panel->addSection(ui::VolumesView::title(), new ui::VolumesView(core->providers(), core->ledger()));
    return panel;
}

} // namespace

QStringList AppServices::panelIds()
{
    // Kept in step with installPanels() by test_shell_sandbox (registeredPanelsAreListed).
    return {QStringLiteral("machines"),  QStringLiteral("prices"),    QStringLiteral("instances"), QStringLiteral("clusters"),
            QStringLiteral("runs"),      QStringLiteral("transfers"), QStringLiteral("storage"),   QStringLiteral("monitor"),
            QStringLiteral("cost")};
}

void AppServices::installPanels()
{
    const ui::AppContext context = m_window->context();
    auto *prices = m_prices = new ui::PricesPanel(m_core->prices());
    m_instances = new ui::InstancesPanel(m_core->workspace());
    m_instances->setTerminateNotes([core = m_core](const providers::Instance &instance) {
        return core->whatTerminateEnds(instance.provider, instance.id);
    });
    auto *fleet = new ui::monitor::FleetOverview(m_core->monitor());
    fleet->setClusterSource([configDir = context.configDir] { return clusterGroups(configDir); });
    followLaunchTimes();
    m_window->addPanel(QStringLiteral("prices"), tr("Prices"), prices);
    // The cached table shows at once; a fresh one is fetched in the background.
    QMetaObject::invokeMethod(prices, &ui::PricesPanel::refresh, Qt::QueuedConnection);
    m_window->addPanel(QStringLiteral("instances"), tr("Instances"), m_instances);
    m_window->addPanel(QStringLiteral("clusters"), tr("Clusters"), new ui::ClustersPanel(m_core->workspace()));
    m_window->addPanel(QStringLiteral("runs"), tr("Runs"), new ui::RunsPanel(m_core));
    auto *transfers = new ui::TransfersPanel(m_core->transfers(), m_core->copies());
    m_window->addPanel(QStringLiteral("transfers"), tr("Transfers"), transfers);
    connect(transfers, &ui::TransfersPanel::showOnMachineRequested, this, [this](const QString &host, const QString &folder) {
        m_window->showPanel(QStringLiteral("machines"));
        m_window->selectHost(host);
        if (auto *files = m_window->findChild<ui::FilesTab *>()) {
            m_window->showDetailTab(files);
            files->showFolder(folder);
        }
        m_window->connectSelected();
    });
    m_window->addPanel(QStringLiteral("storage"), tr("Storage"), makeStoragePanel(m_core, m_window));
    m_window->addPanel(QStringLiteral("monitor"), tr("Fleet monitor"), fleet);
    auto *costPanel = m_costPanel = new ui::CostPanel(m_core->ledger());
    costPanel->setMonitor(m_core->monitor());
    m_window->addPanel(QStringLiteral("cost"), tr("Cost"), costPanel);
    connect(costPanel, &ui::CostPanel::budgetAlert, this, [this](const QString &text) { notify(tr("Budget"), text); });
    m_instances->setTerminateGuard([this](const providers::Instance &instance) { return m_results->allowTerminate(instance); });

    connect(prices, &ui::PricesPanel::launchRequested, this, &AppServices::openLaunchDialog);
    prices->setLauncher(m_core->workspace()->capacityLauncher({}));
    connect(m_instances, &ui::InstancesPanel::hostReady, this, &AppServices::onHostReady);
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
    m_policies = m_core->startPolicies();
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
    // The window's banner says it (ShellWiring); the desktop hears it where it shows notifications,
    // never the status bar as a third copy.
    connect(m_policies, &workspace::PolicyRunner::budgetReached, this, [this](const QString &, int, double, double, const QString &text) {
        if (m_tray && QSystemTrayIcon::supportsMessages())
            m_tray->showMessage(tr("Budget"), text);
    });
    m_policies->budgets()->setInterval(60000);
    if (!m_policies->ownsPolicy())
        QMetaObject::invokeMethod(this, [this] {
            m_window->statusBar()->showMessage(tr("The idle policy is run by %1; this window leaves the action to it.").arg(m_core->policyLock()->holder()), 30000);
        }, Qt::QueuedConnection);
}

// Fleet says how long each instance has been up (what bills) from the provider's own launch
// time, read from the instance list the Instances panel keeps (in memory: nothing is asked).
void AppServices::followLaunchTimes()
{
    auto launchTimes = [core = m_core, window = m_window, model = m_instances->model()] {
        for (const providers::Instance &instance : model->instances()) {
            if (!instance.createdAt.isValid())
                continue;
            for (const SavedHost &host : window->hosts()->hosts()) {
                if (host.provider == instance.provider && host.instanceId == instance.id)
                    core->monitor()->setLaunchedAt(host.name, instance.createdAt.toUTC());
            }
        }
    };
    connect(m_instances->model(), &QAbstractItemModel::rowsInserted, this, launchTimes);
    connect(m_instances->model(), &QAbstractItemModel::dataChanged, this, launchTimes);
    connect(m_instances->model(), &QAbstractItemModel::modelReset, this, launchTimes);
}

void AppServices::notify(const QString &title, const QString &text)
{
    if (m_tray && QSystemTrayIcon::supportsMessages())
        m_tray->showMessage(title, text);
    m_window->statusBar()->showMessage(title + QStringLiteral(": ") + text.section(QLatin1Char('\n'), 0, 0), 20000);
}

} // namespace gantry::app
