// SPDX-License-Identifier: Apache-2.0
#include "ui/runs/runlistmodel.h"

#include "core/runs/runservice.h"

#include <QSet>

namespace gantry::ui {

RunListModel::RunListModel(QObject *parent) : QAbstractTableModel(parent) {}

int RunListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_records.size());
}

int RunListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RunListModel::stateText(runs::RunState state)
{
    switch (state) {
    case runs::RunState::Launching:
        return tr("launching");
    case runs::RunState::Syncing:
        return tr("syncing");
    case runs::RunState::Running:
        return tr("running");
    case runs::RunState::Recovering:
        return tr("recovering");
    case runs::RunState::Succeeded:
        return tr("succeeded");
    case runs::RunState::Failed:
        return tr("failed");
    case runs::RunState::Stopped:
        return tr("stopped");
    }
    return {};
}

QString RunListModel::ageText(qint64 seconds)
{
    if (seconds < 0)
        return QStringLiteral("—");
    if (seconds < 60)
        return tr("%1 s").arg(seconds);
    if (seconds < 3600)
        return tr("%1 min").arg(seconds / 60);
    return tr("%1 h %2 min").arg(seconds / 3600).arg(seconds % 3600 / 60);
}

QString RunListModel::moneyText(double amount)
{
    return QStringLiteral("$%1").arg(amount, 0, 'f', amount < 1 ? 4 : 2);
}

QVariant RunListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_records.size())
        return {};
    const runs::RunRecord &r = m_records.at(index.row());
    const qint64 age = r.checkpointAt.isValid() ? r.checkpointAt.secsTo(m_now) : -1;
    if (role == NameRole)
        return r.name;
    if (role == Qt::ToolTipRole)
        return r.message;
    if (role == Qt::TextAlignmentRole && index.column() >= AttemptsColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == UnderlyingDataRole) {
        switch (index.column()) {
        case NameColumn: return r.name;
        case StateColumn: return int(r.state);
        case AttemptsColumn: return int(r.attempts.size());
        case CostColumn: return r.costSoFar(m_now);
        case CheckpointColumn: return age < 0 ? std::numeric_limits<qint64>::max() : age;
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return r.name;
    case StateColumn:
        // A run nobody drives any more will not change: say so rather than show it "running".
        return runs::isFinal(r.state) || runs::RunBook::ownerAlive(r.ownerPid) ? stateText(r.state)
                                                                                : tr("%1 (no process drives it)").arg(stateText(r.state));
    case AttemptsColumn:
        return int(r.attempts.size());
    case CostColumn:
        return moneyText(r.costSoFar(m_now));
    case CheckpointColumn:
        return r.checkpointPath.isEmpty() ? tr("no checkpoint") : age < 0 ? tr("none yet") : ageText(age);
    }
    return {};
}

QVariant RunListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn: return tr("Name");
    case StateColumn: return tr("State");
    case AttemptsColumn: return tr("Attempts");
    case CostColumn: return tr("Cost so far");
    case CheckpointColumn: return tr("Checkpoint age");
    }
    return {};
}

int RunListModel::rowOf(const QString &name) const
{
    for (int row = 0; row < m_records.size(); ++row) {
        if (m_records.at(row).name == name)
            return row;
    }
    return -1;
}

const runs::RunRecord *RunListModel::record(const QString &name) const
{
    const int row = rowOf(name);
    return row < 0 ? nullptr : &m_records.at(row);
}

void RunListModel::setRecords(const QList<runs::RunRecord> &records, const QDateTime &now)
{
    m_now = now;
    QSet<QString> incoming;
    for (const runs::RunRecord &r : records)
        incoming.insert(r.name);
    for (int row = int(m_records.size()) - 1; row >= 0; --row) {
        if (!incoming.contains(m_records.at(row).name)) {
            beginRemoveRows({}, row, row);
            m_records.removeAt(row);
            endRemoveRows();
        }
    }
    // A state or an attempt count that changes changes what the columns need: the view refits
    // them on a layout change (TableLayout), not on every refresh.
    bool reshaped = false;
    for (const runs::RunRecord &r : records) {
        const runs::RunRecord *known = record(r.name);
        reshaped = reshaped || (known && (known->state != r.state || known->attempts.size() != r.attempts.size()));
    }
    if (reshaped)
        emit layoutAboutToBeChanged();
    for (const runs::RunRecord &r : records) {
        const int row = rowOf(r.name);
        if (row >= 0)
            m_records[row] = r;
    }
    if (reshaped)
        emit layoutChanged();
    for (const runs::RunRecord &r : records) {
        if (rowOf(r.name) >= 0)
            continue;
        beginInsertRows({}, int(m_records.size()), int(m_records.size()));
        m_records.append(r);
        endInsertRows();
    }
    if (!m_records.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_records.size()) - 1, ColumnCount - 1));
}

} // namespace gantry::ui
