#include "ui/transfer/filestab.h"

#include "ui/transfer/dragout.h"
#include "ui/transfer/remotedirmodel.h"

#include "ui/sync/syncdialog.h"
#include "core/sync/syncservice.h"
#include "ui/sync/syncstrip.h"

#include "core/util/background.h"
#include "core/ssh/connection.h"
#include "core/transfer/remoteops.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDrag>
#include <QLocale>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
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
#include <QStandardPaths>
#include <QTreeView>
#include <QVBoxLayout>

namespace gantry::ui {

using transfer::SftpClient;
using transfer::SftpEntry;

FilesTab::FilesTab(const AppContext &context, transfer::TransferQueue *queue, sync::SyncService *syncPairs, QWidget *parent)
    : DetailTab(parent)
    , m_context(context)
    , m_queue(queue)
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
    auto *statusBar = new QHBoxLayout;
    statusBar->addWidget(m_status, 1);
    statusBar->addWidget(m_stop);
    m_stop->setVisible(false);
    m_stop->setToolTip(tr("Stop the running operation on the machine"));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
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
    connect(m_queue, &transfer::TransferQueue::itemFinished, this, [this](quint64 id, transfer::ItemState) {
        const transfer::QueueItem *it = m_queue->item(id);
        if (it && it->request.host == m_host.name && it->request.direction == transfer::Direction::Upload && !isBusy()) refresh();
    });
    connect(m_syncStrip, &SyncStrip::openRequested, this, [this](const QString &local, const QString &remote) {
        SyncDialog::open(m_sync, m_host.name, currentPath(), this, local, remote);
    });
}

void FilesTab::setMachine(const SavedHost &host, ssh::Connection *connection)
{
    const bool sameHost = host.name == m_host.name && connection == m_connection;
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
    if (!sameHost || m_model->path().isEmpty()) navigate(QStringLiteral("."));
}

