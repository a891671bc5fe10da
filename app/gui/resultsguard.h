#pragma once

#include <QObject>

class QWidget;

namespace gantry {
namespace providers { struct Instance; }
namespace workspace { class ResultsHome; class Workspace; }
} // namespace gantry

namespace gantry::app {

// The dialogs of "results home before terminate": what to do is decided by workspace::ResultsHome;
// this asks the user where it says so (download first, go on without, wait for the download).
// "Download first" hands the terminate to the workspace unacknowledged, which brings the results
// home and then terminates (never after a failed download).
class ResultsGuard final : public QObject
{
    Q_OBJECT

public:
    ResultsGuard(workspace::Workspace *workspace, QWidget *dialogParent, QObject *parent = nullptr);

    // True when terminating may go ahead now (asks the user where needed).
    bool allowTerminate(const providers::Instance &instance);

signals:
    // How a "download first, then terminate" ended.
    void message(const QString &text);

private:
    workspace::Workspace *m_workspace;
    workspace::ResultsHome *m_results;
    QWidget *m_parent;
};

} // namespace gantry::app
