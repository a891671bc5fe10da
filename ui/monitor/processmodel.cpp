#include "ui/monitor/processmodel.h"
#include "core/util/printable.h"

namespace gantry::ui::monitor {

void ProcessModel::setProcesses(const QList<gantry::monitor::GpuProcess> &processes)
{
    bool sameRows = processes.size() == m_rows.size();
    for (qsizetype i = 0; sameRows && i < processes.size(); ++i) {
        sameRows = processes.at(i).pid == m_rows.at(i).pid && processes.at(i).gpuUuid == m_rows.at(i).gpuUuid;
    }
    if (sameRows) {
        // Same processes: update values in place so selection and scroll position survive.
        m_rows = processes;
        if (!m_rows.isEmpty()) {
            emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
        }
        return;
    }
    beginResetModel();
    m_rows = processes;
    endResetModel();
}

int ProcessModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ProcessModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProcessModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const auto &p = m_rows.at(index.row());
    if (role == UnderlyingDataRole) {
        switch (index.column()) {
        case ColPid: return p.pid;
        case ColUser: return p.user;
        case ColGpu: return p.gpuIndex;
        case ColMemory: return p.usedMemoryMib ? QVariant(*p.usedMemoryMib) : QVariant(-1.0);
        case ColName: return p.processName;
        case ColCommand: return p.commandLine;
        default: return {};
        }
    }
    // Process names and command lines are what the host reported: shown escaped.
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case ColPid: return QString::number(p.pid);
        case ColUser: return p.user.isEmpty() ? tr("?") : text::printable(p.user);
        case ColGpu: return p.gpuIndex < 0 ? QStringLiteral("?") : QString::number(p.gpuIndex);
        case ColMemory: return p.usedMemoryMib ? QString::number(*p.usedMemoryMib, 'f', 0) : tr("n/a");
        case ColName: return text::printable(p.processName);
        case ColCommand: return p.commandLine.isEmpty() ? tr("(not visible from this login)") : text::printable(p.commandLine);
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == ColCommand) {
        return text::printable(p.commandLine);
    }
    if (role == Qt::TextAlignmentRole && index.column() != ColUser && index.column() <= ColMemory) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant ProcessModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case ColPid: return tr("PID");
    case ColUser: return tr("User");
    case ColGpu: return tr("GPU");
    case ColMemory: return tr("GPU memory (MiB)");
    case ColName: return tr("Process");
    case ColCommand: return tr("Command line");
    default: return {};
    }
}

} // namespace gantry::ui::monitor
