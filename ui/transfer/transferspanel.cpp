#include "ui/transfer/transferspanel.h"

#include "ui/common/confirm.h"

#include "ui/transfer/progressdelegate.h"
#include "ui/transfer/transferqueuemodel.h"

#include "core/transfer/remoteops.h"
#include "core/transfer/speedmeter.h"

#include <QClipboard>
#include <QDesktopServices>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QMenu>
#include <QUrl>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStyle>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace gantry::ui {

using transfer::ConflictPolicy;
using transfer::ItemState;

TransfersPanel::TransfersPanel(transfer::TransferQueue *queue, storage::CopyJobs *copies, QWidget *parent)
    : QWidget(parent)
    , m_queue(queue)
    , m_copies(copies)
    , m_model(new TransferQueueModel(queue, copies, this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTreeView(this))
    , m_pause(new QPushButton(tr("Pause"), this))
    , m_resume(new QPushButton(tr("Resume"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_retry(new QPushButton(tr("Retry"), this))
    , m_clear(new QPushButton(tr("Clear finished"), this))
    , m_summary(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(TransferQueueModel::UnderlyingDataRole);
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // queue order until the user sorts
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setItemDelegateForColumn(TransferQueueModel::ProgressColumn, new ProgressDelegate(this));
    m_view->setTextElideMode(Qt::ElideMiddle); // paths: both ends say most
    m_view->header()->setStretchLastSection(true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        const QModelIndex at = m_view->indexAt(pos);
        if (!at.isValid()) return;
        if (!m_view->selectionModel()->isRowSelected(at.row(), at.parent())) m_view->setCurrentIndex(at); // right click picks the row
        QMenu *menu = contextMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_view->viewport()->mapToGlobal(pos));
    });
    m_openFolder = [](const QString &folder) { return QDesktopServices::openUrl(QUrl::fromLocalFile(folder)); };
    fitColumns();

    auto *buttons = new QHBoxLayout;
    for (QPushButton *b : {m_pause, m_resume, m_cancel, m_retry, m_clear}) buttons->addWidget(b);
    buttons->addStretch();
    buttons->addWidget(m_summary);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(m_view);

    connect(m_pause, &QPushButton::clicked, this, &TransfersPanel::pauseSelected);
    connect(m_resume, &QPushButton::clicked, this, &TransfersPanel::resumeSelected);
    connect(m_cancel, &QPushButton::clicked, this, &TransfersPanel::cancelSelected);
    connect(m_retry, &QPushButton::clicked, this, &TransfersPanel::retrySelected);
    connect(m_clear, &QPushButton::clicked, m_queue, &transfer::TransferQueue::removeFinished);
    if (m_copies) {
        connect(m_clear, &QPushButton::clicked, m_copies, &storage::CopyJobs::removeFinished);
        connect(m_copies, &storage::CopyJobs::jobsChanged, this, &TransfersPanel::updateButtons);
        connect(m_copies, &storage::CopyJobs::jobsChanged, this, &TransfersPanel::updateSummary);
        connect(m_copies, &storage::CopyJobs::jobRemoved, this, &TransfersPanel::updateSummary);
        connect(m_copies, &storage::CopyJobs::jobAdded, this, &TransfersPanel::updateSummary);
    }
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &TransfersPanel::updateButtons);
    connect(m_queue, &transfer::TransferQueue::itemsChanged, this, &TransfersPanel::updateButtons);
    connect(m_queue, &transfer::TransferQueue::totalsChanged, this, &TransfersPanel::updateSummary);

    installConflictAsker();
    updateButtons();
    updateSummary();
}

void TransfersPanel::installConflictAsker()
{
    m_queue->setConflictAsker([this](const QString &host, const QString &destination, bool isDir) {
        QMessageBox box(QMessageBox::Question, tr("Destination exists"),
                        isDir ? tr("The folder %1 already exists on %2. Files that differ:").arg(destination, host)
                              : tr("%1 already exists on %2.").arg(destination, host),
                        QMessageBox::NoButton, this);
        QPushButton *overwrite = box.addButton(tr("Overwrite"), QMessageBox::DestructiveRole);
        QPushButton *resume = box.addButton(isDir ? tr("Keep same-size files") : tr("Resume"), QMessageBox::AcceptRole);
        QPushButton *skip = box.addButton(tr("Skip"), QMessageBox::RejectRole);
        QPushButton *rename = box.addButton(tr("Keep both (rename)"), QMessageBox::ActionRole);
        makeCancelDefault(box);
        box.exec();
        if (box.clickedButton() == overwrite) return ConflictPolicy::Overwrite;
        if (box.clickedButton() == resume) return ConflictPolicy::Resume;
        if (box.clickedButton() == skip) return ConflictPolicy::Skip;
        if (box.clickedButton() == rename) return ConflictPolicy::Rename;
        return ConflictPolicy::Ask; // the item fails with "already exists" and can be retried
    });
}

QList<quint64> TransfersPanel::selectedIds() const
{
    QList<quint64> ids;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &index : rows) {
        ids.append(index.data(TransferQueueModel::ItemIdRole).value<quint64>());
    }
    return ids;
}

