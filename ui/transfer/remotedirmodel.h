#pragma once

#include "core/transfer/sftpclient.h"

#include <QAbstractTableModel>

namespace gantry::ui {

// One remote directory listing. Raw values under UnderlyingDataRole (folders sort before files
// by name).
class RemoteDirModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteDirModel)

public:
    enum Column
    {
        NameColumn,
        SizeColumn,
        ModifiedColumn,
        TypeColumn,
        ColumnCount
    };
    enum Role
    {
        UnderlyingDataRole = Qt::UserRole,
        IsDirRole,
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setEntries(const QString &path, QList<transfer::SftpEntry> entries);
    void clear();
    const QString &path() const { return m_path; }
    const transfer::SftpEntry &entry(int row) const { return m_entries[row]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

private:
    QString m_path;
    QList<transfer::SftpEntry> m_entries;
};

} // namespace gantry::ui
