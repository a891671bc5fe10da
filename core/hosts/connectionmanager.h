#pragma once

#include "core/hosts/hoststore.h"
#include "core/ssh/connection.h"
#include "core/util/secretstore.h"

#include <QHash>
#include <QObject>

#include <functional>

namespace gantry {

// The SecretStore key of a host's secret; kind is "password" or "passphrase".
QString hostSecretKey(const QString &hostName, const QString &kind);
// Deletes a removed host's stored password and passphrase. Best effort: a missing keychain only
// means nothing was stored there.
void forgetHostSecrets(SecretStore &secrets, const QString &hostName);

// Connect options for a saved host, non-interactive: the password/passphrase come from the secret
// store; unknown host keys are refused (the GUI's main connection asks first). Background sessions
// (monitor, transfers, jobs) use this to open their own connections on their own threads.
ssh::ConnectOptions backgroundConnectOptions(const SavedHost &host, SecretStore *secrets,
                                             const QString &knownHostsFile = {});

// The GUI's one interactive connection per saved host (by name). Owned by the GUI thread.
class ConnectionManager final : public QObject
{
    Q_OBJECT

public:
    ConnectionManager(HostStore *hosts, SecretStore *secrets, QObject *parent = nullptr);
    ~ConnectionManager() override;

    // Host-key and password prompts for interactive connects; called on a worker thread, so
    // implementations must hop to the GUI thread (BlockingQueuedConnection) to ask.
    void setPrompts(std::function<bool(const ssh::HostKeyInfo &)> confirmHostKey,
                    std::function<std::optional<QString>(const QString &)> askPassword,
                    std::function<std::optional<QString>(const QString &)> askPassphrase);
    void setKnownHostsFile(const QString &path) { m_knownHostsFile = path; }
    QString knownHostsFile() const { return m_knownHostsFile; }

    ssh::Connection *connection(const QString &hostName) const; // nullptr if never connected
    ssh::Connection *connectHost(const QString &hostName);      // creates/reuses, starts connecting
    void disconnectHost(const QString &hostName);
    SecretStore *secrets() const { return m_secrets; }
    HostStore *hosts() const { return m_hosts; }

signals:
    void stateChanged(const QString &hostName, gantry::ssh::ConnectionState state, const QString &message);

private:
    HostStore *m_hosts;
    SecretStore *m_secrets;
    QString m_knownHostsFile;
    QHash<QString, ssh::Connection *> m_connections;
    std::function<bool(const ssh::HostKeyInfo &)> m_confirmHostKey;
    std::function<std::optional<QString>(const QString &)> m_askPassword;
    std::function<std::optional<QString>(const QString &)> m_askPassphrase;
};

} // namespace gantry
