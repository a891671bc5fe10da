// SPDX-License-Identifier: Apache-2.0
#include "ui/storage/objecttablemodel.h"

#include <QIcon>
#include <QLocale>
#include <QMimeData>
#include <QSet>
#include <QUrl>

namespace gantry::ui {

void ObjectTableModel::setListing(const QString &prefix, const QStringList &folders, const QList<storage::ObjectInfo> &objects)
{
    beginResetModel();
    m_prefix = prefix;
    m_entries.clear();
    for (const QString &folder : folders) {
        QString name = folder.mid(prefix.size());
        if (name.endsWith(QLatin1Char('/')))
            name.chop(1);
        if (!name.isEmpty())
            m_entries.append(Entry{folder, name, true, 0, {}});
    }
    for (const storage::ObjectInfo &object : objects) {
        const QString name = object.key.mid(prefix.size());
        if (name.isEmpty() || object.key == prefix)
            continue; // the prefix's own "folder" marker
        m_entries.append(Entry{object.key, name, false, object.size, object.lastModified});
    }
    endResetModel();
}

void ObjectTableModel::clear()
{
    beginResetModel();
    m_prefix.clear();
    m_entries.clear();
    endResetModel();
}

int ObjectTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int ObjectTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ObjectTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const Entry &e = m_entries[index.row()];
    if (role == KeyRole)
        return e.key;
    if (role == IsFolderRole)
        return e.folder;
    if (role == Qt::DecorationRole && index.column() == NameColumn)
        return QIcon::fromTheme(e.folder ? QStringLiteral("folder") : QStringLiteral("text-x-generic"));
    if (role == Qt::TextAlignmentRole && index.column() == SizeColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == NameColumn)
        return e.key;
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool raw = role == SortRole;
    switch (Column(index.column())) {
    case NameColumn: return e.folder ? QString(e.name + QLatin1Char('/')) : e.name;
    case SizeColumn:
        if (raw)
            return e.folder ? qint64(-1) : e.size;
        return e.folder ? QString() : QLocale().formattedDataSize(e.size);
    case ModifiedColumn:
        if (raw)
            return e.modified;
        return e.modified.isValid() ? QLocale().toString(e.modified.toLocalTime(), QLocale::ShortFormat) : QString();
    case ColumnCount: break;
    }
    return {};
}

QVariant ObjectTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case NameColumn: return tr("Name");
    case SizeColumn: return tr("Size");
    case ModifiedColumn: return tr("Modified");
    case ColumnCount: break;
    }
    return {};
}

Qt::ItemFlags ObjectTableModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren | Qt::ItemIsDragEnabled;
}

QUrl ObjectTableModel::objectUrl(const QString &bucket, const QString &key)
{
    QUrl url;
    url.setScheme(QStringLiteral("s3"));
    url.setHost(bucket);
    url.setPath(QLatin1Char('/') + key, QUrl::DecodedMode);
    return url;
}

QStringList ObjectTableModel::mimeTypes() const
{
    return {QStringLiteral("text/uri-list")};
}

QMimeData *ObjectTableModel::mimeData(const QModelIndexList &indexes) const
{
    QList<QUrl> urls;
    QStringList lines;
    QSet<int> rows;
    for (const QModelIndex &index : indexes) {
        if (!index.isValid() || index.row() >= m_entries.size() || rows.contains(index.row()))
            continue;
        rows.insert(index.row());
        urls << objectUrl(m_bucketName, m_entries[index.row()].key);
        lines << QStringLiteral("s3://%1/%2").arg(m_bucketName, m_entries[index.row()].key);
    }
    if (urls.isEmpty())
        return nullptr;
    auto *data = new QMimeData;
    data->setUrls(urls);
    data->setText(lines.join(QLatin1Char('\n')));
    return data;
}

ObjectSortProxy::ObjectSortProxy(QObject *parent) : QSortFilterProxyModel(parent)
{
    // Numbers inside names compare as numbers; the C locale (LANG=C) would compare code points.
    if (m_collator.locale().language() == QLocale::C)
        m_collator.setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
    m_collator.setNumericMode(true);
    m_collator.setCaseSensitivity(Qt::CaseInsensitive);
    setSortRole(ObjectTableModel::SortRole);
}

bool ObjectSortProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const bool leftFolder = left.data(ObjectTableModel::IsFolderRole).toBool();
    const bool rightFolder = right.data(ObjectTableModel::IsFolderRole).toBool();
    if (leftFolder != rightFolder) // folders first whichever way the column is sorted
        return sortOrder() == Qt::AscendingOrder ? leftFolder : rightFolder;
    if (left.column() == ObjectTableModel::NameColumn)
        return m_collator.compare(left.data(ObjectTableModel::SortRole).toString(), right.data(ObjectTableModel::SortRole).toString()) < 0;
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace gantry::ui
