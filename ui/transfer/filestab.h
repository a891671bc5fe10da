#pragma once

#include "ui/common/detailtab.h"
#include "ui/transfer/remotefilesview.h"
#include "core/transfer/remotefiles.h"
#include "core/transfer/transferqueue.h"
#include "core/util/canceltoken.h"

#include <QPointer>

#include <functional>
#include <memory>
#include <optional>

class QAction;
class QLabel;
class QSettings;
class QSplitter;
class QMenu;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTreeView;

namespace gantry::sync {
class SyncService;
}

namespace gantry::ui {

class DragOutStaging;
class LocalFilesPane;
class RemoteDirModel;
class SyncStrip;

// The Files tab: browse the machine's files over SFTP, create folders, rename, delete (after a
// confirmation that counts what a folder holds), download the selection, and upload chosen or
// dropped files and folders into the folder shown (the home folder right after connecting);
// files and folders dragged out to the desktop are downloaded through a staging folder
// (DragOutStaging). Uploads and downloads go through the shared TransferQueue, so they show in the
// transfers panel, ask only on a conflict, and survive restarts. Listings and changes on the
// machine go through the core's transfer::RemoteFiles, each on a session of its own (a long delete
// never holds up the next listing), one change at a time; the tab's Stop button (stopOperation())
// cancels what is on its way.
class FilesTab final : public DetailTab
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FilesTab)

public:
    // The queue, the sync pairs and the remote file operations are the application core's:
    // transfers and "Keep in sync" watches go on whichever machine is shown.
    FilesTab(const AppContext &context, transfer::TransferQueue *queue, sync::SyncService *syncPairs,
             transfer::RemoteFiles *files, QWidget *parent = nullptr);

    QString title() const override { return tr("Files"); }
    void setMachine(const SavedHost &host, ssh::Connection *connection) override;
    void clearMachine() override;

    QString currentPath() const;
    RemoteDirModel *model() const { return m_model; }
    RemoteFilesView *view() const { return m_view; }
    QString statusText() const;

    // What a drop does; returns the queue ids.
    QList<quint64> uploadLocalPaths(const QStringList &localPaths);
    QList<quint64> downloadSelected(const QString &localDir);
    // What a drag out of the list starts: the selection downloading into a new staging folder
    // under dragStagingRoot(). The caller (the drag) owns the result.
    DragOutStaging *stageSelectionForDrag();
    QString dragStagingRoot() const { return m_dragStagingRoot; }
    void setDragStagingRoot(const QString &root) { m_dragStagingRoot = root; }

    // The tab's actions, for the main window's menu bar to add as they are (do not make second
    // actions with the same shortcuts). Their shortcuts work while the tab is shown
    // (Qt::WidgetWithChildrenShortcut); they are enabled while a machine is connected (New folder…,
    // Rename… and Delete… not while a change runs: isChanging()).
    //   uploadFilesAction()   "Upload files…"  Ctrl+U        file chooser, then into currentPath()
    //   uploadFolderAction()  "Upload folder…" Ctrl+Shift+U  folder chooser, the same
    //   downloadAction()      "Download…"                    the selection, asks for a local folder
    //   renameAction()        "Rename…"        F2            one selected entry
    //   deleteAction()        "Delete…"        Delete        the selection, after a confirmation
    //   copyPathAction()      "Copy path"      Ctrl+Shift+C  the selection's (or folder's) remote paths
    //   editAction()          "Edit"                         the selected file in the local editor
    //                                                        (editRequested: the window's hand-offs)
    //   openTerminalAction()  "Open terminal here"           ssh into the folder in a terminal
    //                                                        (or copies that ssh line)
    //   newFolderAction()     "New folder…"    Ctrl+Shift+N
    //   refreshAction()       "Refresh"        F5
    QAction *uploadFilesAction() const { return m_uploadFiles; }
    QAction *uploadFolderAction() const { return m_uploadFolder; }
    QAction *downloadAction() const { return m_download; }
    QAction *renameAction() const { return m_rename; }
    QAction *deleteAction() const { return m_delete; }
    QAction *copyPathAction() const { return m_copyPath; }
    QAction *openTerminalAction() const { return m_openTerminal; }
    QAction *editAction() const { return m_edit; }
    QAction *newFolderAction() const { return m_newFolder; }
    QAction *refreshAction() const { return m_refresh; }
    //   syncFolderAction()    "Sync a local folder here…"    preview, sync and "Keep in sync" (ui/sync)
    QAction *syncFolderAction() const { return m_syncFolder; }
    sync::SyncService *syncService() const { return m_sync; }
    //   twoPaneAction()       "Local files" (checkable)       this computer's files beside the
    //                                                        machine's (localPane()), drag both ways;
    //                                                        on/off, its folder and split kept in window.ini
    QAction *twoPaneAction() const { return m_twoPane; }
    LocalFilesPane *localPane() const { return m_local; }
    SyncStrip *syncStrip() const { return m_syncStrip; }
    // The context menu for the current selection (what a right click opens); the caller owns it.
    QMenu *contextMenu(QWidget *parent);
    // True while a remote operation (listing, new folder, rename, count, delete) runs.
    bool isBusy() const { return m_listing.has_value() || m_operation.has_value(); }
    // True while a change (or the count before a delete) runs: the next one waits for it.
    bool isChanging() const { return m_operation.has_value(); }

    // Seams for tests (and scripted use): the questions the tab would otherwise ask in dialogs.
    void setConfirmer(std::function<bool(const QString &question)> confirm) { m_confirm = std::move(confirm); }
    void setTextAsker(std::function<QString(const QString &label, const QString &initial)> ask) { m_ask = std::move(ask); }
    // Picks local files (folder false) or one folder (folder true) to upload; empty: nothing.
    using FileChooser = std::function<QStringList(bool folder)>;
    void setFileChooser(FileChooser choose) { m_choose = std::move(choose); }
    // Picks the local folder downloads go to; empty: nothing.
    void setDownloadFolderChooser(std::function<QString()> choose) { m_chooseDownloadDir = std::move(choose); }
    // Starts a terminal program detached; false when it could not be started.
    void setProgramStarter(std::function<bool(const QString &program, const QStringList &args)> start)
    {
        m_startProgram = std::move(start);
    }

    // Shows path on the machine shown: now when connected, else once the connection is up.
    void showFolder(const QString &path);

