#include "app/gui/shellwiring.h"

#include "app/gui/appservices.h"

#include "ui/common/tablelayout.h"
#include "ui/common/themecolors.h"
#include "core/cost/billing.h"
#include "ui/cost/costpanel.h"
#include "core/cost/ledger.h"
#include "core/monitor/alerts.h"
#include "core/monitor/monitorservice.h"
#include "ui/providers/instancespanel.h"
#include "ui/providers/launchdialog.h"
#include "ui/providers/pricespanel.h"
#include "ui/providers/pricetablemodel.h"
#include "core/providers/providerhub.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settingsdialog.h"
#include "ui/shell/trayicon.h"
#include "ui/shell/welcomepage.h"
#include "ui/transfer/transferqueuemodel.h"
#include "ui/transfer/transferspanel.h"
#include "core/util/appsettings.h"
#include "core/workspace/appcore.h"
#include "core/workspace/policyrunner.h"
#include "core/workspace/workspace.h"

#include <QAbstractItemView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QTableView>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace gantry::app {

ShellWiring::ShellWiring(ui::MainWindow *window, AppServices *services, SecretStore *secrets)
    : QObject(window)
    , m_window(window)
    , m_services(services)
    , m_secrets(secrets)
    , m_hub(services->providers())
    , m_ledger(services->ledger())
    , m_policies(services->policies())
    , m_prices(services->prices())
    , m_instances(services->instances())
    , m_cost(services->costPanel())
    , m_tray(services->tray())
{
    connect(window, &ui::MainWindow::settingsRequested, this, &ShellWiring::openSettings);
    connect(window, &ui::MainWindow::launchRequested, this, &ShellWiring::openLaunch);
    connect(window, &ui::MainWindow::sandboxRequested, this, &ShellWiring::launchSandbox);
    installPricesHint();
    installBudgetAlerts();
    installTrayMeter();
    fitTables();
    applyIdleDefaults();
}

