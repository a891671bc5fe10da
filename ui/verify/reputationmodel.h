#pragma once

#include "core/verify/reputation.h"

#include <QAbstractTableModel>

namespace gantry::ui {

// Every machine's record across Verify and Doctor runs (machines.json), as `gantry-cli
// verify-history` prints it: passes, fails, measured bandwidth and tensor TFLOPS against the
// spec, $ per measured TFLOPS-hour, and whether it is flagged bad. The selected host's machine
// is shown first and in bold.
class ReputationModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReputationModel)

public:
    enum Column
    {
        MachineColumn,
        PassesColumn,
        FailsColumn,
        BandwidthColumn,
        TensorColumn,
        CostColumn,
        StatusColumn,
        ColumnCount
    };
    enum Role
    {
        SortRole = Qt::UserRole,
        BadRole,
        CurrentRole,
    };

    explicit ReputationModel(QObject *parent = nullptr);

    // currentHost: the selected host's name; its machine (matched by host) comes first.
    void setMachines(const QList<verify::MachineRecord> &machines, const QString &currentHost);
    const QList<verify::MachineRecord> &machines() const { return m_machines; }
    // The selected host's record, or null.
    const verify::MachineRecord *current() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const verify::MachineRecord &m, int column) const;
    QString machineName(const verify::MachineRecord &m) const;

    QList<verify::MachineRecord> m_machines;
    QString m_currentHost;
};

} // namespace gantry::ui
