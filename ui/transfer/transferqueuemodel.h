#pragma once

#include "core/storage/copyjobs.h"
#include "core/transfer/transferqueue.h"

#include <QAbstractTableModel>

namespace gantry::ui {

// The transfer queue as a table, and after its items the copies through a bucket or between
// machines (storage::CopyJobs, when given): every transfer in one list. Display strings for the
// view, raw values under UnderlyingDataRole so the proxy sorts numbers as numbers. Updates arrive
// batched from the queue and the copies (one dataChanged over the changed rows every 250 ms).
class TransferQueueModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TransferQueueModel)

public:
    enum Column
    {
        NameColumn,
        DirectionColumn,
        HostColumn,
        DestinationColumn, // host:path of an upload, the local path of a download (after a rename: the new name)
        ProgressColumn,
        SizeColumn,
        SpeedColumn,
        EtaColumn,
        StateColumn,
        ColumnCount
    };
    enum Role
    {
        UnderlyingDataRole = Qt::UserRole,
        ItemIdRole,
    };

    // ItemIdRole of a copy's row: its CopyJobs id with this bit set.
    static constexpr quint64 kCopyRowBit = 1ULL << 63;
    static bool isCopyId(quint64 id) { return (id & kCopyRowBit) != 0; }
    static quint64 copyJobId(quint64 id) { return id & ~kCopyRowBit; }

    explicit TransferQueueModel(transfer::TransferQueue *queue, storage::CopyJobs *copies = nullptr, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    quint64 idAt(int row) const;

    static QString formatDuration(qint64 seconds);
    // Where an item goes: the settled destination once known, else the requested one.
    static QString destinationText(const transfer::QueueItem &item);
    // The Status column: "Failed: why", or "Done · resumed · verified" (SHA-256 checked).
    static QString stateText(const transfer::QueueItem &item);

private:
    int queueRows() const { return int(m_queue->items().size()); }
    void followCopies();

    transfer::TransferQueue *m_queue;
    storage::CopyJobs *m_copies;
};

} // namespace gantry::ui
