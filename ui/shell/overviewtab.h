#pragma once

#include "ui/common/detailtab.h"
#include "core/hosts/machinefacts.h"
#include "core/util/canceltoken.h"

#include <QPointer>

class QAction;
class QLabel;
class QPushButton;
class QTreeWidget;

namespace gantry::ui {

// The facts every user checks by hand after renting a GPU, gathered over SSH on connect.
class OverviewTab final : public DetailTab
{
    Q_OBJECT

public:
    explicit OverviewTab(QWidget *parent = nullptr);
    ~OverviewTab() override;

    QString title() const override { return tr("Overview"); }
    void setMachine(const SavedHost &host, ssh::Connection *connection) override;
    void clearMachine() override;

    // For tests: shows facts as if just gathered.
    void showFacts(const MachineFacts &facts);
    // Copies the selected facts ("Fact: value" lines) to the clipboard and returns the text.
    QString copySelected() const;

private:
    void refresh();
    void onStateChanged();
    void showMessage(const QString &text);

    SavedHost m_host;
    QPointer<ssh::Connection> m_connection;
    QLabel *m_status = nullptr;
    QTreeWidget *m_facts = nullptr;
    QPushButton *m_refresh = nullptr;
    QPushButton *m_cancel = nullptr;
    QAction *m_copy = nullptr;
    quint64 m_generation = 0; // drops results of a machine that is no longer shown
    CancelToken m_gathering;  // the refresh in flight: Cancel stops it, and nothing else on the machine
};

} // namespace gantry::ui
