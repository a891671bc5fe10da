// The Files tab's actions: the toolbar, the context menu, shortcuts and what the menu bar adds.

#include "ui/transfer/filestab.h"

#include "ui/transfer/remotedirmodel.h"

#include "ui/sync/syncdialog.h"
#include "ui/common/filedialogs.h"
#include "ui/common/handofflaunch.h"

#include "core/ssh/connection.h"
#include "core/transfer/remoteops.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QItemSelectionModel>
#include <QMenu>
#include <QSortFilterProxyModel>

namespace gantry::ui {

void FilesTab::createActions()
{
    auto make = [this](const QString &text, const QKeySequence &shortcut, void (FilesTab::*slot)()) {
        auto *action = new QAction(text, this);
        if (!shortcut.isEmpty()) {
            action->setShortcut(shortcut);
            action->setToolTip(QStringLiteral("%1 (%2)").arg(QString(text).remove(QStringLiteral("…")),
                                                             shortcut.toString(QKeySequence::NativeText)));
        }
        // While the tab is shown, not over the whole window: F5 and Delete mean other things elsewhere.
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        return action;
    };
    m_uploadFiles = make(tr("Upload files…"), QKeySequence(Qt::CTRL | Qt::Key_U), &FilesTab::uploadFilesInteractive);
    m_uploadFolder = make(tr("Upload folder…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U), &FilesTab::uploadFolderInteractive);
    // The names the menu bar's Ctrl+U / Ctrl+Shift+U look for (MainWindow::triggerTabCommand).
    m_uploadFiles->setObjectName(QStringLiteral("uploadFilesAction"));
    m_uploadFolder->setObjectName(QStringLiteral("uploadFolderAction"));
    m_download = make(tr("Download…"), {}, &FilesTab::downloadSelectedInteractive);
    m_rename = make(tr("Rename…"), QKeySequence(Qt::Key_F2), &FilesTab::renameSelected);
    m_delete = make(tr("Delete…"), QKeySequence(QKeySequence::Delete), &FilesTab::deleteSelected);
    m_copyPath = make(tr("Copy path"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), &FilesTab::copyPaths);
    m_openTerminal = make(tr("Open terminal here"), {}, &FilesTab::openTerminalHere);
    m_edit = make(tr("Edit"), {}, &FilesTab::editSelected);
    m_newFolder = make(tr("New folder…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N), &FilesTab::makeFolder);
    m_refresh = make(tr("Refresh"), QKeySequence(QKeySequence::Refresh), &FilesTab::refresh);
    m_syncFolder = make(tr("Sync a local folder here…"), {}, &FilesTab::syncFolderInteractive);
}

void FilesTab::updateActions()
{
    const bool connected = m_connection != nullptr;
    const bool listed = connected && !currentPath().isEmpty();
    const qsizetype selected = m_view->selectionModel() ? m_view->selectionModel()->selectedRows().size() : 0;
    const bool changeable = listed && !m_operation; // one change at a time
    for (QAction *a : {m_uploadFiles, m_uploadFolder, m_syncFolder, m_copyPath, m_openTerminal}) a->setEnabled(listed);
    m_refresh->setEnabled(connected);
    m_download->setEnabled(listed && selected > 0);
    m_newFolder->setEnabled(changeable);
    m_delete->setEnabled(changeable && selected > 0);
    m_rename->setEnabled(changeable && selected == 1);
    m_edit->setEnabled(listed && selected == 1 && !terminalFolder().isEmpty() && terminalFolder() == currentPath());
}

QMenu *FilesTab::contextMenu(QWidget *parent)
{
    updateActions();
    auto *menu = new QMenu(parent);
    if (!selectedNames().isEmpty()) {
        menu->addActions({m_edit, m_download, m_rename, m_delete});
        menu->addSeparator();
    }
    menu->addActions({m_copyPath, m_openTerminal});
    menu->addSeparator();
    menu->addActions({m_uploadFiles, m_uploadFolder, m_syncFolder, m_newFolder, m_refresh});
    return menu;
}

void FilesTab::syncFolderInteractive()
{
    if (m_connection && !currentPath().isEmpty()) openSyncDialog();
}

void FilesTab::openSyncDialog(const QString &localDir, const QString &remoteDir)
{
    SyncDialog *dialog = SyncDialog::open(m_sync, m_host.name, currentPath(), this, localDir, remoteDir);
    // What a one-off sync created shows at once (a watch's syncs come through SyncService::synced).
    connect(dialog, &SyncDialog::finished, this, [this, dialog, host = m_host.name](bool ok) {
        if (ok) refreshIfShown(host, dialog->remoteDir());
    });
}

void FilesTab::uploadFilesInteractive()
{
    if (!m_connection || currentPath().isEmpty()) return;
    const QStringList files = m_choose ? m_choose(false) : FileDialogs::openFiles(this, tr("Upload files to %1").arg(currentPath()));
    if (!files.isEmpty()) uploadLocalPaths(files);
}

void FilesTab::uploadFolderInteractive()
{
    if (!m_connection || currentPath().isEmpty()) return;
    QStringList folders;
    if (m_choose) {
        folders = m_choose(true);
    } else if (const QString dir = FileDialogs::existingFolder(this, tr("Upload a folder to %1").arg(currentPath()));
               !dir.isEmpty()) {
        folders.append(dir);
    }
    if (!folders.isEmpty()) uploadLocalPaths(folders);
}

void FilesTab::copyPaths()
{
    QStringList paths = selectedPaths();
    if (paths.isEmpty() && !currentPath().isEmpty()) paths.append(currentPath());
    if (paths.isEmpty()) return;
    QGuiApplication::clipboard()->setText(paths.join(QLatin1Char('\n')));
    setStatus(tr("Copied %n path(s).", nullptr, int(paths.size())));
}

// A selected folder, else the folder shown.
QString FilesTab::terminalFolder() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (rows.size() == 1) {
        const QModelIndex src = m_proxy->mapToSource(rows.first());
        if (src.data(RemoteDirModel::IsDirRole).toBool()) return transfer::remoteJoin(currentPath(), m_model->entry(src.row()).name);
    }
    return currentPath();
}

// One selected file (a selected folder is what terminalFolder() names instead).
void FilesTab::editSelected()
{
    const QStringList paths = selectedPaths();
    if (!m_connection || paths.size() != 1 || terminalFolder() != currentPath()) return;
    emit editRequested(m_host.name, paths.first());
}

// Through core/handoff, as the Machine menu's Open terminal and `gantry-cli open HOST --editor
// terminal DIR` do: `ssh -t ALIAS 'cd -- DIR && exec "$SHELL" -l'` (the full ssh command without an
// alias) in the desktop's terminal; where none is found, that line goes on the clipboard.
void FilesTab::openTerminalHere()
{
    if (!m_connection || currentPath().isEmpty()) return;
    const QString dir = terminalFolder();
    handoff::Desktop desktop;
    if (m_startProgram) desktop.start = m_startProgram;
    const QList<SavedHost> all = m_context.hosts ? m_context.hosts->hosts() : QList<SavedHost>{m_host};
    startHandoff(this, handoff::Tool::Terminal, m_host, all, m_context.configDir, dir, desktop,
                 [this, dir](const Result<handoff::Launch> &launch, const Result<void> &started) {
        if (!launch) {
            setStatus(launch.error().message);
        } else if (started) {
            setStatus(tr("Opened a terminal in %1.").arg(dir));
        } else {
            QGuiApplication::clipboard()->setText(launch->commandLine);
            setStatus(tr("No terminal could be started here; the ssh command for %1 is on the clipboard: %2")
                          .arg(dir, launch->commandLine));
        }
    });
}

} // namespace gantry::ui
