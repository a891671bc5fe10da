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

// True when `key` is the host key the host's provider vouches for (SavedHost::hostKeyFingerprint,
// the sandbox's own sshd): trusted as new without asking the user.
bool vouchedHostKey(const SavedHost &host, const ssh::HostKeyInfo &key);

// Connect options for a saved host, non-interactive: the password/passphrase come from the secret
// store; unknown host keys are refused (the GUI's main connection asks first) unless vouched for. Background sessions
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

    // Host-key and password prompts for interactive connects. Called on the connection's worker
    // thread with its closing flag: an implementation asks on the GUI thread without blocking it
    // and waits for the answer or the flag, whichever comes first (the connection's destructor
    // sets it, then joins the worker: a prompt that ignored it would wait for the GUI thread while
    // the GUI thread waits for it).
    using HostKeyPrompt = std::function<bool(const ssh::HostKeyInfo &, const std::atomic_bool *closing)>;
    using SecretPrompt = std::function<std::optional<QString>(const QString &, const std::atomic_bool *closing)>;
    void setPrompts(HostKeyPrompt confirmHostKey, SecretPrompt askPassword, SecretPrompt askPassphrase);
    void setKnownHostsFile(const QString &path) { m_knownHostsFile = path; }
    QString knownHostsFile() const { return m_knownHostsFile; }

    ssh::Connection *connection(const QString &hostName) const; // nullptr if never connected
    ssh::Connection *connectHost(const QString &hostName);      // creates/reuses, starts connecting
    void disconnectHost(const QString &hostName);
    // Ends the host's connection now and forgets it (a removed host): its worker is joined, and a
    // prompt it was waiting on gives up (see setPrompts).
    void forget(const QString &hostName);
    SecretStore *secrets() const { return m_secrets; }
    HostStore *hosts() const { return m_hosts; }

signals:
    void stateChanged(const QString &hostName, gantry::ssh::ConnectionState state, const QString &message);

private:
    HostStore *m_hosts;
    SecretStore *m_secrets;
    QString m_knownHostsFile;
    QHash<QString, ssh::Connection *> m_connections;
    HostKeyPrompt m_confirmHostKey;
    SecretPrompt m_askPassword;
    SecretPrompt m_askPassphrase;
};

} // namespace gantry
