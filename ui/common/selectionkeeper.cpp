// SPDX-License-Identifier: Apache-2.0
#include "ui/common/selectionkeeper.h"

#include <QAbstractItemView>
#include <QAbstractProxyModel>
#include <QItemSelectionModel>

namespace gantry::ui {

SelectionKeeper::SelectionKeeper(QAbstractItemView *view, QAbstractItemModel *model, IdOf idOf)
    : QObject(view)
    , m_view(view)
    , m_model(model)
    , m_idOf(std::move(idOf))
{
    // Connected before the view's own handler (view->setModel comes after): the selected row is
    // let go here, so the view's "one row stays selected" rule finds nothing to move.
    connect(model, &QAbstractItemModel::rowsAboutToBeRemoved, this, &SelectionKeeper::onAboutToRemove);
}

SelectionKeeper *SelectionKeeper::setModel(QAbstractItemView *view, QAbstractItemModel *model, IdOf idOf)
{
    auto *keeper = new SelectionKeeper(view, model, std::move(idOf));
    view->setModel(model);
    // After the view's handlers: a reset has cleared the selection model by then.
    connect(model, &QAbstractItemModel::modelReset, keeper, &SelectionKeeper::restore);
    connect(model, &QAbstractItemModel::rowsInserted, keeper, &SelectionKeeper::restore);
    connect(model, &QAbstractItemModel::layoutChanged, keeper, &SelectionKeeper::restore);
    connect(model, &QAbstractItemModel::rowsRemoved, keeper, [keeper] {
        if (!keeper->exists(keeper->m_id))
            keeper->setId(QString());
    });
    connect(view->selectionModel(), &QItemSelectionModel::currentChanged, keeper, [keeper](const QModelIndex &current) {
        if (!keeper->m_quiet && current.isValid())
            keeper->setId(keeper->m_idOf(current));
    });
    return keeper;
}

SelectionKeeper::IdOf SelectionKeeper::roleId(int role)
{
    return [role](const QModelIndex &index) { return index.siblingAtColumn(0).data(role).toString(); };
}

void SelectionKeeper::setId(const QString &id)
{
    if (id == m_id)
        return;
    m_id = id;
    emit currentIdChanged(id);
}

void SelectionKeeper::select(const QString &id)
{
    const int row = id.isEmpty() ? -1 : rowOf(m_model, id);
    if (row < 0) {
        m_view->selectionModel()->clear();
        setId(exists(id) ? id : QString());
        return;
    }
    m_view->selectionModel()->setCurrentIndex(m_model->index(row, 0),
                                              QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    setId(id);
}

void SelectionKeeper::onAboutToRemove(const QModelIndex &parent, int first, int last)
{
    const QModelIndex current = m_view->selectionModel() ? m_view->selectionModel()->currentIndex() : QModelIndex();
    if (!current.isValid() || current.parent() != parent || current.row() < first || current.row() > last)
        return;
    m_quiet = true;
    m_view->selectionModel()->clear(); // nothing selected, rather than the neighbour
    m_quiet = false;
}

// The kept item back in view (after a reset, or a filter that shows it again): selected again.
void SelectionKeeper::restore()
{
    if (m_id.isEmpty())
        return;
    const int row = rowOf(m_model, m_id);
    if (row < 0) {
        if (!exists(m_id))
            setId(QString());
        return;
    }
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    if (current.isValid() && current.row() == row)
        return;
    m_quiet = true;
    m_view->selectionModel()->setCurrentIndex(m_model->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_quiet = false;
}

bool SelectionKeeper::exists(const QString &id) const
{
    if (id.isEmpty())
        return false;
    const QAbstractItemModel *model = m_model;
    while (auto *proxy = qobject_cast<const QAbstractProxyModel *>(model))
        model = proxy->sourceModel();
    return rowOf(model, id) >= 0;
}

int SelectionKeeper::rowOf(const QAbstractItemModel *model, const QString &id) const
{
    for (int row = 0; model && row < model->rowCount(); ++row) {
        if (m_idOf(model->index(row, 0)) == id)
            return row;
    }
    return -1;
}

} // namespace gantry::ui
