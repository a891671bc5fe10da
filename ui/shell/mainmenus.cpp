// MainWindow's menu bar, shortcuts, window state and diagnostic report (mainwindow.cpp holds the
// views and the machine commands).
#include "ui/shell/mainwindow.h"

#include "ui/shell/handoffactions.h"
#include "ui/shell/helpwindow.h"
#include "ui/shell/keysdialog.h"

#include "ui/common/filedialogs.h"
#include "ui/shell/languagemenu.h"
#include "ui/shell/welcomepage.h"

#include "core/diagnostics/diagnosticreport.h"
#include "core/util/background.h"
#include "core/util/paths.h"
#include "core/util/uilanguage.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QScreen>
#include <QToolButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QUrl>

#include <algorithm>

namespace gantry::ui {
namespace {

// Panels and tabs offer refresh()/reload()/uploadFiles() as slots; found by name, so a panel
// needs no common base class to take part.
bool hasSlot(const QObject *target, const char *slot)
{
    const QByteArray signature = QByteArray(slot) + QByteArrayLiteral("()");
    return target && target->metaObject()->indexOfMethod(signature.constData()) >= 0;
}

} // namespace

QAction *MainWindow::addCommand(const QString &id, const QString &text, const QList<QKeySequence> &keys)
{
    auto *command = new QAction(text, this);
    command->setObjectName(id);
    command->setShortcuts(keys);
    addAction(command); // shortcuts work while the menu bar is hidden (some desktops) too
    m_actions.insert(id, command);
    return command;
}

QAction *MainWindow::action(const QString &id) const
{
    return m_actions.value(id);
}

QList<QAction *> MainWindow::allActions() const
{
    return m_actions.values();
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(addCommand(QStringLiteral("addHost"), tr("Add SSH host…"), {QKeySequence::New}));
    file->addAction(addCommand(QStringLiteral("importSshConfig"), tr("Import ~/.ssh/config"), {}));
    file->addSeparator();
    file->addAction(addCommand(QStringLiteral("uploadFiles"), tr("Upload files…"), {QKeySequence(Qt::CTRL | Qt::Key_U)}));
    file->addAction(addCommand(QStringLiteral("uploadFolder"), tr("Upload folder…"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U)}));
    file->addSeparator();
    file->addAction(addCommand(QStringLiteral("quit"), tr("Quit"), {QKeySequence(Qt::CTRL | Qt::Key_Q)}));

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(addCommand(QStringLiteral("focusFilter"), tr("Filter…"), {QKeySequence(Qt::CTRL | Qt::Key_L), QKeySequence::Find}));
    edit->addAction(addCommand(QStringLiteral("remove"), tr("Remove"), {QKeySequence::Delete}));
    edit->addSeparator();
    QAction *settings = addCommand(QStringLiteral("settings"), tr("Settings…"), {QKeySequence(Qt::CTRL | Qt::Key_Comma)});
    settings->setMenuRole(QAction::PreferencesRole);
    edit->addAction(settings);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->addAction(addCommand(QStringLiteral("refresh"), tr("Refresh"), {QKeySequence(Qt::Key_F5)}));
    m_viewMenu->addAction(addCommand(QStringLiteral("nextTab"), tr("Next tab"),
                                     {QKeySequence(Qt::CTRL | Qt::Key_Tab), QKeySequence(Qt::CTRL | Qt::Key_PageDown)}));
    m_viewMenu->addAction(addCommand(QStringLiteral("previousTab"), tr("Previous tab"),
                                     {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab), QKeySequence(Qt::CTRL | Qt::Key_PageUp)}));
    m_panelsMenu = m_viewMenu->addMenu(tr("Go to"));
    m_viewMenu->addSeparator();
    auto *language = new LanguageMenu(m_configDir, this);
    connect(language, &LanguageMenu::message, this, [this](const QString &text) { statusBar()->showMessage(text, 10000); });
    m_viewMenu->addMenu(language);

    QMenu *machine = menuBar()->addMenu(tr("&Machine"));
    machine->addAction(addCommand(QStringLiteral("connect"), tr("Connect"), {QKeySequence(Qt::CTRL | Qt::Key_Return)}));
    machine->addAction(addCommand(QStringLiteral("disconnect"), tr("Disconnect"), {}));
    machine->addAction(action(QStringLiteral("remove")));
    machine->addSeparator();
    machine->addAction(addCommand(QStringLiteral("openTerminal"), tr("Open terminal"), {}));
    machine->addAction(addCommand(QStringLiteral("openVsCode"), tr("Open in VS Code"), {}));
    machine->addAction(addCommand(QStringLiteral("openCursor"), tr("Open in Cursor"), {}));
    machine->addSeparator();
    machine->addAction(addCommand(QStringLiteral("verify"), tr("Verify GPU"), {}));
    machine->addAction(addCommand(QStringLiteral("doctor"), tr("Doctor"), {}));
    machine->addSeparator();
    machine->addAction(addCommand(QStringLiteral("stopInstance"), tr("Stop instance…"), {}));
    machine->addAction(addCommand(QStringLiteral("startInstance"), tr("Start instance"), {}));
    machine->addAction(addCommand(QStringLiteral("restartInstance"), tr("Restart instance…"), {}));
    machine->addAction(addCommand(QStringLiteral("terminateInstance"), tr("Terminate instance…"), {}));
    machine->addSeparator();
    machine->addAction(addCommand(QStringLiteral("launch"), tr("Launch…"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N)}));
    machine->addAction(addCommand(QStringLiteral("trySandbox"), tr("Try the local sandbox"), {}));

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(addCommand(QStringLiteral("sshKeys"), tr("SSH keys…"), {}));
    tools->addAction(addCommand(QStringLiteral("accounts"), tr("Cloud accounts…"), {}));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(addCommand(QStringLiteral("help"), tr("Gantry help"), {QKeySequence::HelpContents}));
    help->addAction(addCommand(QStringLiteral("diagnostics"), tr("Save diagnostic report…"), {}));
    QAction *about = addCommand(QStringLiteral("about"), tr("About Gantry"), {});
    about->setMenuRole(QAction::AboutRole);
    help->addAction(about);
    connectMenus();
}