public slots:
    void navigate(const QString &path);
    void refresh();
    void goUp();
    void makeFolder();
    void renameSelected();
    void deleteSelected();
    void downloadSelectedInteractive();
    void uploadFilesInteractive();
    void uploadFolderInteractive();
    void copyPaths();
    void openTerminalHere();
    void editSelected();
    void stopOperation();
    void syncFolderInteractive();

signals:
    void listed(const QString &path);
    void operationFailed(const QString &message);
    // Edit on one selected file: hostName:remotePath to open in the local editor.
    void editRequested(const QString &hostName, const QString &remotePath);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragLeaveEvent(QDragLeaveEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    // Starts a change on the machine and returns its token; `current()`, called with its answer, is
    // true (once) when that answer is still wanted (no Stop, no other machine since).
    using Operation = std::function<CancelToken(std::function<bool()> current)>;
    void runOperation(const QString &busyText, Operation operation);
    // Lists path; `step` is the result of the change before it, shown once the folder is.
    void listFolder(const QString &path, const Result<void> &step);
    void showListing(const Result<transfer::RemoteListing> &listing, const Result<void> &step);
    void confirmAndDelete(const QStringList &paths, const Result<transfer::RemoteTreeCount> &count);
    void cancelInFlight();
    void busyChanged();
    void setUpView();
    void createActions();
    void buildLayout();
    void connectSignals();
    void updateActions();
    QStringList selectedNames() const;
    QStringList selectedPaths() const;
    QString terminalFolder() const;
    void setStatus(const QString &text);
    void dragOut();
    // Lists the folder shown (or on its way) again when a change at remotePath on host (absolute,
    // or relative to the home folder, as sync pairs say it) shows in it: an upload or a sync.
    void refreshIfShown(const QString &host, const QString &remotePath);
    void openSyncDialog(const QString &localDir = {}, const QString &remoteDir = {});
    void setUpLocalPane();
    void saveLayout() const;
    std::unique_ptr<QSettings> layoutSettings() const;

    AppContext m_context;
    transfer::TransferQueue *m_queue;
    transfer::RemoteFiles *m_files;
    SavedHost m_host;
    QPointer<ssh::Connection> m_connection;
    RemoteDirModel *m_model;
    QSortFilterProxyModel *m_proxy;
    RemoteFilesView *m_view;
    QLineEdit *m_pathEdit;
    QLabel *m_status;
    QPushButton *m_stop;
    QPushButton *m_up;
    QAction *m_uploadFiles = nullptr;
    QAction *m_uploadFolder = nullptr;
    QAction *m_download = nullptr;
    QAction *m_rename = nullptr;
    QAction *m_delete = nullptr;
    QAction *m_copyPath = nullptr;
    QAction *m_openTerminal = nullptr;
    QAction *m_edit = nullptr;
    QAction *m_newFolder = nullptr;
    QAction *m_refresh = nullptr;
    QAction *m_syncFolder = nullptr;
    sync::SyncService *m_sync;
    SyncStrip *m_syncStrip;
    std::function<bool(const QString &)> m_confirm;
    std::function<QString(const QString &, const QString &)> m_ask;
    FileChooser m_choose;
    std::function<QString()> m_chooseDownloadDir;
    std::function<bool(const QString &, const QStringList &)> m_startProgram;
    quint64 m_listGeneration = 0;           // drops stale listings
    quint64 m_operationGeneration = 0;      // drops the answer of a stopped change
    std::optional<CancelToken> m_listing;   // the listing on its way
    std::optional<CancelToken> m_operation; // the change (or count) on its way
    QString m_operationText;                // the status line while it runs
    QString m_dragStagingRoot;
    QString m_listingPath; // the folder the listing on its way lists
    QString m_homePath;    // the home folder, once listed (what "." answered)
    QString m_pendingPath; // showFolder() before the connection was up, for m_pendingHost
    QString m_pendingHost;
    QSplitter *m_split = nullptr;
    LocalFilesPane *m_local = nullptr;
    QAction *m_twoPane = nullptr;
    bool m_droppedOnLocalPane = false; // the drag out in progress landed on the local pane
};

} // namespace gantry::ui
