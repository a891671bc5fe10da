#pragma once

#include "core/providers/providertypes.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>

namespace gantry::ui {

// Every instance type of every provider, one row each. Sorting and filtering go through
// RawValueRole (numbers stay numbers); display strings are for people only.
class PriceTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PriceTableModel)

public:
    enum Column
    {
        ProviderColumn,
        GpuModelColumn,
        GpuCountColumn,
        VramColumn,
        VcpuColumn,
        RamColumn,
        DiskColumn,
        PriceColumn,
        PricePerGpuColumn,
        RegionsColumn,
        OffersColumn,     // marketplace groups: how many offers, their median price
        ColumnCount
    };
    enum Role
    {
        RawValueRole = Qt::UserRole,
        ProviderIdRole,
        TypeNameRole,
        AvailableRole,
        FlaggedRole,      // bool: the offer's machine failed Verify or Doctor (machines.json)
        RecordKeyRole,    // a flagged offer's machine record key (ReputationStore), else empty
    };

    // Why a marketplace machine is flagged: its last failure's headline and when.
    struct Flag
    {
        QString problem;
        QDateTime time; // UTC
        int fails = 0;
    };
    // "provider/machineId" → its flag.
    using Flags = QHash<QString, Flag>;
    static QString flagKey(const QString &provider, const QString &machineId) { return provider + u'/' + machineId; }

    explicit PriceTableModel(QObject *parent = nullptr);

    // Replaces the rows of one provider (others stay).
    void setTypes(const QString &provider, const QList<providers::InstanceType> &types);
    void setAllTypes(const QList<providers::InstanceType> &types);
    const QList<providers::InstanceType> &types() const { return m_types; }
    providers::InstanceType typeAt(int row) const { return m_types.value(row); }
    // The machines recorded bad; their offers show a mark and say why in the tooltip.
    void setFlags(const Flags &flags);
    const Flag *flagFor(const providers::InstanceType &type) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString flagTip(const Flag &flag) const;

    QList<providers::InstanceType> m_types;
    Flags m_flags;
};

} // namespace gantry::ui
