#include "ui/shell/mainwindow.h"

#include "ui/shell/addhostdialog.h"
#include "ui/shell/billingprompts.h"
#include "ui/shell/keysdialog.h"
#include "ui/shell/languagemenu.h"
#include "ui/shell/machinetablemodel.h"
#include "ui/shell/overviewtab.h"
#include "ui/shell/welcomepage.h"

#include "ui/common/filedialogs.h"
#include "ui/common/selectionkeeper.h"
#include "ui/common/confirm.h"
#include "ui/common/tablelayout.h"
#include "ui/common/themecolors.h"

#include "core/cost/ledger.h"
#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"
#include "core/util/background.h"
#include "core/util/appsettings.h"
#include "core/util/paths.h"
#include "core/util/secretstore.h"
#include "core/workspace/appcore.h"
#include "core/workspace/workspace.h"

#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDir>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPointer>
#include <QSettings>
#include <QHBoxLayout>
#include <QScrollArea>
#include <QSplitter>
#include <QTabBar>

#include <algorithm>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
#include <QToolBar>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace gantry::ui {

MainWindow::MainWindow(workspace::AppCore *core, QWidget *parent)
    : QMainWindow(parent)
    , m_core(core)
    , m_configDir(core->configDir())
    , m_secrets(core->secrets())
    , m_hosts(core->hosts())
    , m_connections(core->connections())
{
    setWindowTitle(tr("Gantry — cloud GPUs"));
    FileDialogs::setConfigDir(m_configDir);
    // Saved hosts that cannot be read are worth a dialog (adding one now would replace the file);
    // the other stores say so in the status bar.
    connect(core, &workspace::AppCore::problem, this, [this](workspace::AppCore::Store store, const QString &message) {
        if (store == workspace::AppCore::Store::Hosts)
            QMessageBox::warning(this, tr("Saved hosts"), message);
        else
            statusBar()->showMessage(message, 30000);
    });
    const QPointer<MainWindow> self(this);
    m_connections->setPrompts(
        [self](const ssh::HostKeyInfo &info, const std::atomic_bool *closing) { return askHostKey(self, info, closing); },
        [self](const QString &prompt, const std::atomic_bool *closing) { return askSecret(self, prompt, closing); },
        [self](const QString &file, const std::atomic_bool *closing) {
            return askSecret(self, tr("Passphrase for %1:").arg(file), closing);
        });
    connect(m_connections, &ConnectionManager::stateChanged, this, &MainWindow::onStateChanged);

    m_model = new MachineTableModel(m_hosts, this);
    m_proxy = new MachineFilterProxy(this);
    m_proxy->setSourceModel(m_model);

    // The section list keeps the width of its titles (see addSection); the panels take the rest.
    auto *central = new QWidget(this);
    auto *centralLayout = new QHBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    m_sections = new QListWidget(central);
    addSection(QStringLiteral("machines"), tr("Machines"));
    m_stack = new QStackedWidget(central);
    centralLayout->addWidget(m_sections);
    auto *right = new QVBoxLayout;
    right->setContentsMargins(0, 0, 0, 0);
    right->addWidget(buildBanner(central));
    right->addWidget(m_stack, 1);
    centralLayout->addLayout(right, 1);

    m_machinesStack = new QStackedWidget(m_stack);
    m_welcome = new WelcomePage(m_machinesStack);
    m_machinesStack->addWidget(m_welcome);
    m_machinesStack->addWidget(buildMachinesPage(m_machinesStack));
    m_stack->addWidget(m_machinesStack);
    setCentralWidget(central);

    m_stateLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_stateLabel);
    buildMenus();
    addPanelAction(QStringLiteral("machines"), tr("Machines"));
    buildActions();
    connectWelcome();

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &MachineFilterProxy::setText);
    connect(m_sections, &QListWidget::currentRowChanged, m_stack, &QStackedWidget::setCurrentIndex);
    // The selection follows the machine, not the row: a refresh (a cluster's hosts saved, a filter)
    // keeps it, a removal leaves nothing selected.
    connect(m_keeper, &SelectionKeeper::currentIdChanged, this, &MainWindow::updateDetails);
    connect(m_view, &QTableView::doubleClicked, this, &MainWindow::connectSelected);
    connect(m_model, &QAbstractItemModel::modelReset, this, &MainWindow::updateDetails);
    connect(m_hosts, &HostStore::changed, this, &MainWindow::updateWelcome);
    // ShortcutOverride goes to the focused field, never through the window: heard app-wide.
    qApp->installEventFilter(this);
    m_sections->setCurrentRow(0);
    if (m_proxy->rowCount() > 0)
        m_view->selectRow(0);
    updateWelcome();
    restoreWindowState();
}

