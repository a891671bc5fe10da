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

void RemoteFilesView::setDropTarget(const QString &text)
{
    if (text == m_dropTarget) return;
    m_dropTarget = text;
    viewport()->update();
}

void RemoteFilesView::paintDropTarget(QPainter &painter) const
{
    const QColor accent = palette().color(QPalette::Highlight);
    QColor wash = accent;
    wash.setAlpha(28);
    const QRect area = viewport()->rect().adjusted(1, 1, -2, -2);
    painter.fillRect(area, wash);
    painter.setPen(QPen(accent, 2, Qt::DashLine));
    painter.drawRect(area);
    // The label sits in a band of its own, readable over any row.
    const QFontMetrics fm(font());
    const QRect band(area.left() + 8, area.bottom() - fm.height() - 16, area.width() - 16, fm.height() + 10);
    painter.fillRect(band, accent);
    painter.setPen(palette().color(QPalette::HighlightedText));
    painter.drawText(band.adjusted(8, 0, -8, 0), int(Qt::AlignVCenter | Qt::AlignLeft),
                     fm.elidedText(m_dropTarget, Qt::ElideMiddle, band.width() - 16));
}

void RemoteFilesView::paintEvent(QPaintEvent *event)
{
    QTreeView::paintEvent(event);
    if (!m_dropTarget.isEmpty()) {
        QPainter painter(viewport());
        paintDropTarget(painter);
        return;
    }
    if (m_emptyHint.isEmpty() || !model() || model()->rowCount(rootIndex()) > 0) return;
    QPainter painter(viewport());
    painter.setPen(palette().color(QPalette::PlaceholderText));
    const QRect area = viewport()->rect().adjusted(16, 16, -16, -16);
    painter.drawText(area, int(Qt::AlignCenter | Qt::TextWordWrap), m_emptyHint);
}

} // namespace gantry::ui
