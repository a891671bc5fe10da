#pragma once

#include "core/transfer/transferqueue.h"

#include <QAbstractTableModel>

namespace gantry::ui {

// The transfer queue as a table. Display strings for the view, raw values under
// UnderlyingDataRole so the proxy sorts numbers as numbers. Updates arrive batched from the
// queue (one dataChanged over the changed rows every 250 ms).
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

    explicit TransferQueueModel(transfer::TransferQueue *queue, QObject *parent = nullptr);

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
    transfer::TransferQueue *m_queue;
};

} // namespace gantry::ui
