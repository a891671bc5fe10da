// SPDX-License-Identifier: Apache-2.0
#include "ui/storage/volumesview.h"

#include "core/providers/costmodel.h"
#include "core/providers/volumes.h"
#include "core/util/printable.h"
#include "core/workspace/volumeops.h"
#include "ui/common/confirm.h"
#include "ui/common/tablelayout.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace gantry::ui {

void VolumeTableModel::setVolumes(const QList<providers::Filesystem> &volumes)
{
    beginResetModel();
    m_volumes = volumes;
    endResetModel();
}

const providers::Filesystem *VolumeTableModel::volume(int row) const
{
    return row >= 0 && row < m_volumes.size() ? &m_volumes.at(row) : nullptr;
}

int VolumeTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_volumes.size());
}

int VolumeTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VolumeTableModel::data(const QModelIndex &index, int role) const
{
    const providers::Filesystem *v = index.isValid() ? volume(index.row()) : nullptr;
    if (!v || (role != Qt::DisplayRole && role != RawRole && role != Qt::ToolTipRole))
        return {};
    const QString currency = providers::costModelFor(v->provider).currency;
    switch (index.column()) {
    case Provider: return v->provider;
    case Name: return text::printable(v->name);
    case Region: return text::printable(v->region);
    case Size:
        if (role == RawRole)
            return v->billedGb();
        return v->sizeGb > 0 ? tr("%1 GB").arg(v->sizeGb) : tr("%1 GB (grows with use)").arg(v->billedGb(), 0, 'f', 1);
    case PerMonth:
        if (role == RawRole)
            return v->pricePerMonth();
        return tr("%1 %2/month (%3/GB)").arg(QString::number(v->pricePerMonth(), 'f', 2), currency)
            .arg(v->pricePerGbMonth, 0, 'f', 3);
    case AttachedTo:
        if (!v->attachedTo.isEmpty())
            return text::printable(v->attachedTo.join(QStringLiteral(", ")));
        return v->inUse ? tr("in use") : tr("not attached");
    default: return {};
    }
}

QVariant VolumeTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Provider: return tr("Provider");
    case Name: return tr("Name");
    case Region: return tr("Region");
    case Size: return tr("Size");
    case PerMonth: return tr("Cost");
    case AttachedTo: return tr("Attached to");
    default: return {};
    }
}

VolumesView::VolumesView(providers::ProviderHub *hub, cost::Ledger *ledger, QWidget *parent)
    : QWidget(parent)
    , m_hub(hub)
    , m_ledger(ledger)
    , m_model(new VolumeTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_status(new QLabel(this))
    , m_refresh(new QPushButton(tr("Refresh"), this))
    , m_delete(new QPushButton(tr("Delete…"), this))
    , m_confirm([](QWidget *p, const QString &title, const QString &text) { return askDestructive(p, title, text); })
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(VolumeTableModel::RawRole);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    TableLayout::fitToWidth(m_view, VolumeTableModel::AttachedTo);
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_delete->setEnabled(false);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_refresh);
    buttons->addWidget(m_delete);
    buttons->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
    connect(m_refresh, &QPushButton::clicked, this, &VolumesView::refresh);
    connect(m_delete, &QPushButton::clicked, this, &VolumesView::deleteSelected);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_delete->setEnabled(m_view->selectionModel()->hasSelection()); });
    showStatus(tr("Volumes are listed when you press Refresh: RunPod network volumes, Lambda filesystems, Shadeform "
                  "and Vast.ai volumes. Each bills by the GB-month for as long as it exists."));
}

QString VolumesView::title()
{
    return tr("Volumes");
}

QString VolumesView::statusText() const
{
    return m_status->text();
}

void VolumesView::showStatus(const QString &text)
{
    m_status->setText(text::printableLines(text));
}

void VolumesView::refresh()
{
    m_refresh->setEnabled(false);
    showStatus(tr("Asking the providers for their volumes…"));
    QPointer<VolumesView> self(this);
    workspace::listAllVolumes(m_hub, m_ledger, [self](workspace::VolumeListing listing) {
        if (!self)
            return;
        self->m_refresh->setEnabled(true);
        self->m_model->setVolumes(listing.volumes);
        double perMonth = 0;
        for (const providers::Filesystem &v : std::as_const(listing.volumes))
            perMonth += v.pricePerMonth();
        QString text = listing.volumes.isEmpty()
                           ? tr("No volumes at the providers with an API key.")
                           : tr("%n volume(s), about %1 a month together while they exist.", nullptr, int(listing.volumes.size()))
                                 .arg(QString::number(perMonth, 'f', 2));
        for (const QString &error : std::as_const(listing.errors))
            text += QLatin1Char('\n') + error;
        self->showStatus(text);
        emit self->refreshed();
    });
}

void VolumesView::deleteSelected()
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    const providers::Filesystem *picked = rows.isEmpty() ? nullptr : m_model->volume(m_proxy->mapToSource(rows.first()).row());
    if (!picked)
        return;
    const providers::Filesystem volume = *picked;
    if (!m_confirm(this, tr("Delete volume"), tr("Delete %1 at %2? %3").arg(text::printable(volume.name), volume.provider,
                                                                        providers::volumeLossText(volume))))
        return;
    showStatus(tr("Deleting %1…").arg(text::printable(volume.name)));
    QPointer<VolumesView> self(this);
    workspace::deleteVolumeRecorded(m_hub, m_ledger, volume, [self, name = volume.name](Result<providers::Filesystem> deleted) {
        if (!self)
            return;
        if (!deleted) {
            self->showStatus(deleted.error().message);
            return;
        }
        self->showStatus(tr("Deleted %1; it no longer bills.").arg(text::printable(name)));
        emit self->deleted();
        self->refresh();
    });
}

} // namespace gantry::ui
