// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QAbstractItemModel;
class QAbstractItemView;
class QModelIndex;

namespace gantry::ui {

// Keeps a single-selection view's selection on the same item (by id) across what a refresh does
// to its model: a reset, rows removed or inserted, a filter. Qt alone loses the selection on a
// reset, and when the selected row is removed it selects the next row — after Terminate that was
// another billed instance. Here a removal selects nothing, and an item a filter hides is selected
// again when the filter shows it.
class SelectionKeeper final : public QObject
{
    Q_OBJECT

public:
    using IdOf = std::function<QString(const QModelIndex &)>;

    // Sets `model` on `view` (use this instead of view->setModel): the keeper hears of a removal
    // before the view does, so the view never moves the selection to a neighbour.
    static SelectionKeeper *setModel(QAbstractItemView *view, QAbstractItemModel *model, IdOf idOf);
    // The id of one role of column 0.
    static IdOf roleId(int role);

    // The selected item's id, also while a filter hides it ("" when nothing is selected).
    QString currentId() const { return m_id; }
    // Selects the item with this id ("" or unknown: nothing).
    void select(const QString &id);
    // Whether the model (under any proxies) still holds the item, shown or not.
    bool exists(const QString &id) const;

signals:
    // The kept item changed (also to "", after it was removed).
    void currentIdChanged(const QString &id);

private:
    SelectionKeeper(QAbstractItemView *view, QAbstractItemModel *model, IdOf idOf);
    void setId(const QString &id);
    void onAboutToRemove(const QModelIndex &parent, int first, int last);
    void restore();
    int rowOf(const QAbstractItemModel *model, const QString &id) const;

    QAbstractItemView *m_view;
    QAbstractItemModel *m_model;
    IdOf m_idOf;
    QString m_id;
    bool m_quiet = false; // while the keeper itself moves the selection
};

} // namespace gantry::ui
