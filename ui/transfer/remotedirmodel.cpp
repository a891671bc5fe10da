#include "ui/transfer/remotedirmodel.h"

#include "core/transfer/remoteops.h"
#include "core/util/printable.h"

#include <QDateTime>
#include <QLocale>

namespace gantry::ui {

void RemoteDirModel::setEntries(const QString &path, QList<transfer::SftpEntry> entries)
{
    beginResetModel();
    m_path = path;
    m_entries = std::move(entries);
    endResetModel();
}

void RemoteDirModel::clear()
{
    setEntries(QString(), {});
}

int RemoteDirModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int RemoteDirModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

Qt::ItemFlags RemoteDirModel::flags(const QModelIndex &index) const
{
    return QAbstractTableModel::flags(index) | (index.isValid() ? Qt::ItemIsDragEnabled : Qt::NoItemFlags);
}

QVariant RemoteDirModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const transfer::SftpEntry &e = m_entries[index.row()];
    const bool dir = e.attrs.isDir();
    if (role == IsDirRole) return dir;
    if (role == UnderlyingDataRole) {
        switch (index.column()) {
        case NameColumn: return QString(QLatin1Char(dir ? '0' : '1') + e.name.toLower());
        case SizeColumn: return qulonglong(dir ? 0 : e.attrs.size.value_or(0));
        case ModifiedColumn: return qlonglong(e.attrs.mtime.value_or(0));
        case TypeColumn: return dir ? 0 : e.attrs.isLink() ? 1 : 2;
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() == SizeColumn) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    // The host names its files: a name with control or bidi characters is shown escaped.
    case NameColumn: return dir ? text::printable(e.name) + QLatin1Char('/') : text::printable(e.name);
    case SizeColumn: return dir ? QString() : transfer::formatBytes(e.attrs.size.value_or(0));
    case ModifiedColumn:
        return e.attrs.mtime ? QLocale().toString(QDateTime::fromSecsSinceEpoch(*e.attrs.mtime), QLocale::ShortFormat)
                             : QString();
    case TypeColumn: return dir ? tr("Folder") : e.attrs.isLink() ? tr("Link") : tr("File");
    default: return {};
    }
}

QVariant RemoteDirModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case SizeColumn: return tr("Size");
    case ModifiedColumn: return tr("Modified");
    case TypeColumn: return tr("Type");
    default: return {};
    }
}

} // namespace gantry::ui
