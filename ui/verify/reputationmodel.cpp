#include "ui/verify/reputationmodel.h"

#include "core/providers/providerregistry.h"
#include "core/util/printable.h"
#include "ui/verify/verdictstyle.h"

#include <QFont>

#include <algorithm>

namespace gantry::ui {

using verify::MachineRecord;

namespace {

// "1200 / 3350": measured against the datasheet, "—" for what is unknown.
QString measuredVsSpec(const std::optional<double> &measured, const std::optional<double> &spec)
{
    auto n = [](const std::optional<double> &v) { return v ? QString::number(*v, 'f', 0) : QStringLiteral("—"); };
    if (!measured && !spec)
        return QStringLiteral("—");
    return n(measured) + QStringLiteral(" / ") + n(spec);
}

} // namespace

ReputationModel::ReputationModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ReputationModel::setMachines(const QList<MachineRecord> &machines, const QString &currentHost)
{
    beginResetModel();
    m_machines = machines;
    m_currentHost = currentHost;
    // The selected host's machine first, then bad ones, then the most recently seen.
    std::stable_sort(m_machines.begin(), m_machines.end(), [&currentHost](const MachineRecord &a, const MachineRecord &b) {
        const bool ca = !currentHost.isEmpty() && a.host == currentHost;
        const bool cb = !currentHost.isEmpty() && b.host == currentHost;
        if (ca != cb)
            return ca;
        if (a.bad() != b.bad())
            return a.bad();
        return a.lastTime > b.lastTime;
    });
    endResetModel();
}

const MachineRecord *ReputationModel::current() const
{
    if (m_currentHost.isEmpty() || m_machines.isEmpty() || m_machines.first().host != m_currentHost)
        return nullptr;
    return &m_machines.first();
}

int ReputationModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_machines.size());
}

int ReputationModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ReputationModel::machineName(const MachineRecord &m) const
{
    const QString provider = m.provider.isEmpty() ? tr("own host") : providers::providerDisplayName(m.provider);
    // A marketplace machine is known by its id (one machine, many offers); others by host name.
    return m.machineId.isEmpty() ? tr("%1 · %2").arg(text::printable(m.host), provider)
                                 : tr("%1 machine %2 (%3)").arg(provider, text::printable(m.machineId), text::printable(m.host));
}

QVariant ReputationModel::display(const MachineRecord &m, int column) const
{
    switch (column) {
    case MachineColumn: return machineName(m);
    case PassesColumn: return m.passes;
    case FailsColumn: return m.fails;
    case BandwidthColumn: return measuredVsSpec(m.bandwidthGbs, m.specBandwidthGbs);
    case TensorColumn: return measuredVsSpec(m.tensorTflops, m.specTensorTflops);
    case CostColumn: return m.usdPerTflopHour ? QStringLiteral("$%1").arg(*m.usdPerTflopHour, 0, 'f', 4) : QStringLiteral("—");
    case StatusColumn:
        if (m.bad())
            return tr("Flagged: %1").arg(text::printable(m.lastProblem).left(80));
        // A record without a passing run (a simulated GPU's: it never passes, nothing is measured)
        // is no machine that was found good.
        return m.passes > 0 ? tr("OK") : tr("Not verified");
    default: return {};
    }
}

QVariant ReputationModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const MachineRecord &m = m_machines.at(index.row());
    switch (role) {
    case Qt::DisplayRole: return display(m, index.column());
    case SortRole:
        switch (index.column()) {
        case BandwidthColumn: return m.bandwidthGbs.value_or(-1);
        case TensorColumn: return m.tensorTflops.value_or(-1);
        case CostColumn: return m.usdPerTflopHour.value_or(-1);
        default: return display(m, index.column());
        }
    case BadRole: return m.bad();
    case CurrentRole: return !m_currentHost.isEmpty() && m.host == m_currentHost;
    case Qt::ForegroundRole:
        if (index.column() == StatusColumn && !m.bad() && m.passes == 0)
            return verdictColor(verify::Verdict::Skip); // grey: not green
        if (index.column() == StatusColumn || (index.column() == FailsColumn && m.fails > 0))
            return verdictColor(m.bad() ? verify::Verdict::Fail : verify::Verdict::Pass);
        return {};
    case Qt::FontRole:
        if (!m_currentHost.isEmpty() && m.host == m_currentHost) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() != MachineColumn && index.column() != StatusColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole: {
        QString tip = tr("%1\nLast run %2: %3").arg(machineName(m), m.lastTime.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                                                     verdictLabel(m.lastVerdict));
        if (!m.lastProblem.isEmpty())
            tip += QLatin1Char('\n') + text::printable(m.lastProblem);
        if (!m.bad() && m.passes == 0)
            tip += QLatin1Char('\n') + tr("No run has measured this machine yet (a simulated GPU never passes).");
        if (m.bad())
            tip += QLatin1Char('\n') + tr("Its offers are hidden from Prices (tick “Show flagged machines” to see them); a "
                                          "passing Verify, or “Forget this record…” beside the list, clears the flag.");
        return tip;
    }
    default: return {};
    }
}

QVariant ReputationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case BandwidthColumn: return tr("Memory bandwidth per GPU, measured / datasheet, GB/s");
        case TensorColumn: return tr("Dense tensor throughput of all GPUs, measured / datasheet, TFLOPS");
        case CostColumn: return tr("The hourly price divided by the measured tensor TFLOPS");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case MachineColumn: return tr("Machine");
    case PassesColumn: return tr("Passed");
    case FailsColumn: return tr("Failed");
    case BandwidthColumn: return tr("GB/s (spec)");
    case TensorColumn: return tr("TFLOPS (spec)");
    case CostColumn: return tr("$/TFLOP-h");
    case StatusColumn: return tr("Status");
    default: return {};
    }
}

} // namespace gantry::ui
