#pragma once

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTabWidget;

namespace gantry {
class SecretStore;
namespace cost { class Ledger; }
} // namespace gantry

namespace gantry::ui {

class AccountsPage;

// Settings (Ctrl+,): Accounts (cloud API keys, endpoints) and General (default SSH key, idle
// policy defaults, the acceptance test after a launch, budgets, language). The same keys as
// `gantry-cli settings` (util/appsettings.h); budgets are the ledger's, as in the Cost view.
class SettingsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsDialog)

public:
    // ledger may be null (no budgets then).
    SettingsDialog(QString configDir, SecretStore *secrets, cost::Ledger *ledger, QWidget *parent = nullptr);

    void showPage(const QString &page); // "accounts" or "general"
    AccountsPage *accounts() const { return m_accounts; }
    // Writes the General page and the endpoints; the first error (shown in the dialog), or empty.
    QString save();

signals:
    void accountsChanged();
    void settingsSaved(); // idle defaults, budgets or the language changed

private:
    QWidget *buildGeneral();

    QString m_configDir;
    cost::Ledger *m_ledger;
    QTabWidget *m_tabs;
    AccountsPage *m_accounts;
    QLineEdit *m_sshKey = nullptr;
    QComboBox *m_idleAction = nullptr;
    QSpinBox *m_idleMinutes = nullptr;
    QSpinBox *m_countdown = nullptr;
    QDoubleSpinBox *m_daily = nullptr;
    QDoubleSpinBox *m_monthly = nullptr;
    QComboBox *m_afterLaunch = nullptr;
    QComboBox *m_language = nullptr;
    QLabel *m_error = nullptr;
};

} // namespace gantry::ui
