#include "ui/verify/verifyresultsmodel.h"

#include "core/verify/assessment.h"
#include "ui/verify/verdictstyle.h"
#include "core/util/printable.h"

namespace gantry::ui {

using namespace gantry::verify;

namespace {
QString withUnit(const std::optional<double> &value, const QString &unit)
{
    if (!value)
        return QStringLiteral("—");
    const bool whole = *value == double(qRound64(*value));
    const int precision = (whole || qAbs(*value) >= 100) ? 0 : 1;
    return unit.isEmpty() ? QString::number(*value, 'f', precision)
                          : QString::number(*value, 'f', precision) + QLatin1Char(' ') + unit;
}
} // namespace

VerifyResultsModel::VerifyResultsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void VerifyResultsModel::setReport(const Report &report)
{
    beginResetModel();
    m_report = report;
    m_rows.clear();
    for (const GpuResult &gpu : report.gpus) {
        for (const TestResult &test : gpu.tests)
            m_rows.append(Row{gpu.index, gpu.name, test, effectiveStatus(test)});
    }
    endResetModel();
}

void VerifyResultsModel::clear()
{
    setReport(Report{});
}

int VerifyResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int VerifyResultsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VerifyResultsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    const TestResult &t = row.test;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        // GPU names, test names and units come from the host's report: shown escaped.
        case GpuColumn: return QStringLiteral("%1: %2").arg(row.gpu).arg(text::printable(row.gpuName));
        case TestColumn: return text::printable(t.name);
        case MeasuredColumn: return withUnit(t.measured, text::printable(t.unit));
        case ExpectedColumn: return withUnit(t.expected, text::printable(t.unit));
        case RatioColumn: return t.ratio ? QStringLiteral("%1%").arg(qRound(*t.ratio * 100)) : QStringLiteral("—");
        case VerdictColumn: return verdictLabel(row.effective);
        }
        break;
    case SortRole:
        switch (index.column()) {
        case GpuColumn: return row.gpu;
        case TestColumn: return t.name;
        case MeasuredColumn: return t.measured ? QVariant(*t.measured) : QVariant(-1.0);
        case ExpectedColumn: return t.expected ? QVariant(*t.expected) : QVariant(-1.0);
        case RatioColumn: return t.ratio ? QVariant(*t.ratio) : QVariant(-1.0);
        case VerdictColumn: return int(row.effective);
        }
        break;
    case VerdictRole:
        return int(row.effective);
    case Qt::ToolTipRole:
        return text::printableLines(t.message);
    case Qt::ForegroundRole:
        if (index.column() == VerdictColumn)
            return verdictColor(row.effective);
        break;
    case Qt::BackgroundRole:
        if (index.column() == VerdictColumn)
            return verdictBackground(row.effective);
        break;
    case Qt::TextAlignmentRole:
        if (index.column() >= MeasuredColumn && index.column() <= RatioColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        break;
    default:
        break;
    }
    return {};
}

QVariant VerifyResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case GpuColumn: return tr("GPU");
    case TestColumn: return tr("Test");
    case MeasuredColumn: return tr("Measured");
    case ExpectedColumn: return tr("Expected");
    case RatioColumn: return tr("Ratio");
    case VerdictColumn: return tr("Verdict");
    }
    return {};
}

} // namespace gantry::ui
