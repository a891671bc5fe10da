// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/storage/buckets.h"

#include <QAbstractTableModel>

namespace gantry::ui {

// The configured buckets: Gantry's name, endpoint, bucket, region and where the keys come from.
class BucketTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BucketTableModel)

public:
    enum Column
    {
        NameColumn,
        EndpointColumn,
        BucketColumn,
        RegionColumn,
        KeysColumn,
        ColumnCount
    };
    enum Role
    {
        SortRole = Qt::UserRole,
        NameRole,
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setBuckets(QList<storage::StoredBucket> buckets);
    const storage::StoredBucket &bucket(int row) const { return m_buckets[row]; }
    int rowOf(const QString &name) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

private:
    QList<storage::StoredBucket> m_buckets;
};

} // namespace gantry::ui
