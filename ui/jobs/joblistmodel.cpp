#include "ui/jobs/joblistmodel.h"
#include "core/util/printable.h"

#include <QBrush>
#include "ui/common/themecolors.h"

#include <QColor>
#include <QGuiApplication>

namespace gantry::ui {

JobListModel::JobListModel(QObject *parent) : QAbstractTableModel(parent) {}

void JobListModel::setJobs(const QList<jobs::JobInfo> &jobs)
{
    bool sameRows = jobs.size() == m_jobs.size();
    for (qsizetype i = 0; sameRows && i < jobs.size(); ++i)
        sameRows = jobs[i].name == m_jobs[i].name;
    if (sameRows) {
        // Keep the selection across polls: only the cells change.
        m_jobs = jobs;
        if (!m_jobs.isEmpty())
            emit dataChanged(index(0, 0), index(int(m_jobs.size()) - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_jobs = jobs;
    endResetModel();
}

std::optional<jobs::JobInfo> JobListModel::job(int row) const
{
    if (row < 0 || row >= m_jobs.size())
        return std::nullopt;
    return m_jobs[row];
}

int JobListModel::rowOf(const QString &name) const
{
    for (qsizetype i = 0; i < m_jobs.size(); ++i) {
        if (m_jobs[i].name == name)
            return int(i);
    }
    return -1;
}

int JobListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_jobs.size());
}

int JobListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JobListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_jobs.size())
        return {};
    const jobs::JobInfo &job = m_jobs[index.row()];
    if (role == StateRole)
        return int(job.state);
    if (role == NameRole)
        return job.name;
    // Names, states and commands are read from the host's job files: shown escaped.
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case NameColumn: return text::printable(job.name);
        case StateColumn: return text::printable(job.statusText());
        case StartedColumn:
            return job.started.isValid() ? job.started.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QString();
        case CommandColumn: return text::printable(job.command.simplified());
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == CommandColumn)
        return text::printableLines(job.command);
    if (role == Qt::ForegroundRole && index.column() == StateColumn) {
        if (job.state == jobs::JobState::Killed || (job.state == jobs::JobState::Exited && job.exitCode.value_or(0) != 0))
            return QBrush(toneColor(Tone::Error, QGuiApplication::palette())); // readable on dark themes too
        if (job.isActive())
            return QBrush(toneColor(Tone::Good, QGuiApplication::palette()));
    }
    return {};
}

QVariant JobListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Job");
    case StateColumn: return tr("State");
    case StartedColumn: return tr("Started");
    case CommandColumn: return tr("Command");
    default: return {};
    }
}

} // namespace gantry::ui
