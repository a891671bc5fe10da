// SPDX-License-Identifier: Apache-2.0
#include "ui/runs/runattemptsmodel.h"

#include "ui/runs/runlistmodel.h"

#include <QLocale>

namespace gantry::ui {

RunAttemptsModel::RunAttemptsModel(QObject *parent) : QAbstractTableModel(parent) {}

int RunAttemptsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_attempts.size());
}

int RunAttemptsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RunAttemptsModel::reasonText(const QString &endReason)
{
    if (endReason.isEmpty())
        return tr("running");
    if (endReason == QLatin1String("preempted"))
        return tr("preempted");
    if (endReason == QLatin1String("outbid"))
        return tr("outbid");
    if (endReason == QLatin1String("unreachable"))
        return tr("unreachable");
    if (endReason == QLatin1String("failed"))
        return tr("failed");
    if (endReason == QLatin1String("succeeded"))
        return tr("succeeded");
    if (endReason == QLatin1String("stopped"))
        return tr("stopped");
    return endReason;
}

namespace {

QString timeText(const QDateTime &time)
{
    return time.isValid() ? QLocale().toString(time.toLocalTime(), QLocale::ShortFormat) : QString();
}

} // namespace

QVariant RunAttemptsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_attempts.size())
        return {};
    const runs::RunAttempt &a = m_attempts.at(index.row());
    if (role == Qt::TextAlignmentRole && (index.column() == NumberColumn || index.column() == PriceColumn || index.column() == CostColumn))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == MachineColumn)
        return a.instance;
    if (role == UnderlyingDataRole) {
        switch (index.column()) {
        case NumberColumn: return index.row() + 1;
        case PriceColumn: return a.pricePerHour;
        case StartedColumn: return a.started;
        case EndedColumn: return a.ended;
        case CostColumn: return a.cost(m_now);
        default: return data(index, Qt::DisplayRole);
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NumberColumn: return index.row() + 1;
    case ProviderColumn: return a.provider;
    case MachineColumn: {
        const QString machine = a.spot ? tr("%1 (spot) · %2").arg(a.type, a.instance) : QStringLiteral("%1 · %2").arg(a.type, a.instance);
        // A multi-node run's machines say which node they were.
        const bool nodes = std::any_of(m_attempts.cbegin(), m_attempts.cend(), [](const runs::RunAttempt &other) { return other.rank > 0; });
        return nodes ? tr("node %1 · %2").arg(a.rank).arg(machine) : machine;
    }
    case PriceColumn: return tr("$%1/h").arg(a.pricePerHour, 0, 'f', 3);
    case StartedColumn: return timeText(a.started);
    case EndedColumn: return a.ended.isValid() ? timeText(a.ended) : QStringLiteral("—");
    case ReasonColumn: return reasonText(a.endReason);
    case CostColumn: return RunListModel::moneyText(a.cost(m_now));
    }
    return {};
}

QVariant RunAttemptsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NumberColumn: return QStringLiteral("#");
    case ProviderColumn: return tr("Provider");
    case MachineColumn: return tr("Machine");
    case PriceColumn: return tr("Price");
    case StartedColumn: return tr("Started");
    case EndedColumn: return tr("Ended");
    case ReasonColumn: return tr("Why it ended");
    case CostColumn: return tr("Cost");
    }
    return {};
}

void RunAttemptsModel::setAttempts(const QList<runs::RunAttempt> &attempts, const QDateTime &now)
{
    m_now = now;
    if (attempts.size() != m_attempts.size()) {
        beginResetModel();
        m_attempts = attempts;
        endResetModel();
        return;
    }
    // An attempt that ended gains its end and reason: the view refits its columns on a layout change.
    bool reshaped = false;
    for (int row = 0; row < attempts.size(); ++row)
        reshaped = reshaped || attempts.at(row).endReason != m_attempts.at(row).endReason;
    if (reshaped)
        emit layoutAboutToBeChanged();
    m_attempts = attempts;
    if (reshaped)
        emit layoutChanged();
    if (!m_attempts.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_attempts.size()) - 1, ColumnCount - 1));
}

} // namespace gantry::ui
