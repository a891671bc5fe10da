#include "ui/transfer/filestab.h"

#include "ui/common/confirm.h"

#include "ui/transfer/dragout.h"
#include "ui/transfer/localfilespane.h"
#include "ui/transfer/remotedirmodel.h"

#include "ui/common/filedialogs.h"
#include "ui/sync/syncdialog.h"
#include "core/sync/syncservice.h"
#include "ui/sync/syncstrip.h"

#include "core/util/background.h"
#include "core/ssh/connection.h"
#include "core/transfer/remoteops.h"
#include "core/util/printable.h"

#include <QDateTime>
#include <QDrag>
#include <QLocale>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QMenu>
#include <QPushButton>
#include <QToolButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardPaths>
#include <QTreeView>
#include <QVBoxLayout>

namespace gantry::ui {

namespace {
Result<void> stepOf(const Result<QString> &done)
{
    if (!done) return done.error();
    return {};
}
} // namespace

FilesTab::FilesTab(const AppContext &context, transfer::TransferQueue *queue, sync::SyncService *syncPairs,
                   transfer::RemoteFiles *files, QWidget *parent)
    : DetailTab(parent)
    , m_context(context)
    , m_queue(queue)
    , m_files(files)
    , m_model(new RemoteDirModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new RemoteFilesView(this))
    , m_pathEdit(new QLineEdit(this))
    , m_status(new QLabel(this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_up(new QPushButton(tr("Up"), this))
    , m_sync(syncPairs)
    , m_syncStrip(new SyncStrip(m_sync, this))
{
    setAcceptDrops(true);
    setUpView();
    createActions();
    buildLayout();
    connectSignals();
    clearMachine();
}

void FilesTab::setUpView()
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RemoteDirModel::UnderlyingDataRole);
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(RemoteDirModel::NameColumn, Qt::AscendingOrder);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setDragEnabled(true);
    m_view->setDragDropMode(QAbstractItemView::DragOnly);
    m_view->setDragStarter([this] { dragOut(); });
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_dragStagingRoot = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/drag-out");
    m_view->header()->setStretchLastSection(true);
    m_view->setColumnWidth(RemoteDirModel::NameColumn, 280);
    // Sizes and dates in full in any locale: the widest of each, measured.
    const QFontMetrics fm = m_view->fontMetrics();
    const QString widestDate = QLocale().toString(QDateTime(QDate(2026, 12, 28), QTime(23, 58)), QLocale::ShortFormat);
    m_view->setColumnWidth(RemoteDirModel::SizeColumn, fm.horizontalAdvance(transfer::formatBytes(1023ull << 20)) + 24);
    m_view->setColumnWidth(RemoteDirModel::ModifiedColumn, fm.horizontalAdvance(widestDate) + 24);
}

void FilesTab::buildLayout()
{
    m_split = new QSplitter(Qt::Horizontal, this);
    m_local = new LocalFilesPane;
    m_split->addWidget(m_local); // left, as in FileZilla and WinSCP
    m_split->addWidget(m_view);
    setUpLocalPane();
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_up);
    bar->addWidget(m_pathEdit, 1);
    for (QAction *action : {m_refresh, m_uploadFiles, m_newFolder, m_download, m_rename, m_delete}) {
        auto *button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        if (action == m_uploadFiles) {
            // Upload folder… sits under the same button: one entry point for uploads in a narrow bar.
            auto *menu = new QMenu(button);
            menu->addAction(m_uploadFiles);
            menu->addAction(m_uploadFolder);
            menu->addAction(m_syncFolder);
            button->setMenu(menu);
            button->setPopupMode(QToolButton::MenuButtonPopup);
        }
        bar->addWidget(button);
    }
    auto *twoPane = new QToolButton(this);
    twoPane->setDefaultAction(m_twoPane);
    bar->addWidget(twoPane);
    auto *statusBar = new QHBoxLayout;
    statusBar->addWidget(m_status, 1);
    statusBar->addWidget(m_stop);
    m_stop->setVisible(false);
    m_stop->setToolTip(tr("Stop the running operation on the machine"));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_split, 1);
    layout->addWidget(m_syncStrip);
    layout->addLayout(statusBar);
    m_status->setWordWrap(true);
}

