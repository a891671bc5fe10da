// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/storage/s3xml.h"

#include <QAbstractTableModel>
#include <QCollator>
#include <QSortFilterProxyModel>

namespace gantry::ui {

// One level of a bucket under a prefix: its "folders" (common prefixes) and its objects. Raw
// values under SortRole, so sorting never parses display text.
class ObjectTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ObjectTableModel)

public:
    enum Column
    {
        NameColumn,
        SizeColumn,
        ModifiedColumn,
        ColumnCount
    };
    enum Role
    {
        SortRole = Qt::UserRole,
        KeyRole,      // the full key (a folder's ends in '/')
        IsFolderRole,
    };

    struct Entry
    {
        QString key;
        QString name; // the key below the prefix
        bool folder = false;
        qint64 size = 0;
        QDateTime modified;
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setListing(const QString &prefix, const QStringList &folders, const QList<storage::ObjectInfo> &objects);
    void clear();
    const QString &prefix() const { return m_prefix; }
    const Entry &entry(int row) const { return m_entries[row]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

private:
    QString m_prefix;
    QList<Entry> m_entries;
};

// Folders before objects; names as people count them (shard-2 before shard-10).
class ObjectSortProxy final : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit ObjectSortProxy(QObject *parent = nullptr);

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QCollator m_collator;
};

} // namespace gantry::ui
