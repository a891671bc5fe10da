#include "filestab.h"

#include "dragout.h"
#include "remotedirmodel.h"

#include "ssh/connection.h"
#include "transfer/remoteops.h"

#include <QCoreApplication>
#include <QDrag>
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
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QThreadPool>
#include <QTreeView>
#include <QVBoxLayout>

namespace gantry::ui {

using transfer::SftpClient;
using transfer::SftpEntry;

FilesTab::FilesTab(const AppContext &context, transfer::TransferQueue *queue, QWidget *parent)
    : DetailTab(parent)
    , m_context(context)
    , m_queue(queue)
    , m_model(new RemoteDirModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new RemoteFilesView(this))
    , m_pathEdit(new QLineEdit(this))
    , m_status(new QLabel(this))
{
    setAcceptDrops(true);
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
    m_dragStagingRoot = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/drag-out");
    m_view->header()->setStretchLastSection(true);
    m_view->setColumnWidth(RemoteDirModel::NameColumn, 280);

    auto *bar = new QHBoxLayout;
    auto addButton = [&](const QString &text, void (FilesTab::*slot)()) {
        auto *b = new QPushButton(text, this);
        connect(b, &QPushButton::clicked, this, slot);
        bar->addWidget(b);
        m_buttons.append(b);
    };
    addButton(tr("Up"), &FilesTab::goUp);
    bar->addWidget(m_pathEdit, 1);
    addButton(tr("Refresh"), &FilesTab::refresh);
    addButton(tr("New folder"), &FilesTab::makeFolder);
    addButton(tr("Rename"), &FilesTab::renameSelected);
    addButton(tr("Delete"), &FilesTab::deleteSelected);
    addButton(tr("Download…"), &FilesTab::downloadSelectedInteractive);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
    m_status->setWordWrap(true);

    connect(m_pathEdit, &QLineEdit::returnPressed, this, [this] { navigate(m_pathEdit->text()); });
    connect(m_view, &QTreeView::doubleClicked, this, [this](const QModelIndex &index) {
        const QModelIndex src = m_proxy->mapToSource(index);
        if (src.data(RemoteDirModel::IsDirRole).toBool()) {
            navigate(transfer::remoteJoin(currentPath(), m_model->entry(src.row()).name));
        }
    });
    connect(m_queue, &transfer::TransferQueue::itemFinished, this, [this](quint64 id, transfer::ItemState) {
        const transfer::QueueItem *it = m_queue->item(id);
        if (it && it->request.host == m_host.name && it->request.direction == transfer::Direction::Upload) refresh();
    });
    clearMachine();
}

void FilesTab::setMachine(const SavedHost &host, ssh::Connection *connection)
{
    const bool sameHost = host.name == m_host.name && connection == m_connection;
    m_host = host;
    m_connection = connection;
    for (QPushButton *b : std::as_const(m_buttons)) b->setEnabled(connection != nullptr);
    m_pathEdit->setEnabled(connection != nullptr);
    if (!connection) {
        m_model->clear();
        setStatus(tr("Connect to %1 to browse its files. You can drop files here once connected.").arg(host.name));
        return;
    }
    if (!sameHost || m_model->path().isEmpty()) navigate(QStringLiteral("."));
}

void FilesTab::clearMachine()
{
    m_host = SavedHost{};
    m_connection = nullptr;
    m_model->clear();
    m_pathEdit->clear();
    for (QPushButton *b : std::as_const(m_buttons)) b->setEnabled(false);
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

void FilesTab::runJob(const QString &path, Job job)
{
    if (!m_connection) return;
    const quint64 generation = ++m_generation;
    QPointer<FilesTab> self(this);
    setStatus(tr("Loading %1…").arg(path));
    m_connection->post([self, generation, path, job](ssh::Session &session) {
        struct Listing
        {
            QString path;
            Result<QList<SftpEntry>> entries = QList<SftpEntry>{};
        };
        auto listing = std::make_shared<Listing>();
        listing->path = path;
        if (!session.isConnected()) {
            listing->entries = Error{ErrorCode::ConnectFailed, tr("Not connected.")};
        } else if (auto sftp = SftpClient::start(session.handle(), session.target().display()); !sftp) {
            listing->entries = sftp.error();
        } else {
            auto resolved = (*sftp)->realpath(path);
            if (resolved) listing->path = *resolved;
            listing->entries = job(**sftp, session);
            if (listing->entries) listing->entries = (*sftp)->list(listing->path);
        }
        // The application, not self, as the context: a QPointer is read on the GUI thread only.
        QMetaObject::invokeMethod(
            QCoreApplication::instance(), [self, generation, listing] {
                if (!self || generation != self->m_generation) return;
                if (!listing->entries) {
                    self->setStatus(listing->entries.error().message);
                    emit self->operationFailed(listing->entries.error().message);
                    return;
                }
                self->m_model->setEntries(listing->path, *listing->entries);
                self->m_pathEdit->setText(listing->path);
                self->setStatus(tr("%n item(s) in %1", nullptr, int(listing->entries->size())).arg(listing->path));
                emit self->listed(listing->path);
            },
            Qt::QueuedConnection);
    });
}

void FilesTab::navigate(const QString &path)
{
    runJob(path.isEmpty() ? QStringLiteral(".") : path,
           [](SftpClient &, ssh::Session &) -> Result<QList<SftpEntry>> { return QList<SftpEntry>{}; });
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

void FilesTab::makeFolder()
{
    const QString name = m_ask ? m_ask(tr("New folder name:"), QString())
                               : QInputDialog::getText(this, tr("New folder"), tr("New folder name:"));
    if (name.isEmpty() || name.contains(QLatin1Char('/'))) return;
    const QString path = transfer::remoteJoin(currentPath(), name);
    runJob(currentPath(), [path](SftpClient &sftp, ssh::Session &) -> Result<QList<SftpEntry>> {
        if (auto r = sftp.mkdir(path); !r) return r.error();
        return QList<SftpEntry>{};
    });
}

void FilesTab::renameSelected()
{
    const QStringList names = selectedNames();
    if (names.size() != 1) return;
    const QString to = m_ask ? m_ask(tr("New name:"), names.first())
                             : QInputDialog::getText(this, tr("Rename"), tr("New name:"), QLineEdit::Normal, names.first());
    if (to.isEmpty() || to == names.first() || to.contains(QLatin1Char('/'))) return;
    const QString from = transfer::remoteJoin(currentPath(), names.first());
    const QString target = transfer::remoteJoin(currentPath(), to);
    runJob(currentPath(), [from, target](SftpClient &sftp, ssh::Session &) -> Result<QList<SftpEntry>> {
        if (sftp.stat(target)) {
            return Error{ErrorCode::Conflict, tr("%1 already exists; pick another name.").arg(target)};
        }
        if (auto r = sftp.rename(from, target, false); !r) return r.error();
        return QList<SftpEntry>{};
    });
}

void FilesTab::deleteSelected()
{
    const QStringList names = selectedNames();
    if (names.isEmpty()) return;
    const QString question = names.size() == 1
                                 ? tr("Delete %1 on %2? Folders are deleted with everything in them. This cannot be undone.")
                                       .arg(transfer::remoteJoin(currentPath(), names.first()), m_host.name)
                                 : tr("Delete %n item(s) in %1 on %2? This cannot be undone.", nullptr, int(names.size()))
                                       .arg(currentPath(), m_host.name);
    const bool ok = m_confirm ? m_confirm(question)
                              : QMessageBox::question(this, tr("Delete"), question, QMessageBox::Yes | QMessageBox::No,
                                                      QMessageBox::No) == QMessageBox::Yes;
    if (!ok) return;
    QStringList paths;
    for (const QString &n : names) paths.append(transfer::remoteJoin(currentPath(), n));
    runJob(currentPath(), [paths](SftpClient &sftp, ssh::Session &session) -> Result<QList<SftpEntry>> {
        for (const QString &p : paths) {
            auto st = sftp.lstat(p);
            if (!st) return st.error();
            if (st->isDir()) {
                // SFTP has no recursive delete; rm -r on the host is one round trip.
                auto out = session.run(QStringLiteral("rm -rf -- %1").arg(ssh::shellQuote(p)));
                if (!out) return out.error();
                if (out->exitStatus != 0) {
                    return Error{ErrorCode::RemoteFailed, tr("Cannot delete %1: %2").arg(p, QString::fromUtf8(out->err).trimmed())};
                }
            } else if (auto r = sftp.remove(p); !r) {
                return r.error();
            }
        }
        return QList<SftpEntry>{};
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
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Download to"), QStandardPaths::writableLocation(QStandardPaths::DownloadLocation));
    if (!dir.isEmpty()) downloadSelected(dir);
}

DragOutStaging *FilesTab::stageSelectionForDrag()
{
    const QStringList names = selectedNames();
    if (m_host.name.isEmpty() || names.isEmpty()) return nullptr;
    // Old staging folders can hold gigabytes: removed on a pool thread, not here.
    QThreadPool::globalInstance()->start([root = m_dragStagingRoot] { DragOutStaging::removeStale(root); });
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