void FilesTab::connectSignals()
{
    connect(m_up, &QPushButton::clicked, this, &FilesTab::goUp);
    connect(m_stop, &QPushButton::clicked, this, &FilesTab::stopOperation);
    connect(m_pathEdit, &QLineEdit::returnPressed, this, [this] { navigate(m_pathEdit->text()); });
    connect(m_view, &QTreeView::doubleClicked, this, [this](const QModelIndex &index) {
        const QModelIndex src = m_proxy->mapToSource(index);
        if (src.data(RemoteDirModel::IsDirRole).toBool()) {
            navigate(transfer::remoteJoin(currentPath(), m_model->entry(src.row()).name));
        }
    });
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        if (!m_view->indexAt(pos).isValid()) m_view->clearSelection(); // a click on empty space: the folder itself
        QMenu *menu = contextMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_view->viewport()->mapToGlobal(pos));
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &FilesTab::updateActions);
    connect(m_queue, &transfer::TransferQueue::itemFinished, this, [this](quint64 id, transfer::ItemState state) {
        const transfer::QueueItem *it = m_queue->item(id);
        // A failed or cancelled upload may have left files too (a folder's first batches).
        if (it && it->request.direction == transfer::Direction::Upload && state != transfer::ItemState::Skipped)
            refreshIfShown(it->request.host, it->destinationPath());
    });
    if (m_sync) connect(m_sync, &sync::SyncService::synced, this,
            [this](const QString &host, const QString &, const QString &remoteDir) { refreshIfShown(host, remoteDir); });
    connect(m_syncStrip, &SyncStrip::openRequested, this, [this](const QString &local, const QString &remote) { openSyncDialog(local, remote); });
}

void FilesTab::setMachine(const SavedHost &host, ssh::Connection *connection)
{
    const bool sameHost = host.name == m_host.name && connection == m_connection;
    if (!sameHost) cancelInFlight(); // what runs for the machine shown before is not this one's
    m_host = host;
    m_connection = connection;
    m_up->setEnabled(connection != nullptr);
    m_pathEdit->setEnabled(connection != nullptr);
    m_syncStrip->setHost(host.name);
    updateActions();
    if (!connection) {
        m_model->clear();
        m_view->setEmptyHint(QString());
        setStatus(tr("Connect to %1 to browse its files. You can drop files here once connected.").arg(host.name));
        return;
    }
    if (!m_pendingPath.isEmpty() && m_pendingHost == host.name) {
        navigate(std::exchange(m_pendingPath, QString()));
        return;
    }
    if (!sameHost || m_model->path().isEmpty()) navigate(QStringLiteral("."));
}

void FilesTab::showFolder(const QString &path)
{
    if (m_connection) return navigate(path);
    m_pendingPath = path;
    m_pendingHost = m_host.name;
}

void FilesTab::clearMachine()
{
    cancelInFlight();
    m_host = SavedHost{};
    m_connection = nullptr;
    m_model->clear();
    m_view->setEmptyHint(QString());
    m_pathEdit->clear();
    m_up->setEnabled(false);
    updateActions();
    setStatus(tr("Select a machine to see its files."));
}

QString FilesTab::currentPath() const
{
    return m_model->path();
}

QString FilesTab::statusText() const
{
    return m_status->text();
}

void FilesTab::setStatus(const QString &text)
{
    m_status->setText(text);
}

void FilesTab::busyChanged()
{
    m_stop->setVisible(isBusy());
    updateActions();
}

void FilesTab::cancelInFlight()
{
    if (m_listing) m_listing->cancel();
    if (m_operation) m_operation->cancel();
    m_listing.reset();
    m_operation.reset();
    ++m_listGeneration; // whatever they still report is dropped
    ++m_operationGeneration;
    busyChanged();
}

