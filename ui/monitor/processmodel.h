#pragma once

#include "core/monitor/samples.h"

#include <QAbstractTableModel>

namespace gantry::ui::monitor {

// The GPU processes of one machine (compute apps joined with their command lines).
class ProcessModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProcessModel)

public:
    enum Column
    {
        ColPid,
        ColUser,
        ColGpu,
        ColMemory,
        ColName,
        ColCommand,
        ColumnCount
    };
    enum DataRole
    {
        UnderlyingDataRole = Qt::UserRole, // raw values, so sorting never parses display text
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setProcesses(const QList<gantry::monitor::GpuProcess> &processes);
    const QList<gantry::monitor::GpuProcess> &processes() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<gantry::monitor::GpuProcess> m_rows;
};

} // namespace gantry::ui::monitor