void MainWindow::connectMenus()
{
    auto on = [this](const char *id, auto slot) { connect(action(QString::fromLatin1(id)), &QAction::triggered, this, slot); };
    on("addHost", [this] { addHostInteractive(); });
    on("importSshConfig", [this] { importSshConfig(); });
    on("uploadFiles", [this] { triggerTabCommand(QStringLiteral("uploadFilesAction"), "uploadFiles"); });
    on("uploadFolder", [this] { triggerTabCommand(QStringLiteral("uploadFolderAction"), "uploadFolder"); });
    on("verify", [this] { triggerTabCommand(QStringLiteral("verifyAction")); });
    on("doctor", [this] { triggerTabCommand(QStringLiteral("doctorAction")); });
    for (const char *verb : {"stop", "start", "restart", "terminate"}) {
        connect(action(QString::fromLatin1(verb) + QStringLiteral("Instance")), &QAction::triggered, this,
                [this, verb] { requestInstanceAction(QString::fromLatin1(verb)); });
    }
    connect(this, &MainWindow::selectedHostChanged, this, &MainWindow::updateMachineCommands);
    updateMachineCommands();
    on("quit", [this] { close(); });
    on("focusFilter", [this] { focusFilter(); });
    on("remove", [this] { removeSelected(); });
    on("settings", [this] { emit settingsRequested(QStringLiteral("general")); });
    on("accounts", [this] { emit settingsRequested(QStringLiteral("accounts")); });
    on("refresh", [this] { refreshCurrentView(); });
    on("nextTab", [this] { nextDetailTab(1); });
    on("previousTab", [this] { nextDetailTab(-1); });
    on("connect", [this] { connectSelected(); });
    on("disconnect", [this] { disconnectSelected(); });
    on("launch", [this] { emit launchRequested(); });
    connectHandoffs();
    on("trySandbox", [this] { emit sandboxRequested(); });
    on("sshKeys", [this] {
        KeysDialog dialog(m_configDir, this);
        dialog.exec();
    });
    on("help", [this] { showHelp(); });
    on("diagnostics", [this] {
        const QString path = FileDialogs::saveFile(this, tr("Save diagnostic report"), QStringLiteral("gantry-diagnostics.txt"),
                                                  tr("Text files (*.txt)"));
        if (!path.isEmpty())
            saveDiagnosticReport(path);
    });
    on("about", [this] {
        QMessageBox::about(this, tr("About Gantry"),
                           tr("Gantry %1: rent, verify, use and watch cloud GPUs.").arg(QApplication::applicationVersion()));
    });
    // Delete removes a host only while the machines table has the focus: in the Files tab the same
    // key deletes remote files (that tab's own action).
    QAction *remove = action(QStringLiteral("remove"));
    remove->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    removeAction(remove);
    m_view->addAction(remove);
}