void FilesTab::stopOperation()
{
    if (!isBusy()) return;
    cancelInFlight();
    setStatus(tr("Stopped."));
    QMetaObject::invokeMethod(this, &FilesTab::refresh, Qt::QueuedConnection); // show what is left
}

void FilesTab::runOperation(const QString &busyText, Operation operation)
{
    const quint64 generation = ++m_operationGeneration;
    m_operationText = busyText;
    setStatus(busyText);
    // The answers come queued, never from inside operation(): m_operation is set by then.
    m_operation = operation([this, generation] {
        if (generation != m_operationGeneration) return false;
        m_operation.reset();
        busyChanged();
        return true;
    });
    busyChanged();
}

void FilesTab::listFolder(const QString &path, const Result<void> &step)
{
    if (!m_connection) return;
    if (m_listing) m_listing->cancel(); // a newer listing replaces the one on its way
    const quint64 generation = ++m_listGeneration;
    if (!m_operation) setStatus(tr("Loading %1…").arg(path));
    m_listingPath = path;
    m_listing = m_files->list(m_host.name, path, this, [this, generation, step, path](Result<transfer::RemoteListing> listing) {
        if (generation != m_listGeneration) return;
        m_listing.reset();
        if (listing && path == QLatin1String(".")) m_homePath = listing->path;
        busyChanged();
        showListing(listing, step);
    });
    busyChanged();
}

void FilesTab::showListing(const Result<transfer::RemoteListing> &listing, const Result<void> &step)
{
    if (!listing) {
        setStatus(listing.error().message);
        emit operationFailed(listing.error().message);
        return;
    }
    m_model->setEntries(listing->path, listing->entries);
    m_pathEdit->setText(listing->path);
    m_view->setEmptyHint(tr("This folder is empty.\nDrop files here or press Ctrl+U to upload."));
    updateActions();
    if (!step) {
        setStatus(step.error().message);
        emit operationFailed(step.error().message);
    } else if (m_operation) {
        setStatus(m_operationText); // a change still runs: the line keeps saying so
    } else {
        setStatus(tr("%n item(s) in %1", nullptr, int(listing->entries.size())).arg(listing->path));
    }
    emit listed(listing->path);
}

void FilesTab::refreshIfShown(const QString &host, const QString &remotePath)
{
    if (host != m_host.name || !m_connection) return;
    const QString shown = m_listing ? m_listingPath : currentPath();
    if (shown.isEmpty() || shown == QLatin1String(".")) return; // the listing on its way shows it anyway
    QString path = remotePath;
    if (path.startsWith(QLatin1String("~/"))) path = path.mid(2);
    if (!path.startsWith(QLatin1Char('/'))) {
        if (m_homePath.isEmpty()) return listFolder(shown, {});
        path = path.isEmpty() || path == QLatin1String("~") || path == QLatin1String(".") ? m_homePath : transfer::remoteJoin(m_homePath, path);
    }
    if (transfer::changeShowsIn(shown, path)) listFolder(shown, {});
}

void FilesTab::navigate(const QString &path)
{
    listFolder(path.isEmpty() ? QStringLiteral(".") : path, {});
}

void FilesTab::refresh()
{
    navigate(currentPath().isEmpty() ? QStringLiteral(".") : currentPath());
}

void FilesTab::goUp()
{
    navigate(transfer::remoteParent(currentPath()));
}

QStringList FilesTab::selectedNames() const
{
    QStringList names;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &index : rows) names.append(m_model->entry(m_proxy->mapToSource(index).row()).name);
    return names;
}

QStringList FilesTab::selectedPaths() const
{
    QStringList paths;
    for (const QString &name : selectedNames()) paths.append(transfer::remoteJoin(currentPath(), name));
    return paths;
}

