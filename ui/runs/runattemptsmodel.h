// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/runs/runstate.h"

#include <QAbstractTableModel>
#include <QDateTime>

namespace gantry::ui {

// One run's attempts, oldest first: the machine each ran on, its price, when it started and
// ended, why it ended and what it cost. Raw values under UnderlyingDataRole for sorting.
class RunAttemptsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunAttemptsModel)

public:
    enum Column
    {
        NumberColumn,
        ProviderColumn,
        MachineColumn,
        PriceColumn,
        StartedColumn,
        EndedColumn,
        ReasonColumn,
        CostColumn,
        ColumnCount
    };
    enum Role
    {
        UnderlyingDataRole = Qt::UserRole,
    };

    explicit RunAttemptsModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setAttempts(const QList<runs::RunAttempt> &attempts, const QDateTime &now);
    // "preempted", "outbid", … in the user's language ("running" while it runs).
    static QString reasonText(const QString &endReason);

private:
    QList<runs::RunAttempt> m_attempts;
    QDateTime m_now;
};

} // namespace gantry::ui
