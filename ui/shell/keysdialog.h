#pragma once

#include <QDialog>

class QLabel;
class QListWidget;
class QPlainTextEdit;

namespace gantry::ui {

// The user's SSH public keys (~/.ssh and Gantry's own), a generator for a new ed25519 pair, and the
// public key ready to copy into a provider's console or authorized_keys.
class KeysDialog final : public QDialog
{
    Q_OBJECT

public:
    KeysDialog(QString configDir, QWidget *parent = nullptr);

    void reload();
    // Generates PATH (+ .pub) and selects it; returns an error message or an empty string.
    QString generate(const QString &path);
    QString selectedPublicKey() const;

private:
    void showSelected();

    QString m_configDir;
    QListWidget *m_list = nullptr;
    QPlainTextEdit *m_publicKey = nullptr;
    QLabel *m_info = nullptr;
};

} // namespace gantry::ui