// The filter, the machines table and the detail tabs under it.
QWidget *MainWindow::buildMachinesPage(QWidget *parent)
{
    auto *machinesPage = new QWidget(parent);
    auto *pageLayout = new QVBoxLayout(machinesPage);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    m_filter = new QLineEdit(machinesPage);
    m_filter->setObjectName(QStringLiteral("machineFilter"));
    m_filter->setPlaceholderText(tr("Filter machines by name, address or provider"));
    m_filter->setClearButtonEnabled(true);
    pageLayout->addWidget(m_filter);
    auto *vertical = new QSplitter(Qt::Vertical, machinesPage);
    vertical->setObjectName(QStringLiteral("machinesSplitter"));
    m_splitter = vertical;
    m_view = new QTableView(vertical);
    m_keeper = SelectionKeeper::setModel(m_view, m_proxy, SelectionKeeper::roleId(MachineTableModel::HostNameRole));
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(MachineTableModel::NameColumn, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    TableLayout::fitToWidth(m_view, MachineTableModel::AddressColumn);
    TableLayout::persist(m_view->horizontalHeader(), m_configDir, QStringLiteral("machines"));
    m_view->verticalHeader()->hide();
    m_view->setAcceptDrops(true);
    m_view->setDragDropMode(QAbstractItemView::DropOnly);
    m_view->setDropIndicatorShown(true);
    // The tabs scroll when the open one needs more height than the split leaves it (Verify at
    // 700 px), rather than taking it from the list: with every tab's minimum the list had two rows.
    auto *tabsArea = new QScrollArea(vertical);
    tabsArea->setObjectName(QStringLiteral("detailTabsArea"));
    tabsArea->setFrameShape(QFrame::NoFrame);
    tabsArea->setWidgetResizable(true);
    m_tabs = new QTabWidget(tabsArea);
    m_tabs->setObjectName(QStringLiteral("machineTabs")); // panels may hold tab widgets of their own (Storage)
    tabsArea->setWidget(m_tabs);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        const QWidget *page = m_tabs->currentWidget();
        m_tabs->setMinimumHeight(page ? page->minimumSizeHint().height() + m_tabs->tabBar()->sizeHint().height() + 8 : 0);
    });
    m_overview = new OverviewTab(m_tabs);
    addDetailTab(m_overview);
    // About half for the list (a dozen machines at 1024×700), half for the tabs.
    vertical->setStretchFactor(0, 1);
    vertical->setStretchFactor(1, 1);
    vertical->setSizes({480, 520});
    pageLayout->addWidget(vertical, 1);
    return machinesPage;
}

MainWindow::~MainWindow() = default;

AppContext MainWindow::context() const
{
    return AppContext{m_configDir, m_hosts, m_connections};
}

void MainWindow::buildActions()
{
    // The toolbar repeats the menu bar's most used commands (the same QActions, one shortcut each).
    QToolBar *bar = addToolBar(tr("Machines"));
    bar->setObjectName(QStringLiteral("machinesToolbar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    for (const QString &id : {QStringLiteral("addHost"), QStringLiteral("importSshConfig"), QString(), QStringLiteral("connect"),
                              QStringLiteral("disconnect"), QStringLiteral("remove"), QString(), QStringLiteral("launch"),
                              QString(), QStringLiteral("sshKeys"), QStringLiteral("settings")}) {
        if (id.isEmpty())
            bar->addSeparator();
        else
            bar->addAction(action(id));
    }
}

QWidget *MainWindow::buildBanner(QWidget *parent)
{
    m_banner = new QWidget(parent);
    m_banner->setObjectName(QStringLiteral("banner"));
    auto *layout = new QHBoxLayout(m_banner);
    m_bannerText = new QLabel(m_banner);
    m_bannerText->setWordWrap(true);
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *close = new QToolButton(m_banner);
    close->setText(tr("Dismiss"));
    close->setAutoRaise(true);
    layout->addWidget(m_bannerText, 1);
    layout->addWidget(close);
    connect(close, &QToolButton::clicked, m_banner, &QWidget::hide);
    m_banner->hide();
    return m_banner;
}

