#pragma once

#include "core/providers/providerhub.h"

#include <QSet>
#include <QTimer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace gantry {
namespace cost { class Ledger; }
namespace workspace { class Workspace; }
} // namespace gantry

namespace gantry::ui {

class InstancesModel;

// What a confirmation says before an action: what is lost and what keeps billing.
QString confirmationText(const providers::ProviderInfo &info, const providers::Instance &instance, const QString &action);

// The Instances view: instances of every provider with Stop/Start/Restart/Terminate. Every action
// is confirmed with exactly what is lost and what keeps billing, then done by the workspace (which
// records it). Refreshes on a timer; the workspace keeps the ledger in step with each listing and
// saves hosts for instances that come up, launched from any view, which this panel announces once
// (hostReady()).
class InstancesPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InstancesPanel)

public:
    explicit InstancesPanel(workspace::Workspace *workspace, QWidget *parent = nullptr);

    InstancesModel *model() const { return m_model; }
    // Tests answer confirmations without a dialog.
    void setConfirmer(std::function<bool(const QString &title, const QString &text)> confirmer) { m_confirm = std::move(confirmer); }
    // Asked before the terminate confirmation (results home, transfers pending); false stops it,
    // true means the user settled the results question.
    void setTerminateGuard(std::function<bool(const providers::Instance &)> guard) { m_terminateGuard = std::move(guard); }
    // What else a terminate ends (running jobs, Keep in sync folders), added to its question.
    void setTerminateNotes(std::function<QStringList(const providers::Instance &)> notes) { m_terminateNotes = std::move(notes); }

    // Selects the provider's instance `id`, as the Machine menu does before it acts on the selected
    // machine's instance; false when the list does not hold it (yet).
    bool selectInstance(const QString &provider, const QString &id);

public slots:
    void refresh();
    void act(const QString &action); // "stop", "start", "restart", "terminate" on the selection

signals:
    void hostReady(const QString &hostName);
    void message(const QString &text);

private:
    void updateButtons();
    void followLaunches();
    void announce(const QString &hostName);

    workspace::Workspace *m_workspace;
    providers::ProviderHub *m_hub;
    cost::Ledger *m_ledger;
    InstancesModel *m_model;
    QTableView *m_view;
    QLabel *m_status;
    QPushButton *m_stop;
    QPushButton *m_start;
    QPushButton *m_restart;
    QPushButton *m_terminate;
    QTimer m_timer;
    QSet<QString> m_announced;
    std::function<bool(const QString &, const QString &)> m_confirm;
    std::function<bool(const providers::Instance &)> m_terminateGuard;
    std::function<QStringList(const providers::Instance &)> m_terminateNotes;
};

} // namespace gantry::ui
