#pragma once

#include "core/util/result.h"

#include <QHash>
#include <QWidget>

#include <functional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace gantry {
class SecretStore;
}

namespace gantry::ui {

// Settings → Accounts: one box per cloud provider from the registry (new providers appear without
// edits here). A key is tested with one API call before it is stored in the keychain, and is never
// shown again; Replace and Remove work on the stored one. The endpoint override is for advanced
// users (a proxy, a staging API). Keychain reads and writes run on a thread; API calls are the
// providers' own asynchronous requests.
class AccountsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AccountsPage)

public:
    AccountsPage(QString configDir, SecretStore *secrets, QWidget *parent = nullptr);

    QLineEdit *keyEdit(const QString &providerId) const;
    QLineEdit *endpointEdit(const QString &providerId) const;
    QString statusText(const QString &providerId) const;
    bool isBusy(const QString &providerId) const;
    // Shown once for the page where no keyring answers (empty otherwise).
    QString keyringNote() const;

    // Tests the key typed for the provider, then stores it (and the endpoint override).
    void testAndSave(const QString &providerId);
    void removeKey(const QString &providerId);
    // Stores the endpoint overrides typed; the first error, or empty. A changed one is announced
    // with accountsChanged() (the providers are made again with it) unless announce is false.
    QString saveEndpoints(bool announce = true);

signals:
    void accountsChanged(); // a key was stored or removed: the providers should be reloaded
    void busyChanged();

private:
    struct Row
    {
        QLabel *status = nullptr;
        QLineEdit *key = nullptr;
        QLineEdit *endpoint = nullptr;
        QPushButton *save = nullptr;
        QPushButton *remove = nullptr;
        bool busy = false;
    };
    QWidget *buildRow(const QString &id);
    void setStatus(const QString &id, const QString &text, bool error);
    void setBusy(const QString &id, bool busy);
    void refreshStatus();
    // Runs work on a thread, then then() on the GUI thread (if the page still exists).
    void offThread(std::function<Result<void>()> work, std::function<void(const Result<void> &)> then);
    void store(const QString &id, const QString &key);
    // A keyring error is said once, above the boxes, with the file offered; true when it was one.
    bool noteKeyring(const Error &error);
    void setFileStore(bool on);

    QString m_configDir;
    SecretStore *m_secrets;
    QHash<QString, Row> m_rows;
    QLabel *m_keyringNote = nullptr;
    QCheckBox *m_fileStore = nullptr;
    QLabel *m_fileDetail = nullptr;
};

} // namespace gantry::ui
