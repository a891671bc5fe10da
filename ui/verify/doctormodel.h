#pragma once

#include "core/verify/doctor.h"

#include <QAbstractTableModel>

namespace gantry::ui {

// The doctor's checks: status, check, what was found, the fix.
class DoctorModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DoctorModel)

public:
    enum Column
    {
        StatusColumn,
        CheckColumn,
        MessageColumn,
        FixColumn,
        ColumnCount
    };

    explicit DoctorModel(QObject *parent = nullptr);

    void setChecks(const QList<verify::DoctorCheck> &checks);
    const QList<verify::DoctorCheck> &checks() const { return m_checks; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<verify::DoctorCheck> m_checks;
};

} // namespace gantry::ui
