#pragma once

#include <QTreeView>

#include <functional>

namespace gantry::ui {

// The Files tab's list. A drag out of it does not carry the model's own mime data: the tab turns
// the selection into staged downloads (see DragOutStaging), so the view hands the drag over.
class RemoteFilesView final : public QTreeView
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteFilesView)

public:
    using QTreeView::QTreeView;
    void setDragStarter(std::function<void()> starter) { m_dragStarter = std::move(starter); }

protected:
    void startDrag(Qt::DropActions supportedActions) override;

private:
    std::function<void()> m_dragStarter;
};

} // namespace gantry::ui
