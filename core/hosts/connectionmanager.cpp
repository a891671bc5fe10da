#include "core/hosts/connectionmanager.h"

namespace gantry {

QString hostSecretKey(const QString &hostName, const QString &kind)
{
    return QStringLiteral("host/") + hostName + QLatin1Char('/') + kind;
}

void forgetHostSecrets(SecretStore &secrets, const QString &hostName)
{
    for (const QString &kind : {QStringLiteral("password"), QStringLiteral("passphrase")})
        (void)secrets.remove(hostSecretKey(hostName, kind));
}

bool vouchedHostKey(const SavedHost &host, const ssh::HostKeyInfo &key)
{
    return !host.hostKeyFingerprint.isEmpty() && key.fingerprint == host.hostKeyFingerprint;
}

ssh::ConnectOptions backgroundConnectOptions(const SavedHost &host, SecretStore *secrets, const QString &knownHostsFile)
{
    ssh::ConnectOptions options;
    options.knownHostsFile = knownHostsFile;
    options.acceptNewHostKey = false;
    if (!host.hostKeyFingerprint.isEmpty())
        options.confirmNewHostKey = [host](const ssh::HostKeyInfo &key) { return vouchedHostKey(host, key); };
    if (secrets) {
        const QString name = host.name;
        auto fromStore = [secrets, name](const QString &) -> std::optional<QString> {
            auto secret = secrets->read(hostSecretKey(name, QStringLiteral("password")));
            return secret ? *secret : std::nullopt;
        };
        options.password = fromStore;
        options.passphrase = [secrets, name](const QString &) -> std::optional<QString> {
            auto secret = secrets->read(hostSecretKey(name, QStringLiteral("passphrase")));
            return secret ? *secret : std::nullopt;
        };
    }
    return options;
}

ConnectionManager::ConnectionManager(HostStore *hosts, SecretStore *secrets, QObject *parent)
    : QObject(parent)
    , m_hosts(hosts)
    , m_secrets(secrets)
{
}

ConnectionManager::~ConnectionManager()
{
    qDeleteAll(m_connections);
}

void ConnectionManager::setPrompts(HostKeyPrompt confirmHostKey, SecretPrompt askPassword, SecretPrompt askPassphrase)
{
    m_confirmHostKey = std::move(confirmHostKey);
    m_askPassword = std::move(askPassword);
    m_askPassphrase = std::move(askPassphrase);
}

ssh::Connection *ConnectionManager::connection(const QString &hostName) const
{
    return m_connections.value(hostName);
}

ssh::Connection *ConnectionManager::connectHost(const QString &hostName)
{
    const std::optional<SavedHost> host = m_hosts->find(hostName);
    if (!host)
        return nullptr;
    ssh::Connection *conn = m_connections.value(hostName);
    if (conn && conn->target() != host->target) {
        m_connections.remove(hostName);
        conn->deleteLater();
        conn = nullptr;
    }
    if (!conn) {
        conn = new ssh::Connection(host->target, this);
        m_connections.insert(hostName, conn);
        connect(conn, &ssh::Connection::stateChanged, this,
                [this, hostName](ssh::ConnectionState state, const QString &message) {
                    emit stateChanged(hostName, state, message);
                });
    }
    // Stored secrets first; the user is asked only when none is stored (and may save it then).
    ssh::ConnectOptions options = backgroundConnectOptions(*host, m_secrets, m_knownHostsFile);
    // Shared, not borrowed: the password and passphrase questions go on to sibling sessions (Verify,
    // transfers), which may ask after this connection is gone (or disconnected: no question then).
    const std::shared_ptr<const std::atomic_bool> closing = conn->closingFlag();
    if (m_confirmHostKey) {
        options.confirmNewHostKey = [confirm = m_confirmHostKey, closing, saved = *host](const ssh::HostKeyInfo &info) {
            return vouchedHostKey(saved, info) || confirm(info, closing.get());
        };
    }
    auto storedPassword = options.password;
    auto ask = m_askPassword;
    options.password = [storedPassword, ask, closing](const QString &prompt) -> std::optional<QString> {
        if (storedPassword) {
            if (auto stored = storedPassword(prompt))
                return stored;
        }
        return ask ? ask(prompt, closing.get()) : std::nullopt;
    };
    auto storedPassphrase = options.passphrase;
    auto askPhrase = m_askPassphrase;
    options.passphrase = [storedPassphrase, askPhrase, closing](const QString &file) -> std::optional<QString> {
        if (storedPassphrase) {
            if (auto stored = storedPassphrase(file))
                return stored;
        }
        return askPhrase ? askPhrase(file, closing.get()) : std::nullopt;
    };
    conn->connectToHost(options);
    return conn;
}

void ConnectionManager::forget(const QString &hostName)
{
    delete m_connections.take(hostName);
}

void ConnectionManager::disconnectHost(const QString &hostName)
{
    if (ssh::Connection *conn = m_connections.value(hostName))
        conn->disconnectFromHost();
}

} // namespace gantry
