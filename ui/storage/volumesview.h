// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/providers/providertypes.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <functional>

class QLabel;
class QPushButton;
class QTableView;
class QSortFilterProxyModel;

namespace gantry::cost { class Ledger; }
namespace gantry::providers { class ProviderHub; }

namespace gantry::ui {

// The providers' volumes (RunPod network volumes, Lambda filesystems, Shadeform and Vast.ai
// volumes), one row each.
class VolumeTableModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Provider, Name, Region, Size, PerMonth, AttachedTo, ColumnCount };
    static constexpr int RawRole = Qt::UserRole + 1; // numbers sort as numbers

    using QAbstractTableModel::QAbstractTableModel;
    void setVolumes(const QList<providers::Filesystem> &volumes);
    const providers::Filesystem *volume(int row) const;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QList<providers::Filesystem> m_volumes;
};

// The Storage panel's Volumes page: the list (refreshed from every provider with a volumes API,
// each listing bringing the cost ledger in line), and Delete, which asks first and names what is
// lost. Creating one is `gantry-cli volumes create` or the provider's console.
class VolumesView final : public QWidget
{
    Q_OBJECT

public:
    using Confirm = std::function<bool(QWidget *, const QString &title, const QString &text)>;
    VolumesView(providers::ProviderHub *hub, cost::Ledger *ledger, QWidget *parent = nullptr);
    static QString title(); // the page's name in the Storage panel
    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }
    void refresh();
    VolumeTableModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QString statusText() const;

signals:
    void refreshed();
    void deleted();

private:
    void deleteSelected();
    void showStatus(const QString &text);

    providers::ProviderHub *m_hub;
    cost::Ledger *m_ledger;
    VolumeTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QLabel *m_status;
    QPushButton *m_refresh;
    QPushButton *m_delete;
    Confirm m_confirm;
};

} // namespace gantry::ui
