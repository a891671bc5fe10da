#include "ui/transfer/dragout.h"

#include "ui/common/machinepaths.h"

#include "core/transfer/remoteops.h"

#include <QDateTime>
#include <QDir>
#include <QEventLoop>
#include <QMessageBox>
#include <QProgressDialog>
#include <QTimer>

namespace gantry::ui {

using transfer::ItemState;
using transfer::TransferQueue;

namespace {
const QString uriListMime = QStringLiteral("text/uri-list");
} // namespace

DragOutStaging::DragOutStaging(TransferQueue *queue, QString host, QStringList remotePaths, QString stagingDir,
                               QObject *parent)
    : QObject(parent)
    , m_queue(queue)
    , m_host(std::move(host))
    , m_remotePaths(std::move(remotePaths))
    , m_stagingDir(std::move(stagingDir))
{
    connect(m_queue, &TransferQueue::itemFinished, this, [this](quint64 id, ItemState) {
        if (m_ids.contains(id) && isFinished()) emit finished();
    });
}

QString DragOutStaging::newStagingDir(const QString &root)
{
    const QString base = root + QLatin1Char('/') + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    QString dir = base;
    for (int n = 1; QFileInfo::exists(dir); ++n) dir = base + QLatin1Char('-') + QString::number(n);
    QDir().mkpath(dir);
    return dir;
}

int DragOutStaging::removeStale(const QString &root, int maxAgeHours)
{
    int removed = 0;
    const QDateTime cutoff = QDateTime::currentDateTimeUtc().addSecs(-qint64(maxAgeHours) * 3600);
    const QFileInfoList dirs = QDir(root).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QFileInfo &dir : dirs) {
        if (dir.lastModified().toUTC() < cutoff && QDir(dir.filePath()).removeRecursively()) ++removed;
    }
    return removed;
}

void DragOutStaging::start()
{
    if (!m_queue || !m_ids.isEmpty()) return;
    QDir().mkpath(m_stagingDir);
    for (const QString &remote : std::as_const(m_remotePaths)) {
        transfer::TransferRequest r;
        r.direction = transfer::Direction::Download;
        r.host = m_host;
        r.remotePath = remote;
        r.localPath = m_stagingDir + QLatin1Char('/');
        r.destinationIsDir = true;
        r.options.onConflict = transfer::ConflictPolicy::Overwrite; // the staging folder is ours and new
        m_ids.append(m_queue->enqueue(r));
    }
}

bool DragOutStaging::isFinished() const
{
    if (!m_queue) return true;
    for (quint64 id : m_ids) {
        const transfer::QueueItem *item = m_queue->item(id);
        if (item && item->isPending()) return false;
    }
    return true;
}

QList<QUrl> DragOutStaging::urls() const
{
    QList<QUrl> urls;
    for (const QString &remote : m_remotePaths) urls.append(QUrl::fromLocalFile(m_stagingDir + QLatin1Char('/') + transfer::remoteBaseName(remote)));
    return urls;
}

Result<QList<QUrl>> DragOutStaging::outcome() const
{
    if (m_cancelled) return Error{ErrorCode::Cancelled, tr("The drag was cancelled; nothing was copied.")};
    if (!m_queue) return Error{ErrorCode::Generic, tr("The transfer queue is gone.")};
    for (quint64 id : m_ids) {
        const transfer::QueueItem *item = m_queue->item(id);
        if (!item) continue; // removed from the panel after it finished
        if (item->state == ItemState::Failed) {
            return Error{item->errorCode, tr("Could not download %1 for the drag: %2").arg(item->request.remotePath, item->message)};
        }
        if (item->state == ItemState::Cancelled) {
            return Error{ErrorCode::Cancelled, tr("The download of %1 was cancelled.").arg(item->request.remotePath)};
        }
    }
    return urls();
}

Result<QList<QUrl>> DragOutStaging::waitForFiles(QWidget *progressParent, int timeoutMs)
{
    if (m_ids.isEmpty()) start();
    if (!isFinished()) {
        QEventLoop loop;
        connect(this, &DragOutStaging::finished, &loop, &QEventLoop::quit);
        QTimer deadline;
        if (timeoutMs >= 0) {
            deadline.setSingleShot(true);
            connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
            deadline.start(timeoutMs);
        }
        std::unique_ptr<QProgressDialog> dialog;
        if (progressParent) {
            dialog = std::make_unique<QProgressDialog>(tr("Downloading from %1 for the drop…").arg(m_host), tr("Cancel"), 0,
                                                       1000, progressParent);
            dialog->setWindowModality(Qt::WindowModal);
            dialog->setMinimumDuration(400);
            connect(dialog.get(), &QProgressDialog::canceled, &loop, [this, &loop] {
                cancel();
                loop.quit();
            });
            connect(m_queue, &TransferQueue::itemsChanged, dialog.get(), [this, d = dialog.get()] {
                quint64 done = 0, total = 0;
                for (quint64 id : std::as_const(m_ids)) {
                    if (const transfer::QueueItem *item = m_queue->item(id)) {
                        done += item->progress.bytesDone;
                        total += item->progress.bytesTotal;
                    }
                }
                if (total > 0) d->setValue(int(done * 1000 / total));
            });
        }
        loop.exec();
        if (!isFinished()) {
            if (!m_cancelled) return Error{ErrorCode::Timeout, tr("The download for the drop is still running; it continues in the transfers panel.")};
        }
    }
    return outcome();
}

void DragOutStaging::cancel()
{
    m_cancelled = true;
    if (!m_queue) return;
    for (quint64 id : std::as_const(m_ids)) {
        const transfer::QueueItem *item = m_queue->item(id);
        if (item && item->isPending()) m_queue->cancel(id);
    }
}

DragOutMimeData::DragOutMimeData(DragOutStaging *staging, QWidget *progressParent)
    : m_staging(staging)
    , m_progressParent(progressParent)
{
}

QStringList DragOutMimeData::formats() const
{
    return {uriListMime, kMachinePathsMime};
}

bool DragOutMimeData::hasFormat(const QString &mimeType) const
{
    return mimeType == uriListMime || mimeType == kMachinePathsMime;
}

QVariant DragOutMimeData::retrieveData(const QString &mimeType, QMetaType type) const
{
    if (mimeType == kMachinePathsMime && m_staging) {
        m_machinePathsTaken = true;
        return encodeMachinePaths({m_staging->host(), m_staging->remotePaths()});
    }
    if (mimeType != uriListMime || !m_staging) return QMimeData::retrieveData(mimeType, type);
    auto files = m_staging->waitForFiles(m_progressParent);
    if (!files) {
        if (m_progressParent && !m_failureShown && files.error().code != ErrorCode::Cancelled) {
            m_failureShown = true; // targets ask more than once per drop
            QMessageBox::warning(m_progressParent, tr("Drag and drop"), files.error().message);
        }
        return {};
    }
    QList<QVariant> urls;
    for (const QUrl &url : *files) urls.append(url);
    return urls;
}

} // namespace gantry::ui
