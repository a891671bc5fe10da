#pragma once

#include "core/guard/machineguards.h"
#include "core/hosts/hoststore.h"

#include <QPointer>
#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace gantry::ssh {
class Connection;
}

namespace gantry::ui::monitor {

// "Idle guard on the instance" on the Monitor tab, opt-in per machine: a small program on the
// machine that stops it after N idle minutes with that machine's own scoped key, so it stops even
// while this computer sleeps. Shows whether it is installed, its threshold and how it will stop
// the machine, or why this provider's machines cannot stop themselves (the watcher does it then).
// Install, Remove and Check run through the core's guard::MachineGuards, on the machine's own SSH
// session, never on the GUI thread, and belong to the machine: one goes on (and is remembered) while
// another machine is shown. guards.json remembers which machines have one, so a reconnect asks the
// machine again.
class GuardPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GuardPanel)

public:
    // guards: the application core's; nullptr makes one of the panel's own (tests).
    GuardPanel(QString configDir, guard::MachineGuards *guards, QWidget *parent = nullptr);
    ~GuardPanel() override;

    void setMachine(const SavedHost &host, ssh::Connection *connection);
    void clearMachine();

    QString statusText() const;
    bool isBusy() const;
    bool isAvailable() const { return m_available; }
    std::optional<guard::GuardStatus> lastStatus() const { return m_last; }
    // Tests put the guard in a folder of their own (default ~/.gantry/guard).
    void setRemoteDir(const QString &dir);

    void install();
    void remove();
    void check();

signals:
    // A command (install, remove, check) ended, successfully or not.
    void finished();

private:
    void onConnectionState();
    void onAnswered(const QString &hostName, const Result<guard::GuardStatus> &status);
    void onRemembered(const QString &host, std::optional<guard::GuardStore::Entry> entry);
    // The answer of the shown machine's last command: its status, or why it could not be reached.
    void showAnswer(const Result<guard::GuardStatus> &status);
    void showStatus(const guard::GuardStatus &status);
    void setBusy(const QString &text);
    void updateButtons();
    QString whatItDoes(int minutes, guard::GuardAction action) const;
    guard::GuardAction chosenAction() const;

    QString m_configDir;
    guard::MachineGuards *m_guards;
    SavedHost m_host;
    QPointer<ssh::Connection> m_connection;
    providers::SelfStop m_method = providers::SelfStop::None;
    bool m_available = false;
    bool m_remembered = false;  // guards.json says this machine has one
    bool m_checkOnConnect = false;
    std::optional<guard::GuardStatus> m_last;

    QLabel *m_title = nullptr;
    QLabel *m_status = nullptr;
    QSpinBox *m_minutes = nullptr;
    QComboBox *m_action = nullptr;
    QPushButton *m_install = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_check = nullptr;
};

} // namespace gantry::ui::monitor