void MainWindow::showBanner(const QString &text, const QString &level)
{
    setToneBackground(m_banner, level == QLatin1String("error") ? Tone::Error : Tone::Warning);
    // The newest alert first; a few older ones stay below it until dismissed.
    QStringList lines = !m_banner->isHidden() ? m_bannerText->text().split(QLatin1Char('\n')) : QStringList();
    lines.removeAll(text);
    lines.prepend(text);
    m_bannerText->setText(lines.mid(0, 3).join(QLatin1Char('\n')));
    m_banner->show();
}

QString MainWindow::bannerText() const
{
    return m_banner->isHidden() ? QString() : m_bannerText->text();
}

void MainWindow::connectWelcome()
{
    connect(m_welcome, &WelcomePage::trySandbox, this, &MainWindow::sandboxRequested);
    connect(m_welcome, &WelcomePage::addSshHost, this, [this](const QString &command) { addHostInteractive(command); });
    connect(m_welcome, &WelcomePage::importSshConfig, this, &MainWindow::importSshConfig);
    connect(m_welcome, &WelcomePage::connectCloud, this, [this] { emit settingsRequested(QStringLiteral("accounts")); });
}

void MainWindow::updateWelcome()
{
    const bool empty = m_hosts->hosts().isEmpty();
    m_machinesStack->setCurrentIndex(empty ? 0 : 1);
    if (!empty) {
        // Ready for the next time the table empties.
        m_welcome->setStatus(QString());
        m_welcome->sandboxButton()->setEnabled(true);
    }
}

void MainWindow::addDetailTab(DetailTab *tab)
{
    m_detailTabs << tab;
    m_tabs->addTab(tab, tab->title());
    adoptTabShortcuts(tab);
}

void MainWindow::showDetailTab(DetailTab *tab)
{
    m_tabs->setCurrentWidget(tab);
}

void MainWindow::addSection(const QString &id, const QString &title)
{
    auto *item = new QListWidgetItem(title, m_sections);
    item->setData(Qt::UserRole, id);
    // As wide as the longest title in the current language: a fixed width left a blank strip beside
    // short (Chinese) titles and cost the panels room at 1024×700.
    const int width = m_sections->sizeHintForColumn(0) + 2 * m_sections->frameWidth() + 2 * fontMetrics().averageCharWidth();
    m_sections->setFixedWidth(std::max(width, 8 * fontMetrics().averageCharWidth()));
}

void MainWindow::addPanel(const QString &id, const QString &title, QWidget *panel)
{
    addSection(id, title);
    panel->setObjectName(id + QStringLiteral("Panel"));
    m_stack->addWidget(panel);
    addPanelAction(id, title);
}

void MainWindow::showPanel(const QString &id)
{
    for (int i = 0; i < m_sections->count(); ++i) {
        if (m_sections->item(i)->data(Qt::UserRole).toString().compare(id, Qt::CaseInsensitive) == 0)
            m_sections->setCurrentRow(i);
    }
}

void MainWindow::addCloseGuard(std::function<QString()> guard)
{
    m_closeGuards << std::move(guard);
}

QString MainWindow::selectedHost() const
{
    return m_keeper->currentId(); // also while the filter hides it: typing a filter does not drop it
}

void MainWindow::selectHost(const QString &hostName)
{
    if (m_model->rowOf(hostName) >= 0)
        m_keeper->select(hostName);
}

void MainWindow::updateDetails()
{
    const QString name = selectedHost();
    const std::optional<SavedHost> host = name.isEmpty() ? std::nullopt : m_hosts->find(name);
    for (DetailTab *tab : std::as_const(m_detailTabs)) {
        if (host)
            tab->setMachine(*host, m_connections->connection(name));
        else
            tab->clearMachine();
    }
    m_stateLabel->setText(host ? QStringLiteral("%1: %2").arg(name, ssh::connectionStateName(m_model->state(name))) : QString());
    emit selectedHostChanged(name);
}

void MainWindow::connectSelected()
{
    const QString name = selectedHost();
    if (name.isEmpty()) {
        statusBar()->showMessage(tr("Select a machine first."), 5000);
        return;
    }
    m_connections->connectHost(name);
    updateDetails();
}