void FilesTab::makeFolder()
{
    if (!m_connection || currentPath().isEmpty() || m_operation) return;
    const QString name = m_ask ? m_ask(tr("New folder name:"), QString())
                               : QInputDialog::getText(this, tr("New folder"), tr("New folder name:"));
    if (name.isEmpty()) return;
    if (auto ok = transfer::checkNewName(name); !ok) {
        setStatus(ok.error().message);
        return;
    }
    const QString dir = currentPath();
    runOperation(tr("Creating %1…").arg(transfer::remoteJoin(dir, name)), [this, dir, name](std::function<bool()> current) {
        return m_files->makeFolder(m_host.name, dir, name, this, [this, current](Result<QString> made) {
            if (current()) listFolder(currentPath(), stepOf(made));
        });
    });
}

void FilesTab::renameSelected()
{
    const QStringList names = selectedNames();
    if (names.size() != 1 || m_operation) return;
    const QString to = m_ask ? m_ask(tr("New name:"), names.first())
                             : QInputDialog::getText(this, tr("Rename"), tr("New name:"), QLineEdit::Normal, names.first());
    if (to.isEmpty() || to == names.first()) return;
    if (auto ok = transfer::checkNewName(to); !ok) {
        setStatus(ok.error().message);
        return;
    }
    const QString from = transfer::remoteJoin(currentPath(), names.first());
    runOperation(tr("Renaming %1…").arg(from), [this, from, to](std::function<bool()> current) {
        return m_files->rename(m_host.name, from, to, this, [this, current](Result<QString> renamed) {
            if (current()) listFolder(currentPath(), stepOf(renamed));
        });
    });
}

// First the count (a folder's files are counted on the machine), then the question, then the delete.
void FilesTab::deleteSelected()
{
    const QStringList paths = selectedPaths();
    if (paths.isEmpty() || !m_connection || m_operation) return;
    runOperation(tr("Counting what %n item(s) hold…", nullptr, int(paths.size())), [this, paths](std::function<bool()> current) {
        return m_files->count(m_host.name, paths, this, [this, current, paths](Result<transfer::RemoteTreeCount> count) {
            if (current()) confirmAndDelete(paths, count);
        });
    });
}

void FilesTab::confirmAndDelete(const QStringList &paths, const Result<transfer::RemoteTreeCount> &count)
{
    if (!count) {
        setStatus(count.error().message);
        emit operationFailed(count.error().message);
        return;
    }
    QString question;
    const QString where = paths.size() == 1 ? paths.first() : currentPath();
    if (paths.size() == 1 && !count->isDir) {
        question = tr("Delete %1 on %2?").arg(paths.first(), m_host.name);
    } else if (paths.size() == 1) {
        question = tr("Delete the folder %1 on %2 and everything in it: %n file(s)", nullptr, int(count->files))
                       .arg(where, m_host.name)
                   + tr(" and %n subfolder(s)?", nullptr, int(count->folders - 1));
    } else {
        question = tr("Delete %n item(s) in %1 on %2", nullptr, int(paths.size())).arg(where, m_host.name)
                   + tr(", %n file(s) in all", nullptr, int(count->files))
                   + tr(" and %n folder(s)?", nullptr, int(count->folders));
    }
    question += QLatin1Char(' ') + tr("This cannot be undone.");
    const bool ok = m_confirm ? m_confirm(question)
                              : askDestructive(this, tr("Delete"), question, QMessageBox::No);
    if (!ok) {
        setStatus(tr("Nothing deleted."));
        return;
    }
    runOperation(tr("Deleting %n item(s)…", nullptr, int(paths.size())), [this, paths](std::function<bool()> current) {
        return m_files->remove(m_host.name, paths, true, this, [this, current](Result<void> removed) {
            if (current()) listFolder(currentPath(), removed);
        });
    });
}

QList<quint64> FilesTab::uploadLocalPaths(const QStringList &localPaths)
{
    QList<quint64> ids;
    if (m_host.name.isEmpty() || currentPath().isEmpty()) return ids;
    for (const QString &local : localPaths) {
        transfer::TransferRequest r;
        r.direction = transfer::Direction::Upload;
        r.host = m_host.name;
        r.localPath = local;
        r.remotePath = currentPath() + QLatin1Char('/');
        r.destinationIsDir = true;
        ids.append(m_queue->enqueue(r));
    }
    setStatus(tr("%n upload(s) queued to %1.", nullptr, int(ids.size())).arg(currentPath()));
    return ids;
}