void TransfersPanel::pauseSelected()
{
    for (quint64 id : selectedIds()) m_queue->pause(id);
}

void TransfersPanel::resumeSelected()
{
    for (quint64 id : selectedIds()) m_queue->resume(id);
}

void TransfersPanel::cancelSelected()
{
    for (quint64 id : selectedIds()) {
        if (TransferQueueModel::isCopyId(id))
            m_copies->cancel(TransferQueueModel::copyJobId(id));
        else
            m_queue->cancel(id);
    }
}

void TransfersPanel::retrySelected()
{
    for (quint64 id : selectedIds()) m_queue->retry(id);
}

void TransfersPanel::removeSelected()
{
    for (quint64 id : selectedIds()) {
        if (TransferQueueModel::isCopyId(id)) {
            const storage::CopyJob *job = m_copies->job(TransferQueueModel::copyJobId(id));
            if (job && !job->isRunning())
                m_copies->remove(job->id);
        } else {
            m_queue->remove(id);
        }
    }
}

void TransfersPanel::copySelectedPaths()
{
    QStringList paths;
    for (quint64 id : selectedIds()) {
        if (const transfer::QueueItem *it = m_queue->item(id)) paths << TransferQueueModel::destinationText(*it);
    }
    if (!paths.isEmpty()) QGuiApplication::clipboard()->setText(paths.join(QLatin1Char('\n')));
}

void TransfersPanel::openLocalFolder()
{
    const QList<quint64> ids = selectedIds();
    const transfer::QueueItem *it = ids.size() == 1 ? m_queue->item(ids.first()) : nullptr;
    if (it && m_openFolder) m_openFolder(it->localFolder());
}

void TransfersPanel::showOnMachine()
{
    const QList<quint64> ids = selectedIds();
    if (const transfer::QueueItem *it = ids.size() == 1 ? m_queue->item(ids.first()) : nullptr)
        emit showOnMachineRequested(it->request.host, it->remoteFolder());
}

QMenu *TransfersPanel::contextMenu(QWidget *parent)
{
    auto *menu = new QMenu(parent);
    const QList<quint64> ids = selectedIds();
    bool removable = false;
    for (quint64 id : ids) {
        if (TransferQueueModel::isCopyId(id)) {
            const storage::CopyJob *job = m_copies->job(TransferQueueModel::copyJobId(id));
            removable |= job && !job->isRunning();
            continue;
        }
        const transfer::QueueItem *it = m_queue->item(id);
        removable |= it && (it->isFinished() || it->state == ItemState::Failed);
    }
    const bool onlyQueue = std::none_of(ids.cbegin(), ids.cend(), TransferQueueModel::isCopyId); // a copy has no local folder or path of its own
    const bool one = ids.size() == 1 && onlyQueue;
    menu->addAction(tr("Open local folder"), this, &TransfersPanel::openLocalFolder)->setEnabled(one);
    menu->addAction(tr("Show on the machine"), this, &TransfersPanel::showOnMachine)->setEnabled(one);
    menu->addAction(tr("Copy path"), this, &TransfersPanel::copySelectedPaths)->setEnabled(!ids.isEmpty() && onlyQueue);
    menu->addSeparator();
    for (QPushButton *button : {m_pause, m_resume, m_cancel, m_retry}) {
        QAction *action = menu->addAction(button->text(), button, &QPushButton::click);
        action->setEnabled(button->isEnabled());
    }
    menu->addAction(tr("Remove from list"), this, &TransfersPanel::removeSelected)->setEnabled(removable);
    return menu;
}

void TransfersPanel::updateButtons()
{
    bool canPause = false, canResume = false, canCancel = false, canRetry = false;
    for (quint64 id : selectedIds()) {
        if (TransferQueueModel::isCopyId(id)) {
            const storage::CopyJob *job = m_copies->job(TransferQueueModel::copyJobId(id));
            canCancel |= job && job->isRunning();
            continue;
        }
        const transfer::QueueItem *it = m_queue->item(id);
        if (!it) continue;
        canPause |= it->state == ItemState::Running || it->state == ItemState::Queued;
        canResume |= it->state == ItemState::Paused;
        canCancel |= it->isPending() || it->state == ItemState::Failed;
        canRetry |= it->state == ItemState::Failed || it->state == ItemState::Cancelled;
    }
    m_pause->setEnabled(canPause);
    m_resume->setEnabled(canResume);
    m_cancel->setEnabled(canCancel);
    m_retry->setEnabled(canRetry);
}