void ShellWiring::openSettings(const QString &page)
{
    auto *dialog = new ui::SettingsDialog(m_window->context().configDir, m_secrets, m_ledger, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->showPage(page);
    // The keys are read again on a worker; Prices refreshes when the rebuilt hub announces itself.
    connect(dialog, &ui::SettingsDialog::accountsChanged, m_services->core(), &workspace::AppCore::reloadProviders);
    connect(dialog, &ui::SettingsDialog::settingsSaved, this, &ShellWiring::applyIdleDefaults);
    dialog->open();
}

QPair<QString, QString> ShellWiring::cheapestAvailable() const
{
    if (!m_prices)
        return {};
    const providers::InstanceType *best = nullptr;
    for (const providers::InstanceType &type : m_prices->model()->types()) {
        if (type.availableNow() && (!best || type.pricePerHour < best->pricePerHour))
            best = &type;
    }
    return best ? qMakePair(best->provider, best->name) : QPair<QString, QString>();
}

void ShellWiring::openLaunch()
{
    QPair<QString, QString> wanted = cheapestAvailable();
    // The row the user picked in Prices wins over the cheapest.
    if (m_prices && m_prices->view()->currentIndex().isValid()) {
        const QModelIndex current = m_prices->view()->currentIndex();
        wanted = {current.data(ui::PriceTableModel::ProviderIdRole).toString(), current.data(ui::PriceTableModel::TypeNameRole).toString()};
    }
    m_services->openLaunchDialog(wanted.first, wanted.second);
}

void ShellWiring::sandboxFailed(const QString &message)
{
    m_window->welcomePage()->setStatus(message);
    m_window->welcomePage()->sandboxButton()->setEnabled(true);
    m_window->statusBar()->showMessage(message, 15000);
}

void ShellWiring::launchSandbox()
{
    providers::Provider *sandbox = m_hub->provider(QStringLiteral("sandbox"));
    if (!sandbox)
        return sandboxFailed(tr("The local sandbox is not available in this build."));
    m_window->welcomePage()->sandboxButton()->setEnabled(false);
    m_window->welcomePage()->setStatus(tr("Starting the local sandbox…"));
    QPointer<ShellWiring> self(this);
    sandbox->listInstanceTypes([self, sandbox](Result<QList<providers::InstanceType>> types) {
        if (!self)
            return;
        if (!types || types->isEmpty())
            return self->sandboxFailed(types ? tr("The local sandbox offers no instance type.") : types.error().message);
        // A GPU type when the sandbox has one (a simulated GPU shows what Monitor and Verify do).
        // The sandbox authorises the Gantry key itself (its "gantry" key), so nothing is uploaded.
        providers::LaunchRequest request;
        request.region = QStringLiteral("local");
        request.typeName = types->first().name;
        double price = types->first().pricePerHour;
        for (const providers::InstanceType &type : std::as_const(*types)) {
            if (type.gpuCount > 0 && type.availableNow() && types->first().gpuCount == 0) {
                request.typeName = type.name;
                price = type.pricePerHour;
                break;
            }
        }
        workspace::LaunchOptions options;
        options.pricePerHour = price;
        self->m_services->workspace()->launch(QStringLiteral("sandbox"), request, options,
                                              [self](Result<workspace::LaunchedInstance> launched) {
            if (!self)
                return;
            if (!launched)
                return self->sandboxFailed(launched.error().message);
            self->m_window->welcomePage()->setStatus(tr("The sandbox is booting; it opens here when it is up."));
        });
    });
}

void ShellWiring::applyIdleDefaults()
{
    const QString dir = m_window->context().configDir;
    const bool anySet = appsettings::isSet(dir, QStringLiteral("idle.action")) || appsettings::isSet(dir, QStringLiteral("idle.minutes"))
                        || appsettings::isSet(dir, QStringLiteral("idle.countdown_seconds"));
    // Nothing stored: leave each machine's policy alone, unless Settings had changed it in this
    // session (then its reset to the defaults applies now, not at the next start).
    if (!m_policies || (!anySet && !m_idleApplied))
        return;
    m_idleApplied = true;
    const QString action = appsettings::value(dir, QStringLiteral("idle.action"));
    const monitor::IdleAction idle = action == QLatin1String("terminate") ? monitor::IdleAction::Terminate
                                     : action == QLatin1String("stop")    ? monitor::IdleAction::Stop
                                                                          : monitor::IdleAction::Notify;
    m_policies->setIdleOverride(idle, appsettings::value(dir, QStringLiteral("idle.minutes")).toInt(),
                                appsettings::value(dir, QStringLiteral("idle.countdown_seconds")).toInt());
}

void ShellWiring::installPricesHint()
{
    if (!m_prices)
        return;
    auto *layout = qobject_cast<QVBoxLayout *>(m_prices->layout());
    if (!layout)
        return;
    auto *hint = new QWidget(m_prices);
    hint->setObjectName(QStringLiteral("accountsHint"));
    auto *row = new QHBoxLayout(hint);
    auto *text = new QLabel(tr("Only the local sandbox is listed: add a Lambda or RunPod key to see their prices."), hint);
    text->setWordWrap(true);
    auto *button = new QPushButton(tr("Add an account…"), hint);
    row->addWidget(text, 1);
    row->addWidget(button);
    ui::setToneBackground(hint, ui::Tone::Warning);
    layout->insertWidget(0, hint);
    // The panel's own Launch… asks only for a selected row; with none it used to do nothing, so
    // here it opens the dialog on the cheapest type that can launch now.
    if (auto *launch = m_prices->findChild<QPushButton *>(QStringLiteral("launch")))
        connect(launch, &QPushButton::clicked, this, [this] {
            if (!m_prices->view()->currentIndex().isValid())
                openLaunch();
        });
    connect(button, &QPushButton::clicked, this, [this] { openSettings(QStringLiteral("accounts")); });
    auto update = [this, hint] {
        const QStringList ids = m_hub->ids(); // only the local sandbox: no cloud account yet
        hint->setVisible(ids.size() == 1 && m_hub->provider(ids.first())->info().capabilities.testFlag(providers::Capability::Local));
    };
    connect(m_hub, &providers::ProviderHub::providersChanged, hint, update);
    update();
}

void ShellWiring::installBudgetAlerts()
{
    // Budget crossings always show in the window (a coloured banner); desktop notifications, where
    // the desktop has a tray, come from AppServices::notify. Other alerts use the banner only where
    // no notification would be seen (offscreen, Xvfb, desktops without a tray).
    const bool noTray = !m_tray || !QSystemTrayIcon::supportsMessages();
    // One banner per crossing: the policy runner's (the Cost panel hears the same crossing and
    // keeps it in its own view; the banner, the status bar and the Cost view said it three times).
    if (m_cost && !m_policies)
        connect(m_cost, &ui::CostPanel::budgetAlert, this, [this](const QString &text) { m_window->showBanner(text, QStringLiteral("error")); });
    if (m_policies)
        connect(m_policies, &workspace::PolicyRunner::budgetReached, this,
                [this](const QString &, int, double, double, const QString &text) { m_window->showBanner(text, QStringLiteral("error")); });
    if (noTray && m_policies)
        connect(m_policies, &workspace::PolicyRunner::idleNotice, this,
                [this](const QString &host, const QString &message) { m_window->showBanner(QStringLiteral("%1: %2").arg(host, message)); });
    // "Notify me" in Prices: a match is worth as much attention as a budget crossing (it may be
    // gone in minutes), so a notification where the desktop shows one, else the window's banner.
    if (m_prices)
        connect(m_prices, &ui::PricesPanel::capacityAvailable, this, [this, noTray](const QString &text) {
            m_services->notify(tr("Capacity available"), text);
            if (noTray)
                m_window->showBanner(text);
        });
    if (noTray)
        connect(m_services->monitor(), &monitor::MonitorService::alertRaised, this, [this](const monitor::Alert &alert) {
            m_window->showBanner(QStringLiteral("%1: %2").arg(alert.host, alert.message),
                                 alert.severity == monitor::AlertSeverity::Critical ? QStringLiteral("error") : QStringLiteral("warning"));
        });
}

void ShellWiring::installTrayMeter()
{
    if (!m_tray || !m_ledger)
        return;
    auto *timer = new QTimer(this);
    auto update = [this] {
        const double perHour = m_ledger->totalPerHourNow().valueOr(0);
        const QString amount = cost::formatUsd(perHour);
        m_tray->setToolTip(tr("Gantry: %1/h running now").arg(amount));
        m_tray->setRunningRate(perHour > 0 ? amount : QString());
    };
    connect(timer, &QTimer::timeout, this, update);
    connect(m_ledger, &cost::Ledger::changed, this, update);
    timer->start(5000);
    update();
}

void ShellWiring::fitTables()
{
    // 1024×700 first: content-sized columns with one stretching column, never a fixed width that
    // elides a type name or an SSH address, and the widths the user drags kept in window.ini.
    const QString dir = m_window->context().configDir;
    auto fit = [dir](QAbstractItemView *view, int stretch, const QString &key) {
        if (!view)
            return;
        ui::TableLayout::fitToWidth(view, stretch);
        ui::TableLayout::persist(ui::TableLayout::headerOf(view), dir, key);
    };
    if (m_prices) {
        // TableLayout owns these columns: the panel's own refit on every reset would undo widths
        // the user dragged.
        QObject::disconnect(m_prices->model(), &QAbstractItemModel::modelReset, m_prices->view(), &QTableView::resizeColumnsToContents);
        fit(m_prices->view(), ui::PriceTableModel::RegionsColumn, QStringLiteral("prices"));
        // The filter row squeezed the GPU field to "GPU model, e…" at 1024 px: it keeps its hint.
        if (auto *gpu = m_prices->findChild<QLineEdit *>(QStringLiteral("gpuFilter")))
            gpu->setMinimumWidth(gpu->fontMetrics().horizontalAdvance(gpu->placeholderText()) + 2 * gpu->fontMetrics().averageCharWidth());
    }
    if (m_instances)
        fit(m_instances->findChild<QTableView *>(), -1, QStringLiteral("instances"));
    if (m_cost) // CostPanel lays out its own columns; only their widths are kept here
        ui::TableLayout::persist(m_cost->findChild<QTableView *>()->horizontalHeader(), dir, QStringLiteral("cost"));
    if (auto *transfers = m_window->findChild<ui::TransfersPanel *>())
        // The destination path takes the rest (it elides in the middle, whole in its tooltip);
        // the status after it keeps its width.
        fit(transfers->view(), ui::TransferQueueModel::DestinationColumn, QStringLiteral("transfers"));
}

} // namespace gantry::app