void MainWindow::disconnectSelected()
{
    const QString name = selectedHost();
    if (!name.isEmpty())
        m_connections->disconnectHost(name);
}

void MainWindow::onStateChanged(const QString &hostName, ssh::ConnectionState state, const QString &message)
{
    m_model->setState(hostName, state, message);
    if (!message.isEmpty())
        statusBar()->showMessage(QStringLiteral("%1: %2").arg(hostName, message), 15000);
    if (hostName == selectedHost())
        updateDetails();
}

void MainWindow::addHostInteractive(const QString &loginCommand)
{
    AddHostDialog dialog(this);
    if (!loginCommand.isEmpty())
        dialog.applySshCommand(loginCommand);
    dialog.setDefaultKeyFile(appsettings::value(m_configDir, QStringLiteral("ssh.default_key")));
    if (dialog.exec() != QDialog::Accepted)
        return;
    const SavedHost host = dialog.host();
    if (auto added = m_core->workspace()->addHost(host); !added) {
        QMessageBox::warning(this, tr("Add host"), added.error().message);
        return;
    }
    if (!dialog.password().isEmpty() && m_secrets) {
        // The keychain answers on a worker: its D-Bus round trip never holds the window.
        background::run<Result<void>>(this, [secrets = m_secrets, key = hostSecretKey(host.name, QStringLiteral("password")),
                                             password = dialog.password()] { return secrets->write(key, password); },
                                      [this](const Result<void> &stored) {
                                          if (!stored)
                                              QMessageBox::warning(this, tr("Keychain"),
                                                                   tr("The host was saved, but its password was not: %1").arg(stored.error().message));
                                      });
    }
    selectHost(host.name);
}

void MainWindow::importSshConfig()
{
    const QString file = paths::userSshDir() + QStringLiteral("/config");
    QStringList warnings;
    int found = 0;
    const Result<int> added = m_core->workspace()->importSshConfig(file, &warnings, &found);
    if (!added)
        QMessageBox::warning(this, tr("Import"), added.error().message);
    else if (!warnings.isEmpty())
        QMessageBox::warning(this, tr("Import"), tr("%n host(s) in %1, %2 new.", nullptr, found).arg(file).arg(*added)
                                                     + QStringLiteral("\n\n") + warnings.join(u'\n'));
    else
        statusBar()->showMessage(tr("%n host(s) in %1, %2 new.", nullptr, found).arg(file).arg(*added), 10000);
}

void MainWindow::removeSelected()
{
    const QString name = selectedHost();
    const std::optional<SavedHost> host = m_hosts->find(name);
    if (!host)
        return;
    // A machine that bills says so, and offers what stops the bill; forgetting it stops nothing.
    const QString billing = hostBillingText(*host, m_core->ledger());
    if (billing.isEmpty()) {
        if (!askDestructive(this, tr("Remove host"), tr("Remove %1 from Gantry? The machine itself is not touched.").arg(name)))
            return;
    } else {
        const QStringList notes = host->provider.isEmpty() ? QStringList() : m_core->whatTerminateEnds(host->provider, host->instanceId);
        const RemoveAnswer answer = askRemoveBilledHost(this, *host, billing, notes);
        if (answer == RemoveAnswer::Terminate)
            return terminateInstanceOf(*host);
        if (answer != RemoveAnswer::Remove)
            return;
    }
    m_connections->forget(name);
    // The host goes at once; its password and passphrase leave the keychain on a worker.
    if (auto removed = m_core->workspace()->removeHost(name, nullptr); !removed) {
        QMessageBox::warning(this, tr("Remove host"), removed.error().message);
        return;
    }
    if (m_secrets)
        background::run(this, [secrets = m_secrets, name](const CancelToken &) { forgetHostSecrets(*secrets, name); });
}

// Through the workspace, as the Instances view terminates: results home first, the ledger row
// closed, the saved host forgotten once the instance is gone.
void MainWindow::terminateInstanceOf(const SavedHost &host)
{
    statusBar()->showMessage(tr("Terminating %1…").arg(host.name));
    QPointer<MainWindow> self(this);
    m_core->workspace()->terminate(host.provider, host.instanceId, workspace::ActionOptions{},
                                   [self](Result<workspace::ActionOutcome> outcome) {
                                       if (!self)
                                           return;
                                       const QString text = outcome ? outcome->message : outcome.error().message;
                                       self->statusBar()->showMessage(text, 15000);
                                       if (!outcome)
                                           QMessageBox::warning(self, tr("Terminate"), text);
                                   });
}

