#include "ui/cost/ledgermodel.h"
#include "core/cost/hostbilling.h"
#include "core/cost/money.h"

#include "core/providers/providertypes.h"

#include "core/providers/providerregistry.h"
#include "core/util/printable.h"

#include <QLocale>

namespace gantry::ui {

LedgerModel::LedgerModel(cost::Ledger *ledger, QObject *parent)
    : QAbstractTableModel(parent)
    , m_ledger(ledger)
{
    reload();
}

void LedgerModel::reload()
{
    Result<QList<cost::LedgerEntry>> entries = m_ledger ? m_ledger->entries() : Result<QList<cost::LedgerEntry>>(QList<cost::LedgerEntry>{});
    if (!entries)
        return;
    const QList<cost::LedgerEntry> next = *entries;
    bool sameRows = next.size() == m_entries.size();
    for (qsizetype i = 0; sameRows && i < next.size(); ++i)
        sameRows = next.at(i).row == m_entries.at(i).row;
    if (sameRows) {
        // Meters tick every second: update in place so selections and scrolling survive.
        m_entries = next;
        if (!m_entries.isEmpty())
            emit dataChanged(index(0, 0), index(int(m_entries.size()) - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_entries = next;
    endResetModel();
}

int LedgerModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int LedgerModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LedgerModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const cost::LedgerEntry &entry = m_entries.at(index.row());
    const bool raw = role == RawValueRole;
    if (role == Qt::ToolTipRole && index.column() == StorageColumn && entry.storagePerHour > 0)
        return tr("The disk of this instance bills %1/h while it is stopped (%2 GB); what it cost running is under Compute.")
            .arg(cost::moneyText(entry.storagePerHour, entry.storageCurrency)).arg(entry.volumeGb);
    if (!raw && role != Qt::DisplayRole)
        return {};
    auto when = [raw](const QDateTime &time) -> QVariant {
        if (raw)
            return time;
        return time.isValid() ? QLocale().toString(time.toLocalTime(), QLocale::ShortFormat) : QString();
    };
    // Names, types and states were copied from a provider's reply: shown escaped.
    auto shown = [raw](const QString &value) { return raw ? value : text::printable(value); };
    switch (index.column()) {
    case NameColumn: return shown(entry.name.isEmpty() ? entry.instanceId.left(12) : entry.name);
    case ProviderColumn:
        if (raw)
            return entry.provider;
        return entry.provider == cost::hostProvider() ? tr("Saved host") : providers::providerDisplayName(entry.provider);
    case TypeColumn: return shown(entry.typeName);
    case StateColumn: {
        // Stored as the stable name ("running"); shown in the user's language where it is one.
        const providers::InstanceState state = providers::instanceStateFromName(entry.state);
        return state == providers::InstanceState::Unknown ? shown(entry.state) : providers::instanceStateLabel(state);
    }
    case PriceColumn: return raw ? QVariant(entry.pricePerHour) : QVariant(cost::moneyText(entry.pricePerHour, entry.currency) + QStringLiteral("/h"));
    case LaunchedColumn: return when(entry.launchedAt);
    case EndedColumn: return when(entry.terminatedAt);
    case CostColumn: return raw ? QVariant(entry.cost) : QVariant(cost::moneyText(entry.cost, entry.currency));
    case StorageColumn:
        if (raw)
            return entry.storageCost;
        // Blank for rows whose disk never billed apart (most): the column then reads as "none".
        return entry.storageCost > 0 || entry.isBillingStorage() ? QVariant(cost::moneyText(entry.storageCost, entry.storageCurrency))
                                                                 : QVariant(QString());
    case NoteColumn: return shown(entry.note);
    default: return {};
    }
}

QVariant LedgerModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn: return tr("Instance");
    case ProviderColumn: return tr("Provider");
    case TypeColumn: return tr("Type");
    case StateColumn: return tr("State");
    case PriceColumn: return tr("Price at launch");
    case LaunchedColumn: return tr("Launched");
    case EndedColumn: return tr("Terminated");
    case CostColumn: return tr("Compute");
    case StorageColumn: return tr("Storage");
    case NoteColumn: return tr("Note");
    default: return {};
    }
}

} // namespace gantry::ui