void MainWindow::connectHandoffs()
{
    m_handoff = new HandoffActions(m_core, this);
    statusBar()->addPermanentWidget(m_handoff->indicator());
    connect(m_handoff, &HandoffActions::status, this, [this](const QString &text) { statusBar()->showMessage(text, 15000); });
    addCloseGuard([this] { return m_handoff->closeWarning(); });
    const QList<std::pair<const char *, handoff::Tool>> tools = {{"openTerminal", handoff::Tool::Terminal},
                                                                 {"openVsCode", handoff::Tool::VsCode},
                                                                 {"openCursor", handoff::Tool::Cursor}};
    for (const auto &[id, tool] : tools)
        connect(action(QString::fromLatin1(id)), &QAction::triggered, this, [this, tool] { m_handoff->open(tool, selectedHost()); });
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        const QModelIndex index = m_view->indexAt(pos);
        if (!index.isValid())
            return;
        m_view->selectRow(index.row());
        QMenu *menu = machineContextMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_view->viewport()->mapToGlobal(pos));
    });
}

QMenu *MainWindow::machineContextMenu(QWidget *parent)
{
    auto *menu = new QMenu(parent);
    for (const char *id : {"connect", "disconnect", "", "openTerminal", "openVsCode", "openCursor", "", "remove"}) {
        if (*id)
            menu->addAction(action(QString::fromLatin1(id)));
        else
            menu->addSeparator();
    }
    return menu;
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::ShortcutOverride) {
        auto *widget = qobject_cast<QWidget *>(watched);
        auto *key = static_cast<QKeyEvent *>(event);
        if (widget && widget->window() == this && (widget->inherits("QLineEdit") || widget->inherits("QAbstractSpinBox"))) {
            const QKeySequence pressed(key->keyCombination());
            for (const QAction *command : std::as_const(m_actions)) {
                // Left to the field: what the window's command would take from typing (Delete).
                if (command->shortcutContext() != Qt::WindowShortcut || !command->isEnabled())
                    continue;
                if (command->shortcuts().contains(pressed)) {
                    event->ignore(); // not the field's: the shortcut runs
                    return true;
                }
            }
        }
        return false;
    }
    if (watched == m_view && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        const QString text = key->text();
        const bool typing = !text.isEmpty() && text.at(0).isPrint() && !text.at(0).isSpace()
            && !(key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier));
        if (typing) {
            m_filter->setFocus(Qt::ShortcutFocusReason);
            m_filter->insert(text);
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::addPanelAction(const QString &id, const QString &title)
{
    const int number = int(m_panelsMenu->actions().size()) + 1;
    QAction *go = addCommand(QStringLiteral("panel-") + id, title,
                             number <= 9 ? QList<QKeySequence>{QKeySequence(Qt::ALT | (Qt::Key_0 + number))} : QList<QKeySequence>{});
    m_panelsMenu->addAction(go);
    connect(go, &QAction::triggered, this, [this, id] { showPanel(id); });
}

QString MainWindow::currentPanel() const
{
    const QListWidgetItem *item = m_sections->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

void MainWindow::refreshCurrentView()
{
    QWidget *target = currentPanel() == QLatin1String("machines") ? m_tabs->currentWidget() : m_stack->currentWidget();
    for (const char *slot : {"refresh", "reload"}) {
        if (hasSlot(target, slot)) {
            QMetaObject::invokeMethod(target, slot);
            return;
        }
    }
    if (currentPanel() == QLatin1String("machines")) {
        // The Overview and other tabs without their own refresh gather facts again on reconnect.
        const QString host = selectedHost();
        if (!host.isEmpty())
            updateDetails();
    }
}

void MainWindow::updateMachineCommands()
{
    const std::optional<SavedHost> host = m_hosts->find(selectedHost());
    const bool instance = host && !host->provider.isEmpty() && !host->instanceId.isEmpty();
    for (const char *id : {"stopInstance", "startInstance", "restartInstance", "terminateInstance"})
        action(QString::fromLatin1(id))->setEnabled(instance);
    for (const char *id : {"verify", "doctor"})
        action(QString::fromLatin1(id))->setEnabled(host.has_value());
}

void MainWindow::requestInstanceAction(const QString &verb)
{
    const std::optional<SavedHost> host = m_hosts->find(selectedHost());
    if (!host || host->provider.isEmpty()) {
        statusBar()->showMessage(tr("Select a machine that Gantry launched or lists at a cloud provider; other machines are "
                                    "stopped at their provider."), 8000);
        return;
    }
    emit instanceActionRequested(host->name, verb);
}

bool MainWindow::triggerTabCommand(const QString &actionName, const char *slot)
{
    if (selectedHost().isEmpty()) {
        statusBar()->showMessage(tr("Select a machine first."), 5000);
        return false;
    }
    for (DetailTab *tab : std::as_const(m_detailTabs)) {
        QAction *own = tab->findChild<QAction *>(actionName);
        if (!own && (!slot || !hasSlot(tab, slot)))
            continue;
        showPanel(QStringLiteral("machines"));
        m_tabs->setCurrentWidget(tab);
        if (own)
            own->trigger();
        else
            QMetaObject::invokeMethod(tab, slot);
        return true;
    }
    statusBar()->showMessage(tr("Open the machine's Files tab to upload."), 5000);
    return false;
}

void MainWindow::adoptTabShortcuts(DetailTab *tab)
{
    // The menu bar's Ctrl+U, F5… reach the tab's own actions (triggerTabCommand); the same
    // shortcut on both would be ambiguous in Qt and do nothing, so the tab's copy is dropped.
    for (QAction *own : tab->findChildren<QAction *>()) {
        for (QAction *command : std::as_const(m_actions)) {
            if (!own->shortcut().isEmpty() && command->shortcuts().contains(own->shortcut()) && command != action(QStringLiteral("remove")))
                own->setShortcuts({});
        }
    }
}

void MainWindow::focusFilter()
{
    QWidget *page = currentPanel() == QLatin1String("machines") ? m_filter : m_stack->currentWidget();
    auto *edit = qobject_cast<QLineEdit *>(page);
    if (!edit && page)
        edit = page->findChild<QLineEdit *>();
    if (currentPanel() == QLatin1String("machines") && m_machinesStack->currentWidget() == m_welcome)
        edit = m_welcome->sshCommandEdit();
    if (edit) {
        edit->setFocus(Qt::ShortcutFocusReason);
        edit->selectAll();
    }
}

void MainWindow::nextDetailTab(int step)
{
    if (currentPanel() != QLatin1String("machines") || m_tabs->count() == 0)
        return;
    m_tabs->setCurrentIndex((m_tabs->currentIndex() + step + m_tabs->count()) % m_tabs->count());
}

QString MainWindow::helpTopic() const
{
    const QString panel = currentPanel();
    if (panel != QLatin1String("machines"))
        return panel == QLatin1String("monitor") ? QStringLiteral("fleet") : panel; // the Fleet monitor panel
    if (m_hosts->hosts().isEmpty() || !m_tabs->currentWidget())
        return QStringLiteral("start");
    // Detail tabs by their class: "gantry::ui::FilesTab" is the manual's "files".
    QString name = QString::fromLatin1(m_tabs->currentWidget()->metaObject()->className());
    name = name.mid(name.lastIndexOf(QLatin1Char(':')) + 1).toLower();
    return name.endsWith(QLatin1String("tab")) ? name.chopped(3) : name;
}

void MainWindow::showHelp()
{
    if (!m_help)
        m_help = new HelpWindow(this);
    m_help->showTopic(helpTopic());
    m_help->show();
    m_help->raise();
    m_help->activateWindow();
}

void MainWindow::saveDiagnosticReport(const QString &path)
{
    QStringList facts{QStringLiteral("Qt platform: %1, style %2").arg(QGuiApplication::platformName(), QApplication::style()->name())};
    for (const QScreen *screen : QGuiApplication::screens())
        facts << QStringLiteral("Screen %1: %2x%3, device pixel ratio %4")
                     .arg(screen->name()).arg(screen->size().width()).arg(screen->size().height()).arg(screen->devicePixelRatio());
    facts << QStringLiteral("Saved hosts: %1").arg(m_hosts->hosts().size());
    statusBar()->showMessage(tr("Writing the diagnostic report…"));
    // Reading the keychain blocks: the report is gathered on a thread and written from there.
    background::run<QString>(this, [path, facts, configDir = m_configDir, secrets = m_secrets](const CancelToken &) {
        const QString report = diagnostics::buildReport(configDir, diagnostics::collectKnownSecrets(configDir, secrets), facts);
        const Result<void> written = diagnostics::writeReport(path, report);
        return written ? tr("Diagnostic report saved to %1 (secrets removed).").arg(path) : written.error().message;
    }, [this](QString message) {
        statusBar()->showMessage(message, 15000);
        emit diagnosticReportSaved(message);
    });
}

void MainWindow::restoreWindowState()
{
    const QSettings settings(QDir(m_configDir).filePath(QStringLiteral("window.ini")), QSettings::IniFormat);
    // The client rectangle as it was, set as it was: restoreGeometry() places the frame and, where
    // no window manager draws one (Xvfb, some kiosks), the window came back 20 px lower each start.
    const QRect rect = settings.value(QStringLiteral("window/rect")).toRect();
    const bool onScreen = rect.isValid() && std::any_of(QGuiApplication::screens().cbegin(), QGuiApplication::screens().cend(),
                                                        [&rect](const QScreen *s) { return s->availableGeometry().intersects(rect); });
    if (onScreen)
        setGeometry(rect);
    else if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) // written by older versions
        resize(1280, 800);
    if (settings.value(QStringLiteral("window/maximized")).toBool())
        setWindowState(windowState() | Qt::WindowMaximized);
    // "machinesSplitter" (older versions) mostly held the two-row list they started with: not read.
    m_splitter->restoreState(settings.value(QStringLiteral("window/machinesSplit")).toByteArray());
    // The last panel is shown once the panels are installed (after the constructor).
    const QString panel = settings.value(QStringLiteral("window/panel")).toString();
    if (!panel.isEmpty())
        QMetaObject::invokeMethod(this, [this, panel] {
            if (currentPanel() == QLatin1String("machines"))
                showPanel(panel);
        }, Qt::QueuedConnection);
}

void MainWindow::saveWindowState() const
{
    QSettings settings(QDir(m_configDir).filePath(QStringLiteral("window.ini")), QSettings::IniFormat);
    settings.setValue(QStringLiteral("window/rect"), normalGeometry().isValid() ? normalGeometry() : geometry());
    settings.setValue(QStringLiteral("window/maximized"), isMaximized());
    settings.remove(QStringLiteral("window/geometry"));
    settings.setValue(QStringLiteral("window/machinesSplit"), m_splitter->saveState());
    settings.remove(QStringLiteral("window/machinesSplitter"));
    settings.setValue(QStringLiteral("window/panel"), currentPanel());
}

} // namespace gantry::ui
