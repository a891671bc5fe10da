#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;

namespace gantry::ui {

// What a newcomer sees instead of an empty machines table: four ways to get a first machine.
// The page only asks; the window and the app wiring do the work.
class WelcomePage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WelcomePage)

public:
    explicit WelcomePage(QWidget *parent = nullptr);

    QPushButton *sandboxButton() const { return m_sandbox; }
    QLineEdit *sshCommandEdit() const { return m_sshCommand; }
    // "Launching the sandbox…" while it boots, or why it failed; empty hides it.
    void setStatus(const QString &text);
    QString statusText() const;

signals:
    void trySandbox();
    void addSshHost(const QString &loginCommand); // may be empty: the dialog asks
    void importSshConfig();
    void connectCloud();

private:
    QPushButton *addChoice(const QString &title, const QString &detail, QWidget *extra = nullptr);

    QWidget *m_choices;
    QPushButton *m_sandbox = nullptr;
    QLineEdit *m_sshCommand = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace gantry::ui
