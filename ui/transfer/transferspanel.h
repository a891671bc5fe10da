#pragma once

#include "core/storage/copyjobs.h"
#include "core/transfer/transferqueue.h"

#include <QWidget>

#include <functional>

class QLabel;
class QMenu;
class QPushButton;
class QSortFilterProxyModel;
class QTreeView;

namespace gantry::ui {

class TransferQueueModel;

// The transfer queue: every upload and download with its destination, progress bar, size, speed,
// time left and status (failed items keep their reason in the status column and tooltip; finished
// ones their duration, average speed and whether the SHA-256 was checked); pause, resume, cancel
// and retry for the selected items, and a context menu that also opens the local folder, shows the
// folder on the machine, copies the paths and removes rows; totals at the bottom. Installs the
// "destination exists" question on the queue.
class TransfersPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TransfersPanel)

public:
    // `copies`: the copies through a bucket or between machines, listed after the queue's items
    // (Cancel and Remove apply to them; they do not pause, and they do not outlive the app).
    explicit TransfersPanel(transfer::TransferQueue *queue, storage::CopyJobs *copies = nullptr, QWidget *parent = nullptr);

    transfer::TransferQueue *queue() const { return m_queue; }
    TransferQueueModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTreeView *view() const { return m_view; }
    QString summaryText() const;

    bool hasPendingTransfers(const QString &hostName = {}) const;
    // For "close the app" / "terminate the machine": true when nothing is pending or the user
    // agreed to stop the pending transfers (they are paused and resume on the next start).
    bool confirmStopPending(const QString &hostName, QWidget *dialogParent);

    // What a right click on the list opens, for the selection; the caller owns it.
    QMenu *contextMenu(QWidget *parent);
    // Seam for tests: opens a local folder in the desktop's file manager.
    void setFolderOpener(std::function<bool(const QString &folder)> open) { m_openFolder = std::move(open); }

signals:
    // "Show on the machine": the Files tab of host at folder.
    void showOnMachineRequested(const QString &host, const QString &folder);

public slots:
    void pauseSelected();
    void resumeSelected();
    void cancelSelected();
    void retrySelected();
    void removeSelected();
    void copySelectedPaths();
    void openLocalFolder();
    void showOnMachine();

private:
    void installConflictAsker();
    QList<quint64> selectedIds() const;
    void updateButtons();
    void updateSummary();
    void fitColumns();

    transfer::TransferQueue *m_queue;
    storage::CopyJobs *m_copies;
    TransferQueueModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTreeView *m_view;
    QPushButton *m_pause;
    QPushButton *m_resume;
    QPushButton *m_cancel;
    QPushButton *m_retry;
    QPushButton *m_clear;
    QLabel *m_summary;
    std::function<bool(const QString &)> m_openFolder;
};

} // namespace gantry::ui
