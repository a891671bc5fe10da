#pragma once

#include <QTreeView>

#include <functional>

class QPainter;

namespace gantry::ui {

// The Files tab's list. A drag out of it does not carry the model's own mime data: the tab turns
// the selection into staged downloads (see DragOutStaging), so the view hands the drag over. With
// no rows it shows the empty hint (what to do in an empty folder) in the middle of the list.
class RemoteFilesView final : public QTreeView
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteFilesView)

public:
    using QTreeView::QTreeView;
    void setDragStarter(std::function<void()> starter) { m_dragStarter = std::move(starter); }
    void setEmptyHint(const QString &hint);
    QString emptyHint() const { return m_emptyHint; }
    // While files are dragged over the list: a frame around it and `text` (where they go) along
    // its bottom; empty: none.
    void setDropTarget(const QString &text);
    QString dropTarget() const { return m_dropTarget; }

protected:
    void startDrag(Qt::DropActions supportedActions) override;
    void paintEvent(QPaintEvent *event) override;

private:
    void paintDropTarget(QPainter &painter) const;

    std::function<void()> m_dragStarter;
    QString m_emptyHint;
    QString m_dropTarget;
};

} // namespace gantry::ui
