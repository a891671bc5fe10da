#pragma once

#include <QStyledItemDelegate>

namespace gantry::ui {

// Paints a progress bar from the raw fraction (UnderlyingDataRole, 0…1) of its column, inside
// the cell and nowhere else (tests/transfer/test_transfer_render checks the pixels).
class ProgressDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProgressDelegate)

public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace gantry::ui
