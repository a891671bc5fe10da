#include "ui/transfer/transferqueuemodel.h"

#include "core/transfer/remoteops.h"
#include "core/util/printable.h"
#include "ui/transfer/copyrows.h"

namespace gantry::ui {

using transfer::ItemState;
using transfer::QueueItem;

TransferQueueModel::TransferQueueModel(transfer::TransferQueue *queue, storage::CopyJobs *copies, QObject *parent)
    : QAbstractTableModel(parent)
    , m_queue(queue)
    , m_copies(copies)
{
    followCopies();
    connect(queue, &transfer::TransferQueue::itemAboutToBeAdded, this, [this](int row) { beginInsertRows({}, row, row); });
    connect(queue, &transfer::TransferQueue::itemAdded, this, [this](int) { endInsertRows(); });
    connect(queue, &transfer::TransferQueue::itemAboutToBeRemoved, this, [this](int row) { beginRemoveRows({}, row, row); });
    connect(queue, &transfer::TransferQueue::itemRemoved, this, [this](int) { endRemoveRows(); });
    connect(queue, &transfer::TransferQueue::itemsChanged, this, [this](int first, int last) {
        emit dataChanged(index(first, 0), index(last, ColumnCount - 1));
    });
}

// The copies' rows follow the queue's: their signals' rows are shifted by the queue's length.
void TransferQueueModel::followCopies()
{
    if (!m_copies)
        return;
    connect(m_copies, &storage::CopyJobs::jobAboutToBeAdded, this, [this](int row) { beginInsertRows({}, queueRows() + row, queueRows() + row); });
    connect(m_copies, &storage::CopyJobs::jobAdded, this, [this](int) { endInsertRows(); });
    connect(m_copies, &storage::CopyJobs::jobAboutToBeRemoved, this, [this](int row) { beginRemoveRows({}, queueRows() + row, queueRows() + row); });
    connect(m_copies, &storage::CopyJobs::jobRemoved, this, [this](int) { endRemoveRows(); });
    connect(m_copies, &storage::CopyJobs::jobsChanged, this, [this](int first, int last) {
        emit dataChanged(index(queueRows() + first, 0), index(queueRows() + last, ColumnCount - 1));
    });
}

int TransferQueueModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : queueRows() + (m_copies ? int(m_copies->jobs().size()) : 0);
}

int TransferQueueModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

quint64 TransferQueueModel::idAt(int row) const
{
    if (row >= 0 && row < queueRows())
        return m_queue->items()[row].id;
    if (m_copies && row >= queueRows() && row < rowCount())
        return kCopyRowBit | m_copies->jobs()[row - queueRows()].id;
    return 0;
}

QString TransferQueueModel::formatDuration(qint64 seconds)
{
    if (seconds < 0) return QStringLiteral("–");
    if (seconds < 60) return tr("%1 s").arg(seconds);
    if (seconds < 3600) return tr("%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
    return tr("%1 h %2 min").arg(seconds / 3600).arg((seconds / 60) % 60);
}

QString TransferQueueModel::destinationText(const QueueItem &it)
{
    const QString path = it.destinationPath();
    return it.request.direction == transfer::Direction::Upload ? it.request.host + QLatin1Char(':') + path : path;
}

QVariant TransferQueueModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    if (index.row() >= queueRows()) return copyrows::data(m_copies->jobs()[index.row() - queueRows()], index.column(), role);
    const QueueItem &it = m_queue->items()[index.row()];
    const auto &p = it.progress;
    const double fraction = p.bytesTotal ? double(p.bytesDone) / double(p.bytesTotal) : (it.state == ItemState::Done ? 1.0 : 0.0);
    if (role == ItemIdRole) return QVariant::fromValue(it.id);
    if (role == UnderlyingDataRole) {
        switch (index.column()) {
        case NameColumn: return it.displayName();
        case DirectionColumn: return int(it.request.direction);
        case HostColumn: return it.request.host;
        case DestinationColumn: return destinationText(it);
        case ProgressColumn: return fraction;
        case SizeColumn: return qulonglong(p.bytesTotal);
        case SpeedColumn: return it.bytesPerSecond;
        case EtaColumn: return it.etaSeconds;
        case StateColumn: return int(it.state);
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        const QString source = it.request.direction == transfer::Direction::Upload
                                   ? it.request.localPath
                                   : it.request.host + QLatin1Char(':') + it.request.remotePath;
        // Paths and messages can name remote files and quote the host's errors: shown escaped.
        QStringList lines{text::printable(tr("%1 → %2").arg(source, destinationText(it)))};
        if (it.state == ItemState::Done && it.outcome.verified) lines << tr("Verified: the SHA-256 of the copy matches the original's.");
        if (!it.message.isEmpty()) lines << text::printableLines(it.message);
        return lines.join(QLatin1Char('\n'));
    }
    if (role == Qt::TextAlignmentRole) {
        if (index.column() == SizeColumn || index.column() == SpeedColumn || index.column() == EtaColumn) {
            return int(Qt::AlignRight | Qt::AlignVCenter);
        }
        return {};
    }
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case NameColumn: return text::printable(it.displayName());
    case DirectionColumn: return it.request.direction == transfer::Direction::Upload ? tr("Upload") : tr("Download");
    case HostColumn: return it.request.host;
    case DestinationColumn: return text::printable(destinationText(it));
    case ProgressColumn: return QStringLiteral("%1%").arg(int(fraction * 100));
    case SizeColumn:
        return p.bytesTotal ? tr("%1 of %2").arg(transfer::formatBytes(p.bytesDone), transfer::formatBytes(p.bytesTotal))
                            : QString();
    case SpeedColumn:
        if (it.state == ItemState::Running && it.bytesPerSecond > 0) return tr("%1/s").arg(transfer::formatBytes(quint64(it.bytesPerSecond)));
        // A finished row: its average over the whole run.
        if (it.state == ItemState::Done && it.averageBytesPerSecond() > 0)
            return tr("avg %1/s").arg(transfer::formatBytes(quint64(it.averageBytesPerSecond())));
        return QString();
    case EtaColumn:
        if (it.state == ItemState::Running) return formatDuration(it.etaSeconds);
        if (it.state == ItemState::Done && it.seconds > 0) return tr("took %1").arg(formatDuration(qint64(std::max(1.0, it.seconds + 0.5))));
        return QString();
    case StateColumn: return stateText(it);
    default: return {};
    }
}

QString TransferQueueModel::stateText(const QueueItem &it)
{
    if (it.state == ItemState::Failed) return tr("Failed: %1").arg(text::printable(it.message));
    if (it.state != ItemState::Done) return transfer::itemStateName(it.state);
    QStringList words{transfer::itemStateName(it.state)};
    if (it.outcome.resumed) words << tr("resumed");
    if (it.outcome.verified) words << tr("verified");
    return words.join(QStringLiteral(" · "));
}

QVariant TransferQueueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case DirectionColumn: return tr("Direction");
    case HostColumn: return tr("Machine");
    case DestinationColumn: return tr("Destination");
    case ProgressColumn: return tr("Progress");
    case SizeColumn: return tr("Size");
    case SpeedColumn: return tr("Speed");
    case EtaColumn: return tr("Time left");
    case StateColumn: return tr("Status");
    default: return {};
    }
}

} // namespace gantry::ui
