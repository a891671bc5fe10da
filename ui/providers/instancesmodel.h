#pragma once

#include "core/providers/providertypes.h"

#include <QAbstractTableModel>
#include <QHash>

namespace gantry::ui {

// Instances across providers, with state, SSH address, price and cost so far.
class InstancesModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InstancesModel)

public:
    enum Column { NameColumn, ProviderColumn, TypeColumn, RegionColumn, StateColumn, SshColumn, PriceColumn, CostColumn, ColumnCount };
    enum Role { RawValueRole = Qt::UserRole, ProviderIdRole, InstanceIdRole };

    explicit InstancesModel(QObject *parent = nullptr);

    void setInstances(const QString &provider, const QList<providers::Instance> &instances);
    void setCost(const QString &provider, const QString &instanceId, double cost);
    const QList<providers::Instance> &instances() const { return m_rows; }
    providers::Instance instanceAt(int row) const { return m_rows.value(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant priceData(const providers::Instance &instance, bool raw) const;

    QList<providers::Instance> m_rows;
    QHash<QString, double> m_costs; // "provider/id" → USD
};

} // namespace gantry::ui
