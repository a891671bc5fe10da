// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/runs/runstate.h"

#include <QAbstractTableModel>
#include <QDateTime>

namespace gantry::ui {

// The managed runs as a table (from their run.json files, whichever process drives them). Display
// strings for the view, raw values under UnderlyingDataRole so the proxy sorts numbers as numbers.
// setRecords() keeps rows by name, so a selection survives each refresh.
class RunListModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunListModel)

public:
    enum Column
    {
        NameColumn,
        StateColumn,
        AttemptsColumn,
        CostColumn,
        CheckpointColumn, // age of the last checkpoint that came home
        ColumnCount
    };
    enum Role
    {
        UnderlyingDataRole = Qt::UserRole,
        NameRole,
    };

    explicit RunListModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The runs as read now; `now` prices the attempts still running and ages the checkpoints.
    void setRecords(const QList<runs::RunRecord> &records, const QDateTime &now);
    const runs::RunRecord *record(const QString &name) const;
    int rowOf(const QString &name) const;

    // "running", "succeeded", … in the user's language.
    static QString stateText(runs::RunState state);
    // "—" never, "12 s", "5 min", "2 h 3 min".
    static QString ageText(qint64 seconds);
    static QString moneyText(double amount);

private:
    QList<runs::RunRecord> m_records;
    QDateTime m_now;
};

} // namespace gantry::ui
