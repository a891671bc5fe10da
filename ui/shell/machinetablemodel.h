#pragma once

#include "core/hosts/hoststore.h"
#include "core/ssh/connection.h"

#include <QAbstractTableModel>
#include <QCollator>
#include <QHash>
#include <QSortFilterProxyModel>
#include <QUrl>

namespace gantry::ui {

// The machines table: every saved host with its connection state. Rows follow the HostStore.
class MachineTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MachineTableModel)

public:
    enum Column
    {
        NameColumn,
        AddressColumn,
        ProviderColumn,
        StateColumn,
        PriceColumn,
        ColumnCount
    };
    enum Role
    {
        SortRole = Qt::UserRole, // raw values, so sorting never parses display text
        HostNameRole,
        StateRole,
    };

    explicit MachineTableModel(HostStore *hosts, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QStringList mimeTypes() const override;
    bool canDropMimeData(const QMimeData *data, Qt::DropAction action, int row, int column, const QModelIndex &parent) const override;
    bool dropMimeData(const QMimeData *data, Qt::DropAction action, int row, int column, const QModelIndex &parent) override;
    Qt::DropActions supportedDropActions() const override;

    QString hostNameAt(int row) const;
    int rowOf(const QString &hostName) const;
    void setState(const QString &hostName, ssh::ConnectionState state, const QString &message);
    ssh::ConnectionState state(const QString &hostName) const;

signals:
    // Files dropped from the desktop onto a machine row (the transfer engine uploads them).
    void filesDropped(const QString &hostName, const QList<QUrl> &urls);
    // Bucket objects (s3://BUCKET/KEY, from the Storage panel's browser) dropped onto a machine row.
    void objectsDropped(const QString &hostName, const QList<QUrl> &urls);
    // Files of another saved machine (the Files tab's drag) dropped onto the row of hostName.
    void machineFilesDropped(const QString &hostName, const QString &sourceHost, const QStringList &paths);

private:
    void reload();

    HostStore *m_hosts;
    QList<SavedHost> m_rows;
    QHash<QString, ssh::ConnectionState> m_states;
    QHash<QString, QString> m_messages;
};

// Filter by free text (name, address, provider) and by "connected only". Names sort as people
// count: gpu-box-2 before gpu-box-10.
class MachineFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit MachineFilterProxy(QObject *parent = nullptr);
    void setText(const QString &text);
    void setConnectedOnly(bool connectedOnly);
    void setProvider(const QString &provider); // "" = all, "manual" = hand-added hosts

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QCollator m_collator;
    QString m_text;
    QString m_provider;
    bool m_connectedOnly = false;
};

} // namespace gantry::ui