namespace {

// The answer a worker thread waits for while the GUI thread asks the user: posted to the
// application (the window may be gone by then: no question), never a blocking call into the GUI
// thread, so the worker also sees its connection closing and gives up instead of waiting.
template<typename T>
std::optional<T> askOnGuiThread(const QPointer<MainWindow> &window, std::function<T(MainWindow &)> ask,
                                const std::atomic_bool *closing)
{
    struct Pending
    {
        std::mutex mutex;
        std::condition_variable answered;
        bool done = false;
        std::optional<T> answer;
    };
    auto pending = std::make_shared<Pending>();
    QMetaObject::invokeMethod(QCoreApplication::instance(), [pending, window, ask = std::move(ask), closing] {
        std::optional<T> answer;
        if (window && (!closing || !closing->load())) // gone before the question could be shown: do not ask
            answer = ask(*window);
        std::lock_guard lock(pending->mutex);
        pending->answer = std::move(answer);
        pending->done = true;
        pending->answered.notify_all();
    }, Qt::QueuedConnection);
    std::unique_lock lock(pending->mutex);
    while (!pending->done) {
        if (closing && closing->load())
            return std::nullopt;
        pending->answered.wait_for(lock, std::chrono::milliseconds(50));
    }
    return pending->answer;
}

} // namespace

bool MainWindow::askHostKey(const QPointer<MainWindow> &window, const ssh::HostKeyInfo &info, const std::atomic_bool *closing)
{
    auto ask = [info](MainWindow &on) -> bool {
        if (on.confirmHostKey)
            return on.confirmHostKey(info);
        QMessageBox box(QMessageBox::Question, tr("New host key"),
                        tr("This is the first connection to %1:%2.\n\nIts %3 host key fingerprint is\n%4\n\n"
                           "Compare it with the fingerprint your provider shows (console or boot log). Trust it and "
                           "connect? It will be recorded in %5.")
                            .arg(info.host).arg(info.port).arg(info.keyType, info.fingerprint, info.knownHostsFile),
                        QMessageBox::Yes | QMessageBox::No, &on);
        box.setDefaultButton(QMessageBox::No);
        return box.exec() == QMessageBox::Yes;
    };
    if (QThread::currentThread() == QCoreApplication::instance()->thread())
        return window && ask(*window);
    return askOnGuiThread<bool>(window, ask, closing).value_or(false);
}

std::optional<QString> MainWindow::askSecret(const QPointer<MainWindow> &window, const QString &prompt,
                                             const std::atomic_bool *closing)
{
    auto ask = [prompt](MainWindow &on) -> std::optional<QString> {
        bool ok = false;
        const QString text = QInputDialog::getText(&on, tr("Login"), prompt, QLineEdit::Password, QString(), &ok);
        return ok ? std::optional<QString>(text) : std::nullopt;
    };
    if (QThread::currentThread() == QCoreApplication::instance()->thread())
        return window ? ask(*window) : std::nullopt;
    return askOnGuiThread<std::optional<QString>>(window, ask, closing).value_or(std::nullopt);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QStringList pending;
    for (const auto &guard : std::as_const(m_closeGuards)) {
        const QString text = guard();
        if (!text.isEmpty())
            pending << text;
    }
    // Instances bill on after Gantry quits: said once per quit, until the user opts out.
    QSettings settings(QDir(m_configDir).filePath(QStringLiteral("window.ini")), QSettings::IniFormat);
    BillingNow billing;
    if (settings.value(QStringLiteral("quit/askWhileBilling"), true).toBool() && m_core->ledger()) {
        if (const Result<QList<cost::LedgerEntry>> entries = m_core->ledger()->entries())
            billing = billingNow(*entries);
    }
    if (!pending.isEmpty() || billing.instances > 0) {
        bool dontAskAgain = false;
        const bool quit = askQuit(this, pending, billing, &dontAskAgain);
        if (dontAskAgain)
            settings.setValue(QStringLiteral("quit/askWhileBilling"), false);
        if (!quit) {
            event->ignore();
            return;
        }
    }
    saveWindowState();
    event->accept();
}

} // namespace gantry::ui
