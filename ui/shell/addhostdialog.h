#pragma once

#include "core/hosts/hoststore.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace gantry::ui {

// Add any GPU machine reachable by SSH: a pasted "ssh -p PORT root@HOST" works too.
class AddHostDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit AddHostDialog(QWidget *parent = nullptr);

    SavedHost host() const;
    QString password() const; // goes to the keychain only, never to hosts.json
    void setHost(const SavedHost &host);
    // Settings → default SSH key: offered in the key field (a pasted "-i FILE" still wins).
    void setDefaultKeyFile(const QString &file);

    // Parses "ssh -p 23456 root@region.example.com" or "root@host:port" into the fields.
    bool applySshCommand(const QString &text);

private:
    void validate();

    QLineEdit *m_paste = nullptr;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_address = nullptr;
    QSpinBox *m_port = nullptr;
    QLineEdit *m_user = nullptr;
    QComboBox *m_auth = nullptr;
    QLineEdit *m_keyFile = nullptr;
    QLineEdit *m_password = nullptr;
    QDoubleSpinBox *m_price = nullptr;
    QComboBox *m_currency = nullptr;
    QLabel *m_error = nullptr;
    QPushButton *m_ok = nullptr;
};

} // namespace gantry::ui
