#include "ui/providers/pricetablemodel.h"

#include "core/providers/providerregistry.h"
#include "core/util/printable.h"
#include "core/verify/reputation.h"

#include <QColor>

namespace gantry::ui {

PriceTableModel::PriceTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void PriceTableModel::setTypes(const QString &provider, const QList<providers::InstanceType> &types)
{
    beginResetModel();
    m_types.removeIf([&provider](const providers::InstanceType &type) { return type.provider == provider; });
    m_types.append(types);
    endResetModel();
}

void PriceTableModel::setAllTypes(const QList<providers::InstanceType> &types)
{
    beginResetModel();
    m_types = types;
    endResetModel();
}

void PriceTableModel::setFlags(const Flags &flags)
{
    beginResetModel();
    m_flags = flags;
    endResetModel();
}

const PriceTableModel::Flag *PriceTableModel::flagFor(const providers::InstanceType &type) const
{
    // A group row stands for many machines; only single offers carry a machine id.
    if (type.machineId.isEmpty() || type.offerCount > 0)
        return nullptr;
    const auto it = m_flags.constFind(flagKey(type.provider, type.machineId));
    return it == m_flags.cend() ? nullptr : &*it;
}

QString PriceTableModel::flagTip(const Flag &flag) const
{
    return tr("Flagged: machine failed Verify or Doctor %n time(s), last on %1: %2. Once the host has fixed "
              "it, right-click → “Forget this machine's record…” clears it.", nullptr, flag.fails)
        .arg(flag.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")), text::printable(flag.problem).left(200));
}

int PriceTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_types.size());
}

int PriceTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PriceTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const providers::InstanceType &type = m_types.at(index.row());
    switch (role) {
    case ProviderIdRole: return type.provider;
    case TypeNameRole: return type.name;
    case AvailableRole: return type.availableNow();
    case FlaggedRole: return flagFor(type) != nullptr;
    case RecordKeyRole: return flagFor(type) ? verify::machineKey(type.provider, type.machineId, {}) : QString();
    case Qt::ToolTipRole: {
        // Names, descriptions, models and regions come from the provider's reply: shown escaped.
        QString tip = text::printable(type.name);
        if (!type.description.isEmpty())
            tip += QStringLiteral(" — ") + text::printable(type.description);
        if (!type.note.isEmpty())
            tip += QLatin1Char('\n') + text::printableLines(type.note);
        if (type.reliability >= 0 && type.offerCount == 0)
            tip += QLatin1Char('\n') + tr("Reliability %1%, DLPerf %2, %3/%4 Mbit/s up/down, CUDA ≤ %5")
                                          .arg(type.reliability * 100, 0, 'f', 1).arg(type.dlperf, 0, 'f', 1)
                                          .arg(type.inetUpMbps, 0, 'f', 0).arg(type.inetDownMbps, 0, 'f', 0).arg(type.maxCuda);
        if (const Flag *flag = flagFor(type))
            tip = flagTip(*flag) + QLatin1Char('\n') + tip;
        return tip;
    }
    case Qt::TextAlignmentRole:
        if (index.column() != ProviderColumn && index.column() != GpuModelColumn && index.column() != RegionsColumn
            && index.column() != OffersColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ForegroundRole:
        return flagFor(type) ? QVariant(QColor(0xb0, 0x00, 0x20)) : QVariant();
    default:
        break;
    }
    const bool raw = role == RawValueRole;
    if (!raw && role != Qt::DisplayRole)
        return {};
    auto gb = [raw](int value) -> QVariant {
        if (raw)
            return value;
        return value > 0 ? QVariant(tr("%1 GB").arg(value)) : QVariant(QStringLiteral("—"));
    };
    switch (index.column()) {
    case ProviderColumn: return raw ? QVariant(type.provider) : QVariant(providers::providerDisplayName(type.provider));
    case GpuModelColumn: {
        if (raw)
            return type.gpuCount > 0 ? type.gpuModel : QString();
        const QString model = type.gpuCount > 0 ? text::printable(type.gpuModel) : tr("CPU only");
        return flagFor(type) ? tr("⚠ %1 (failed Verify)").arg(model) : model;
    }
    case GpuCountColumn: return type.gpuCount;
    case VramColumn: return gb(type.vramGbPerGpu);
    case VcpuColumn: return raw ? QVariant(type.vcpus) : (type.vcpus > 0 ? QVariant(type.vcpus) : QVariant(QStringLiteral("—")));
    case RamColumn: return gb(type.ramGb);
    case DiskColumn: return gb(type.diskGb);
    case PriceColumn: return raw ? QVariant(type.pricePerHour) : QVariant(QStringLiteral("$%1").arg(type.pricePerHour, 0, 'f', 2));
    case PricePerGpuColumn:
        return raw ? QVariant(type.pricePerGpuHour()) : QVariant(QStringLiteral("$%1").arg(type.pricePerGpuHour(), 0, 'f', 2));
    case RegionsColumn: {
        if (raw)
            return int(type.regionsWithCapacity.size());
        QStringList names;
        for (const providers::Region &region : type.regionsWithCapacity)
            names.append(text::printable(region.name));
        return names.isEmpty() ? tr("none now") : names.join(QStringLiteral(", "));
    }
    case OffersColumn:
        if (raw)
            return type.offerCount;
        if (type.offerCount > 0)
            return tr("%1 · median $%2").arg(type.offerCount).arg(type.medianPricePerHour, 0, 'f', 2);
        if (type.reliability >= 0)
            return tr("%1% reliable").arg(type.reliability * 100, 0, 'f', 1);
        return QString();
    default: return {};
    }
}

QVariant PriceTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ProviderColumn: return tr("Provider");
    case GpuModelColumn: return tr("GPU");
    case GpuCountColumn: return tr("GPUs");
    case VramColumn: return tr("VRAM/GPU");
    case VcpuColumn: return tr("vCPUs");
    case RamColumn: return tr("RAM");
    case DiskColumn: return tr("Disk");
    case PriceColumn: return tr("$/h");
    case PricePerGpuColumn: return tr("$/GPU-h");
    case RegionsColumn: return tr("Capacity now");
    case OffersColumn: return tr("Offers");
    default: return {};
    }
}

} // namespace gantry::ui
