#include "ui/shell/machinetablemodel.h"

#include "ui/common/machinepaths.h"
#include "core/cost/money.h"
#include "core/util/printable.h"

#include "ui/common/themecolors.h"

#include "core/providers/providerregistry.h"

#include <QBrush>
#include <QColor>
#include <QGuiApplication>
#include <QMimeData>
#include <QUrl>

namespace gantry::ui {

MachineTableModel::MachineTableModel(HostStore *hosts, QObject *parent)
    : QAbstractTableModel(parent)
    , m_hosts(hosts)
{
    reload();
    connect(m_hosts, &HostStore::changed, this, &MachineTableModel::reload);
}

void MachineTableModel::reload()
{
    beginResetModel();
    m_rows = m_hosts->hosts();
    endResetModel();
}

int MachineTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int MachineTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString MachineTableModel::hostNameAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows[row].name : QString();
}

int MachineTableModel::rowOf(const QString &hostName) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].name == hostName)
            return i;
    }
    return -1;
}

ssh::ConnectionState MachineTableModel::state(const QString &hostName) const
{
    return m_states.value(hostName, ssh::ConnectionState::Disconnected);
}

void MachineTableModel::setState(const QString &hostName, ssh::ConnectionState state, const QString &message)
{
    m_states.insert(hostName, state);
    m_messages.insert(hostName, message);
    const int row = rowOf(hostName);
    if (row >= 0)
        emit dataChanged(index(row, StateColumn), index(row, StateColumn));
}

QVariant MachineTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const SavedHost &host = m_rows[index.row()];
    const ssh::ConnectionState st = state(host.name);
    if (role == HostNameRole)
        return host.name;
    if (role == StateRole)
        return int(st);
    // Hosts can come from ~/.ssh/config or a provider's reply: names and addresses shown escaped.
    if (role == Qt::DisplayRole || role == SortRole) {
        switch (index.column()) {
        case NameColumn: return text::printable(host.name);
        case AddressColumn: return text::printable(host.target.display());
        case ProviderColumn:
            return host.provider.isEmpty() ? (host.source == QLatin1StringView("ssh-config") ? tr("~/.ssh/config") : tr("SSH host"))
                                           : text::printable(providers::providerDisplayName(host.provider));
        case StateColumn: return role == SortRole ? QVariant(int(st)) : QVariant(ssh::connectionStateName(st));
        case PriceColumn:
            if (role == SortRole)
                return host.hourlyPrice();
            return host.hourlyPrice() > 0 ? cost::moneyText(host.hourlyPrice(), host.currency()) + QStringLiteral("/h") : QString();
        default: break;
        }
    }
    if (role == Qt::ToolTipRole && index.column() == StateColumn)
        return text::printableLines(m_messages.value(host.name));
    if (role == Qt::ForegroundRole && index.column() == StateColumn) {
        // Against the application palette, so a dark theme gets light green/amber/red.
        const QPalette palette = QGuiApplication::palette();
        switch (st) {
        case ssh::ConnectionState::Connected: return QBrush(toneColor(Tone::Good, palette));
        case ssh::ConnectionState::Connecting: return QBrush(toneColor(Tone::Warning, palette));
        case ssh::ConnectionState::Disconnected: return {};
        default: return QBrush(toneColor(Tone::Error, palette));
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() == PriceColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant MachineTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case AddressColumn: return tr("Address");
    case ProviderColumn: return tr("Provider");
    case StateColumn: return tr("State");
    case PriceColumn: return tr("Price");
    default: return {};
    }
}

Qt::ItemFlags MachineTableModel::flags(const QModelIndex &index) const
{
    const Qt::ItemFlags base = QAbstractTableModel::flags(index);
    return index.isValid() ? base | Qt::ItemIsDropEnabled : base;
}

QStringList MachineTableModel::mimeTypes() const
{
    return {QStringLiteral("text/uri-list"), kMachinePathsMime};
}

Qt::DropActions MachineTableModel::supportedDropActions() const
{
    return Qt::CopyAction;
}

bool MachineTableModel::canDropMimeData(const QMimeData *data, Qt::DropAction, int, int, const QModelIndex &parent) const
{
    // The machine paths are not read here (only formats): reading them is what tells the drag that
    // a machine took them (DragOutMimeData::machinePathsTaken), and hovering takes nothing.
    return parent.isValid() && data && (data->hasUrls() || data->hasFormat(kMachinePathsMime));
}

bool MachineTableModel::dropMimeData(const QMimeData *data, Qt::DropAction action, int row, int column, const QModelIndex &parent)
{
    if (!canDropMimeData(data, action, row, column, parent))
        return false;
    // Another machine's files (the Files tab's drag) go from that machine to this one; the local
    // copies the drag could also make are never asked for.
    if (data->hasFormat(kMachinePathsMime)) {
        const auto dropped = decodeMachinePaths(data->data(kMachinePathsMime));
        const QString target = hostNameAt(parent.row());
        if (!dropped || dropped->host == target)
            return false; // its own files dropped back on it: nothing to copy
        emit machineFilesDropped(target, dropped->host, dropped->paths);
        return true;
    }
    QList<QUrl> local;
    QList<QUrl> objects;
    for (const QUrl &url : data->urls()) {
        if (url.isLocalFile())
            local << url;
        else if (url.scheme() == QLatin1String("s3"))
            objects << url;
    }
    if (!objects.isEmpty())
        emit objectsDropped(hostNameAt(parent.row()), objects);
    if (!local.isEmpty())
        emit filesDropped(hostNameAt(parent.row()), local);
    return !local.isEmpty() || !objects.isEmpty();
}

MachineFilterProxy::MachineFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(MachineTableModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    // Numbers inside names compare as numbers; the C locale (LANG=C) would compare code points.
    if (m_collator.locale().language() == QLocale::C)
        m_collator.setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
    m_collator.setNumericMode(true);
    m_collator.setCaseSensitivity(Qt::CaseInsensitive);
}

bool MachineFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    if (a.typeId() == QMetaType::QString && b.typeId() == QMetaType::QString)
        return m_collator.compare(a.toString(), b.toString()) < 0;
    return QSortFilterProxyModel::lessThan(left, right);
}

void MachineFilterProxy::setText(const QString &text)
{
    m_text = text;
    invalidateFilter();
}

void MachineFilterProxy::setConnectedOnly(bool connectedOnly)
{
    m_connectedOnly = connectedOnly;
    invalidateFilter();
}

void MachineFilterProxy::setProvider(const QString &provider)
{
    m_provider = provider;
    invalidateFilter();
}

bool MachineFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QAbstractItemModel *model = sourceModel();
    if (m_connectedOnly) {
        const int st = model->index(sourceRow, 0, sourceParent).data(MachineTableModel::StateRole).toInt();
        if (st != int(ssh::ConnectionState::Connected))
            return false;
    }
    if (!m_provider.isEmpty()) {
        const QString provider = model->index(sourceRow, MachineTableModel::ProviderColumn, sourceParent).data().toString();
        if (provider != m_provider)
            return false;
    }
    if (m_text.isEmpty())
        return true;
    for (int column : {int(MachineTableModel::NameColumn), int(MachineTableModel::AddressColumn), int(MachineTableModel::ProviderColumn)}) {
        if (model->index(sourceRow, column, sourceParent).data().toString().contains(m_text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace gantry::ui