QString TransfersPanel::summaryText() const
{
    int running = 0, queued = 0, failed = 0;
    for (const transfer::QueueItem &it : m_queue->items()) {
        running += it.state == ItemState::Running;
        queued += it.state == ItemState::Queued || it.state == ItemState::Paused;
        failed += it.state == ItemState::Failed;
    }
    if (m_copies) {
        for (const storage::CopyJob &job : m_copies->jobs()) {
            running += job.isRunning();
            failed += job.state == storage::CopyJobState::Failed;
        }
    }
    const transfer::TransferProgress t = m_queue->totals();
    const double speed = m_queue->totalBytesPerSecond();
    QString text = tr("%1 running, %2 waiting, %3 failed").arg(running).arg(queued).arg(failed);
    if (t.bytesTotal > 0) {
        text += tr(" · %1 of %2").arg(transfer::formatBytes(t.bytesDone), transfer::formatBytes(t.bytesTotal));
    }
    if (speed > 0) {
        const qint64 eta = transfer::SpeedMeter::eta(t.bytesTotal > t.bytesDone ? t.bytesTotal - t.bytesDone : 0, speed);
        text += tr(" · %1/s · %2 left").arg(transfer::formatBytes(quint64(speed)), TransferQueueModel::formatDuration(eta));
    }
    return text;
}

// Widths from what the columns show at their widest (and never less than the header), so sizes
// like "1023.9 MB of 1023.9 MB" and every header fit in any language and font.
void TransfersPanel::fitColumns()
{
    const QFontMetrics fm = m_view->fontMetrics();
    const int pad = 2 * m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 12;
    const int sortArrow = m_view->header()->style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, m_view->header());
    auto fit = [&](int column, const QStringList &samples, int atLeast = 0) {
        int width = m_view->header()->fontMetrics().horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString())
                    + sortArrow + pad;
        for (const QString &sample : samples) width = std::max(width, fm.horizontalAdvance(sample) + pad);
        m_view->setColumnWidth(column, std::max(width, atLeast));
    };
    const QString big = transfer::formatBytes(1023ull * 1024 * 1024 + 900ull * 1024 * 1024 / 1000);
    fit(TransferQueueModel::NameColumn, {}, fm.horizontalAdvance(QLatin1Char('x')) * 20);
    fit(TransferQueueModel::DirectionColumn, {tr("Upload"), tr("Download"), TransferQueueModel::tr("Copy")});
    fit(TransferQueueModel::HostColumn, {}, fm.horizontalAdvance(QLatin1Char('x')) * 8);
    fit(TransferQueueModel::DestinationColumn, {}, fm.horizontalAdvance(QLatin1Char('x')) * 18); // elided in the middle
    fit(TransferQueueModel::ProgressColumn, {QStringLiteral("100%"), TransferQueueModel::tr("copying…")}, fm.horizontalAdvance(QLatin1Char('x')) * 11);
    fit(TransferQueueModel::SizeColumn, {tr("%1 of %2").arg(big, big)});
    // Finished rows say their average speed and how long they took (the model's words).
    const QString hour = TransferQueueModel::formatDuration(59 * 60 + 59);
    fit(TransferQueueModel::SpeedColumn, {tr("%1/s").arg(big), TransferQueueModel::tr("avg %1/s").arg(big)});
    fit(TransferQueueModel::EtaColumn, {hour, TransferQueueModel::tr("took %1").arg(hour)});
}

void TransfersPanel::updateSummary()
{
    m_summary->setText(summaryText());
}

bool TransfersPanel::hasPendingTransfers(const QString &hostName) const
{
    return m_queue->hasPendingTransfers(hostName) || (m_copies && m_copies->hasRunning(hostName));
}

bool TransfersPanel::confirmStopPending(const QString &hostName, QWidget *dialogParent)
{
    if (!hasPendingTransfers(hostName)) return true;
    const QString text = hostName.isEmpty()
                             ? tr("Transfers are still running. Stop them? Unfinished transfers resume when Gantry starts again.")
                             : tr("Transfers to %1 are still running. Stop them? Files not yet transferred will be missing "
                                  "if the machine is terminated.").arg(hostName);
    return askDestructive(dialogParent, tr("Transfers pending"), text, QMessageBox::No);
}

} // namespace gantry::ui
