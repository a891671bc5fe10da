#include "ui/transfer/progressdelegate.h"

#include "ui/transfer/transferqueuemodel.h"

#include <QApplication>
#include <QPainter>
#include <QStyleOptionProgressBar>

namespace gantry::ui {

void ProgressDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QVariant raw = index.data(TransferQueueModel::UnderlyingDataRole);
    if (!raw.isValid()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    // The row's background (selection, alternate colour) first, without its text.
    QStyleOptionViewItem cell = option;
    initStyleOption(&cell, index);
    cell.text.clear();
    QStyle *style = option.widget ? option.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &cell, painter, option.widget);

    QStyleOptionProgressBar bar;
    bar.initFrom(option.widget); // palette, font metrics, direction
    bar.rect = option.rect.adjusted(2, 2, -2, -2);
    bar.minimum = 0;
    bar.maximum = 1000;
    bar.progress = qBound(0, int(raw.toDouble() * 1000), 1000);
    bar.text = index.data(Qt::DisplayRole).toString();
    bar.textVisible = true;
    bar.textAlignment = Qt::AlignCenter;
    // Qt 6 reads the orientation from State_Horizontal only: without it a style draws a vertical
    // bar, rotated about the widget's origin, so bar and text landed outside the cell.
    bar.state = (option.state & (QStyle::State_Enabled | QStyle::State_Active)) | QStyle::State_Horizontal;
    painter->save();
    painter->setClipRect(option.rect); // a style's frame never spills into the next row
    style->drawControl(QStyle::CE_ProgressBar, &bar, painter, option.widget);
    painter->restore();
}

QSize ProgressDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.setWidth(std::max(size.width(), option.fontMetrics.horizontalAdvance(QStringLiteral("100%")) * 3));
    return size;
}

} // namespace gantry::ui
