#include "ui/providers/pricefilterproxy.h"

#include "ui/providers/pricetablemodel.h"

namespace gantry::ui {

PriceFilterProxy::PriceFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(PriceTableModel::RawValueRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void PriceFilterProxy::setGpuText(const QString &text)
{
    m_gpuText = text.trimmed();
    invalidateFilter();
}

void PriceFilterProxy::setMinVramGb(int gb)
{
    m_minVram = gb;
    invalidateFilter();
}

void PriceFilterProxy::setMaxPricePerHour(double usd)
{
    m_maxPrice = usd;
    invalidateFilter();
}

void PriceFilterProxy::setAvailableOnly(bool on)
{
    m_availableOnly = on;
    invalidateFilter();
}

bool PriceFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QAbstractItemModel *model = sourceModel();
    auto raw = [&](int column) { return model->index(sourceRow, column, sourceParent).data(PriceTableModel::RawValueRole); };
    if (!m_gpuText.isEmpty()) {
        const QString gpu = raw(PriceTableModel::GpuModelColumn).toString();
        const QString name = model->index(sourceRow, 0, sourceParent).data(PriceTableModel::TypeNameRole).toString();
        if (!gpu.contains(m_gpuText, Qt::CaseInsensitive) && !name.contains(m_gpuText, Qt::CaseInsensitive))
            return false;
    }
    if (m_minVram > 0 && raw(PriceTableModel::VramColumn).toInt() < m_minVram)
        return false;
    if (m_maxPrice > 0 && raw(PriceTableModel::PriceColumn).toDouble() > m_maxPrice)
        return false;
    if (m_availableOnly && !model->index(sourceRow, 0, sourceParent).data(PriceTableModel::AvailableRole).toBool())
        return false;
    return true;
}

} // namespace gantry::ui
