#include "ui/providers/instancesmodel.h"

#include "core/providers/providerregistry.h"
#include "core/util/printable.h"

#include <algorithm>

namespace gantry::ui {

InstancesModel::InstancesModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

// Updates rows in place, keyed by provider and instance id: a periodic refresh must not reset the
// model, which would drop the user's selection (and grey out the buttons under the pointer).
void InstancesModel::setInstances(const QString &provider, const QList<providers::Instance> &instances)
{
    const auto listed = [&instances](const providers::Instance &row) {
        return std::any_of(instances.cbegin(), instances.cend(),
                           [&row](const providers::Instance &i) { return i.id == row.id; });
    };
    for (int row = int(m_rows.size()) - 1; row >= 0; --row) {
        if (m_rows.at(row).provider == provider && !listed(m_rows.at(row))) {
            beginRemoveRows({}, row, row);
            m_rows.removeAt(row);
            endRemoveRows();
        }
    }
    for (const providers::Instance &instance : instances) {
        const auto it = std::find_if(m_rows.begin(), m_rows.end(), [&provider, &instance](const providers::Instance &row) {
            return row.provider == provider && row.id == instance.id;
        });
        if (it != m_rows.end()) {
            *it = instance;
            const int row = int(it - m_rows.begin());
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
            continue;
        }
        const int row = int(m_rows.size());
        beginInsertRows({}, row, row);
        m_rows.append(instance);
        endInsertRows();
    }
}

void InstancesModel::setCost(const QString &provider, const QString &instanceId, double cost)
{
    m_costs.insert(provider + QLatin1Char('/') + instanceId, cost);
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows.at(row).provider == provider && m_rows.at(row).id == instanceId)
            emit dataChanged(index(row, CostColumn), index(row, CostColumn));
    }
}

// Stopped, compute is free but the disk may still bill: that, per day, where the provider bills it.
QVariant InstancesModel::priceData(const providers::Instance &instance, bool raw) const
{
    const bool stopped = instance.state == providers::InstanceState::Stopped;
    const providers::CostModel model = providers::costModelFor(instance.provider);
    const double storagePerDay = stopped ? providers::stoppedStorageCostPerDay(model, instance.volumeGb, instance.storagePerGbMonth) : 0;
    if (raw)
        return stopped ? storagePerDay / 24 : instance.pricePerHour;
    if (storagePerDay > 0)
        return tr("$%1/day storage").arg(storagePerDay, 0, 'f', 2);
    if (stopped && model.storagePerGbMonthStopped > 0)
        return tr("storage billed"); // the listing gives no disk size to price
    if (stopped)
        return tr("$0/h stopped");
    return QStringLiteral("$%1/h").arg(instance.pricePerHour, 0, 'f', 2);
}

int InstancesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int InstancesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant InstancesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const providers::Instance &instance = m_rows.at(index.row());
    if (role == ProviderIdRole)
        return instance.provider;
    if (role == InstanceIdRole)
        return instance.id;
    // Names, types, regions and addresses come from the provider's reply: shown escaped.
    if (role == Qt::ToolTipRole)
        return QString(text::printable(instance.id) + QLatin1Char('\n') + text::printableLines(instance.providerStatus));
    const bool raw = role == RawValueRole;
    if (!raw && role != Qt::DisplayRole)
        return {};
    auto shown = [raw](const QString &value) { return raw ? value : text::printable(value); };
    const double cost = m_costs.value(instance.provider + QLatin1Char('/') + instance.id, -1);
    switch (index.column()) {
    case NameColumn: return shown(instance.name.isEmpty() ? instance.id.left(12) : instance.name);
    case ProviderColumn: return raw ? instance.provider : providers::providerDisplayName(instance.provider);
    case TypeColumn: return shown(instance.typeName);
    case RegionColumn: return shown(instance.region);
    case StateColumn: return raw ? QVariant(int(instance.state)) : QVariant(providers::instanceStateLabel(instance.state));
    case SshColumn:
        return instance.sshHost.isEmpty() ? QString()
                                          : shown(QStringLiteral("%1@%2:%3").arg(instance.sshUser, instance.sshHost).arg(instance.sshPort));
    case PriceColumn: return priceData(instance, raw);
    case CostColumn:
        if (raw)
            return cost;
        return cost < 0 ? QString() : QStringLiteral("$%1").arg(cost, 0, 'f', cost < 0.01 && cost > 0 ? 4 : 2);
    default: return {};
    }
}

QVariant InstancesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn: return tr("Name");
    case ProviderColumn: return tr("Provider");
    case TypeColumn: return tr("Type");
    case RegionColumn: return tr("Region");
    case StateColumn: return tr("State");
    case SshColumn: return tr("SSH");
    case PriceColumn: return tr("Price");
    case CostColumn: return tr("Cost so far");
    default: return {};
    }
}

} // namespace gantry::ui
