// SPDX-License-Identifier: Apache-2.0
#include "ui/storage/buckettablemodel.h"

namespace gantry::ui {

void BucketTableModel::setBuckets(QList<storage::StoredBucket> buckets)
{
    beginResetModel();
    m_buckets = std::move(buckets);
    endResetModel();
}

int BucketTableModel::rowOf(const QString &name) const
{
    for (int row = 0; row < m_buckets.size(); ++row) {
        if (m_buckets[row].config.name == name)
            return row;
    }
    return -1;
}

int BucketTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_buckets.size());
}

int BucketTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BucketTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_buckets.size())
        return {};
    const storage::StoredBucket &b = m_buckets[index.row()];
    if (role == NameRole)
        return b.config.name;
    if (role == Qt::ToolTipRole && index.column() == KeysColumn) {
        return b.keys == storage::KeySource::Environment
            ? tr("Read from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY each time; never stored.")
            : tr("Stored in the keychain when the bucket was added.");
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (Column(index.column())) {
    case NameColumn: return b.config.name;
    case EndpointColumn: return b.config.endpoint;
    case BucketColumn: return b.config.bucket;
    case RegionColumn: return b.config.region;
    case KeysColumn:
        if (role == SortRole)
            return int(b.keys);
        return b.keys == storage::KeySource::Environment ? tr("Environment") : tr("Keychain");
    case ColumnCount: break;
    }
    return {};
}

QVariant BucketTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case NameColumn: return tr("Name");
    case EndpointColumn: return tr("Endpoint");
    case BucketColumn: return tr("Bucket");
    case RegionColumn: return tr("Region");
    case KeysColumn: return tr("Keys");
    case ColumnCount: break;
    }
    return {};
}

Qt::ItemFlags BucketTableModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
}

} // namespace gantry::ui
