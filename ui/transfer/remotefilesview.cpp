#include "remotefilesview.h"

namespace gantry::ui {

void RemoteFilesView::startDrag(Qt::DropActions supportedActions)
{
    if (m_dragStarter) {
        m_dragStarter();
        return;
    }
    QTreeView::startDrag(supportedActions);
}

} // namespace gantry::ui
