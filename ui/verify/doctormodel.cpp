#include "ui/verify/doctormodel.h"

#include "ui/verify/verdictstyle.h"
#include "core/util/printable.h"

namespace gantry::ui {

DoctorModel::DoctorModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void DoctorModel::setChecks(const QList<verify::DoctorCheck> &checks)
{
    beginResetModel();
    m_checks = checks;
    endResetModel();
}

int DoctorModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_checks.size());
}

int DoctorModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DoctorModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const verify::DoctorCheck &c = m_checks.at(index.row());
    const verify::Verdict verdict = verdictOf(c.status);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case StatusColumn:
            return c.status == verify::CheckStatus::Ok ? tr("OK") : verdictLabel(verdict);
        // Messages quote what the host printed (driver errors, nvidia-smi output): shown escaped.
        case CheckColumn: return c.id;
        case MessageColumn: return text::printable(c.message);
        case FixColumn: return text::printable(c.fix);
        }
        break;
    case Qt::ToolTipRole: {
        const QString message = text::printableLines(c.message);
        return c.fix.isEmpty() ? message : message + QLatin1Char('\n') + tr("Fix: %1").arg(text::printableLines(c.fix));
    }
    case Qt::ForegroundRole:
        if (index.column() == StatusColumn)
            return verdictColor(verdict);
        break;
    case Qt::BackgroundRole:
        if (index.column() == StatusColumn)
            return verdictBackground(verdict);
        break;
    case Qt::UserRole:
        return int(c.status);
    default:
        break;
    }
    return {};
}

QVariant DoctorModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case StatusColumn: return tr("Status");
    case CheckColumn: return tr("Check");
    case MessageColumn: return tr("Found");
    case FixColumn: return tr("Fix");
    }
    return {};
}

} // namespace gantry::ui
