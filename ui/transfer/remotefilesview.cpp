#include "ui/transfer/remotefilesview.h"

#include <QPainter>

namespace gantry::ui {

void RemoteFilesView::startDrag(Qt::DropActions supportedActions)
{
    if (m_dragStarter) {
        m_dragStarter();
        return;
    }
    QTreeView::startDrag(supportedActions);
}

void RemoteFilesView::setEmptyHint(const QString &hint)
{
    if (hint == m_emptyHint) return;
    m_emptyHint = hint;
    viewport()->update();
}

void RemoteFilesView::paintEvent(QPaintEvent *event)
{
    QTreeView::paintEvent(event);
    if (m_emptyHint.isEmpty() || !model() || model()->rowCount(rootIndex()) > 0) return;
    QPainter painter(viewport());
    painter.setPen(palette().color(QPalette::PlaceholderText));
    const QRect area = viewport()->rect().adjusted(16, 16, -16, -16);
    painter.drawText(area, int(Qt::AlignCenter | Qt::TextWordWrap), m_emptyHint);
}

} // namespace gantry::ui