void FilesTab::clearMachine()
{
    stopOperation();
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

void FilesTab::setBusy(const Cancel &cancel)
{
    m_running = cancel;
    m_stop->setVisible(cancel != nullptr);
}

void FilesTab::stopOperation()
{
    if (!m_running) return;
    m_running->store(true);
    setBusy(nullptr);
    ++m_generation; // whatever it still reports is dropped
    setStatus(tr("Stopped."));
    QMetaObject::invokeMethod(this, &FilesTab::refresh, Qt::QueuedConnection); // show what is left
}

void FilesTab::runJob(const QString &path, const QString &busyText, Job job)
{
    if (!m_connection) return;
    const quint64 generation = ++m_generation;
    if (m_running) m_running->store(true); // a newer request replaces the running one
    const Cancel cancel = std::make_shared<std::atomic_bool>(false);
    setBusy(cancel);
    QPointer<FilesTab> self(this);
    setStatus(busyText.isEmpty() ? tr("Loading %1…").arg(path) : busyText);
    m_connection->post([self, generation, path, job, cancel](ssh::Session &session) {
        struct Outcome
        {
            QString path;
            Result<void> step;
            Result<QList<SftpEntry>> entries = QList<SftpEntry>{};
        };
        auto outcome = std::make_shared<Outcome>();
        outcome->path = path;
        if (!session.isConnected()) {
            outcome->entries = Error{ErrorCode::ConnectFailed, tr("Not connected.")};
        } else if (auto sftp = SftpClient::start(session.handle(), session.target().display()); !sftp) {
            outcome->entries = sftp.error();
        } else if (!cancel->load()) {
            outcome->step = job(**sftp, session, cancel.get());
            if (auto resolved = (*sftp)->realpath(path)) outcome->path = *resolved;
            outcome->entries = (*sftp)->list(outcome->path);
        }
        // The application, not self, as the context: a QPointer is read on the GUI thread only.
        QMetaObject::invokeMethod(
            QCoreApplication::instance(), [self, generation, outcome] {
                if (self) self->showListing(generation, outcome->path, outcome->entries, outcome->step);
            },
            Qt::QueuedConnection);
    });
}

void FilesTab::showListing(quint64 generation, const QString &path, const Result<QList<SftpEntry>> &entries,
                           const Result<void> &step)
{
    if (generation != m_generation) return;
    setBusy(nullptr);
    if (!entries) {
        setStatus(entries.error().message);
        emit operationFailed(entries.error().message);
        return;
    }
    m_model->setEntries(path, *entries);
    m_pathEdit->setText(path);
    m_view->setEmptyHint(tr("This folder is empty.\nDrop files here or press Ctrl+U to upload."));
    updateActions();
    if (!step) {
        setStatus(step.error().message);
        emit operationFailed(step.error().message);
    } else {
        setStatus(tr("%n item(s) in %1", nullptr, int(entries->size())).arg(path));
    }
    emit listed(path);
}

void FilesTab::navigate(const QString &path)
{
    runJob(path.isEmpty() ? QStringLiteral(".") : path, QString(),
           [](SftpClient &, ssh::Session &, const std::atomic_bool *) -> Result<void> { return {}; });
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
    if (!m_connection || currentPath().isEmpty()) return;
    const QString name = m_ask ? m_ask(tr("New folder name:"), QString())
                               : QInputDialog::getText(this, tr("New folder"), tr("New folder name:"));
    if (name.isEmpty()) return;
    if (auto ok = transfer::checkNewName(name); !ok) {
        setStatus(ok.error().message);
        return;
    }
    const QString path = transfer::remoteJoin(currentPath(), name);
    runJob(currentPath(), tr("Creating %1…").arg(path),
           [path](SftpClient &sftp, ssh::Session &, const std::atomic_bool *) { return sftp.mkdir(path); });
}

void FilesTab::renameSelected()
{
    const QStringList names = selectedNames();
    if (names.size() != 1) return;
    const QString to = m_ask ? m_ask(tr("New name:"), names.first())
                             : QInputDialog::getText(this, tr("Rename"), tr("New name:"), QLineEdit::Normal, names.first());
    if (to.isEmpty() || to == names.first()) return;
    if (auto ok = transfer::checkNewName(to); !ok) {
        setStatus(ok.error().message);
        return;
    }
    const QString from = transfer::remoteJoin(currentPath(), names.first());
    runJob(currentPath(), tr("Renaming %1…").arg(from),
           [from, to](SftpClient &sftp, ssh::Session &, const std::atomic_bool *) -> Result<void> {
               auto renamed = transfer::renameRemote(sftp, from, to);
               if (!renamed) return renamed.error();
               return {};
           });
}

// First the count (a folder's files are counted on the machine), then the question, then the delete.
void FilesTab::deleteSelected()
{
    const QStringList paths = selectedPaths();
    if (paths.isEmpty() || !m_connection) return;
    const quint64 generation = ++m_generation;
    const Cancel cancel = std::make_shared<std::atomic_bool>(false);
    setBusy(cancel);
    setStatus(tr("Counting what %n item(s) hold…", nullptr, int(paths.size())));
    QPointer<FilesTab> self(this);
    m_connection->post([self, generation, paths, cancel](ssh::Session &session) {
        Result<transfer::RemoteTreeCount> total = transfer::RemoteTreeCount{};
        auto sftp = session.isConnected() ? SftpClient::start(session.handle(), session.target().display())
                                          : Result<std::unique_ptr<SftpClient>>(Error{ErrorCode::ConnectFailed, tr("Not connected.")});
        if (!sftp) total = sftp.error();
        for (qsizetype i = 0; sftp && total && i < paths.size(); ++i) {
            auto one = transfer::countRemoteTree(session, **sftp, paths[i], cancel.get());
            if (!one) {
                total = one.error();
                break;
            }
            total->isDir = total->isDir || one->isDir;
            total->files += one->files;
            total->folders += one->folders;
        }
        QMetaObject::invokeMethod(
            self.data(), [self, generation, paths, total] {
                if (!self || generation != self->m_generation) return;
                self->setBusy(nullptr);
                self->confirmAndDelete(paths, total);
            },
            Qt::QueuedConnection);
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
                              : QMessageBox::question(this, tr("Delete"), question, QMessageBox::Yes | QMessageBox::No,
                                                      QMessageBox::No) == QMessageBox::Yes;
    if (!ok) {
        setStatus(tr("Nothing deleted."));
        return;
    }
    runJob(currentPath(), tr("Deleting %n item(s)…", nullptr, int(paths.size())),
           [paths](SftpClient &sftp, ssh::Session &session, const std::atomic_bool *cancel) -> Result<void> {
               for (const QString &p : paths) {
                   if (auto r = transfer::removeRemote(session, sftp, p, true, cancel); !r) return r.error();
               }
               return {};
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
                                            : QFileDialog::getExistingDirectory(
                                                  this, tr("Download to"), QStandardPaths::writableLocation(QStandardPaths::DownloadLocation));
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
    drag->setMimeData(new DragOutMimeData(staging, this));
    staging->setParent(drag->mimeData());
    const Qt::DropAction action = drag->exec(Qt::CopyAction);
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
    if (m_connection && event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void FilesTab::dropEvent(QDropEvent *event)
{
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