QList<quint64> FilesTab::downloadSelected(const QString &localDir)
{
    QList<quint64> ids;
    for (const QString &name : selectedNames()) {
        transfer::TransferRequest r;
        r.direction = transfer::Direction::Download;
        r.host = m_host.name;
        r.remotePath = transfer::remoteJoin(currentPath(), name);
        r.localPath = localDir + QLatin1Char('/');
        r.destinationIsDir = true;
        ids.append(m_queue->enqueue(r));
    }
    return ids;
}

void FilesTab::downloadSelectedInteractive()
{
    if (selectedNames().isEmpty()) return;
    const QString dir = m_chooseDownloadDir ? m_chooseDownloadDir()
                                            : FileDialogs::downloadFolder(this, tr("Download to"));
    if (dir.isEmpty()) return;
    const auto ids = downloadSelected(dir);
    setStatus(tr("%n download(s) queued to %1.", nullptr, int(ids.size())).arg(dir));
}

DragOutStaging *FilesTab::stageSelectionForDrag()
{
    const QStringList names = selectedNames();
    if (m_host.name.isEmpty() || names.isEmpty()) return nullptr;
    // Old staging folders can hold gigabytes: removed on a pool thread, not here.
    background::run(this, [root = m_dragStagingRoot](const CancelToken &) { DragOutStaging::removeStale(root); });
    QStringList paths;
    for (const QString &name : names) paths.append(transfer::remoteJoin(currentPath(), name));
    auto *staging = new DragOutStaging(m_queue, m_host.name, paths, DragOutStaging::newStagingDir(m_dragStagingRoot));
    staging->start();
    setStatus(tr("Downloading %n item(s) for the drop…", nullptr, int(paths.size())));
    return staging;
}

void FilesTab::dragOut()
{
    DragOutStaging *staging = stageSelectionForDrag();
    if (!staging) return;
    auto *drag = new QDrag(this);
    auto *data = new DragOutMimeData(staging, this);
    drag->setMimeData(data);
    staging->setParent(data);
    const Qt::DropAction action = drag->exec(Qt::CopyAction);
    if (std::exchange(m_droppedOnLocalPane, false)) {
        staging->cancel(); // the local pane queued its own downloads into the folder dropped on
        return;
    }
    if (data->machinePathsTaken()) {
        // Dropped onto another machine: the copy goes between the machines (its dialog asks where),
        // nothing comes here.
        staging->cancel();
        setStatus(QString());
        return;
    }
    if (action == Qt::IgnoreAction && !staging->isFinished()) {
        staging->cancel();
        setStatus(tr("Drag cancelled; its downloads were cancelled."));
    } else if (action != Qt::IgnoreAction) {
        setStatus(tr("Copied to the drop target (staged in %1).").arg(staging->stagingDir()));
    }
}

void FilesTab::dragEnterEvent(QDragEnterEvent *event)
{
    // Our own drag-out is not an upload.
    if (qobject_cast<FilesTab *>(event->source())) return;
    if (!m_connection || !event->mimeData()->hasUrls()) return;
    event->acceptProposedAction();
    // Where the drop goes, said over the list while the files hover over it (as FileZilla frames
    // its target).
    m_view->setDropTarget(tr("Drop to upload into %1 on %2").arg(text::printable(currentPath()), m_host.name));
}

void FilesTab::dragLeaveEvent(QDragLeaveEvent *event)
{
    m_view->setDropTarget(QString());
    DetailTab::dragLeaveEvent(event);
}

void FilesTab::dropEvent(QDropEvent *event)
{
    m_view->setDropTarget(QString());
    if (qobject_cast<FilesTab *>(event->source())) return;
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls()) {
        if (url.isLocalFile()) paths.append(url.toLocalFile());
    }
    if (paths.isEmpty()) return;
    uploadLocalPaths(paths);
    event->acceptProposedAction();
}

} // namespace gantry::ui
