#pragma once

#include "core/jobs/jobinfo.h"

#include <QAbstractTableModel>

namespace gantry::ui {

// The jobs of one machine, as JobService last saw them.
class JobListModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobListModel)

public:
    enum Column
    {
        NameColumn,
        StateColumn,
        StartedColumn,
        CommandColumn,
        ColumnCount,
    };
    enum Role
    {
        StateRole = Qt::UserRole, // jobs::JobState as int, for sorting and styling
        NameRole,
    };

    explicit JobListModel(QObject *parent = nullptr);

    void setJobs(const QList<jobs::JobInfo> &jobs);
    const QList<jobs::JobInfo> &jobs() const { return m_jobs; }
    std::optional<jobs::JobInfo> job(int row) const;
    int rowOf(const QString &name) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<jobs::JobInfo> m_jobs;
};

} // namespace gantry::ui
