// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/storage/s3xml.h"

#include <QAbstractTableModel>
#include <QCollator>
#include <QSortFilterProxyModel>
#include <QUrl>

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

    // The bucket the entries are in (their drag carries s3://BUCKET/KEY).
    void setBucketName(const QString &bucket) { m_bucketName = bucket; }
    void setListing(const QString &prefix, const QStringList &folders, const QList<storage::ObjectInfo> &objects);
    void clear();
    const QString &prefix() const { return m_prefix; }
    const Entry &entry(int row) const { return m_entries[row]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    // Dragged rows are text/uri-list of s3://BUCKET/KEY (a folder's ends in '/'): a machine in the
    // Machines list takes them as a copy to that machine.
    QStringList mimeTypes() const override;
    QMimeData *mimeData(const QModelIndexList &indexes) const override;

    // s3://BUCKET/KEY as a URL (the key as its path, any character kept).
    static QUrl objectUrl(const QString &bucket, const QString &key);

private:
    QString m_bucketName;
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
