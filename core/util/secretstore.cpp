#include "core/util/secretstore.h"

#include <QCoreApplication>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QHash>

#include <qt6keychain/keychain.h>

#include <mutex>

namespace gantry {
namespace {

const QString kService = QStringLiteral("gantry");

QString keychainError(QKeychain::Job &job)
{
    return QCoreApplication::translate("secrets",
                                       "the OS keychain refused (%1); on Linux start a Secret Service (GNOME Keyring or "
                                       "KWallet) and unlock it, or use an environment variable for this secret")
        .arg(job.errorString());
}

Error noKeyring()
{
    return Error{ErrorCode::Io, noKeyringMessage()};
}

// A Secret Service (GNOME Keyring, KeePassXC) or KWallet that answers a D-Bus ping, activated if
// need be, within 2 s in all. Without this check a desktop with a session bus but no keyring made
// every call wait for qtkeychain's D-Bus timeouts, a minute and more.
bool probeKeychain()
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected())
        return false;
    QElapsedTimer clock;
    clock.start();
    for (const char *service : {"org.freedesktop.secrets", "org.kde.kwalletd6", "org.kde.kwalletd5"}) {
        const int left = 2000 - int(clock.elapsed());
        if (left <= 0)
            return false;
        const QDBusMessage ping = QDBusMessage::createMethodCall(QString::fromLatin1(service), QStringLiteral("/"),
                                                                 QStringLiteral("org.freedesktop.DBus.Peer"), QStringLiteral("Ping"));
        if (bus.call(ping, QDBus::Block, left).type() == QDBusMessage::ReplyMessage)
            return true;
    }
    return false;
}

class KeychainSecretStore final : public SecretStore
{
public:
    Result<std::optional<QString>> read(const QString &key) override
    {
        if (!keychainAvailable())
            return noKeyring();
        QKeychain::ReadPasswordJob job(kService);
        job.setAutoDelete(false);
        job.setKey(key);
        runJob(job);
        if (job.error() == QKeychain::EntryNotFound)
            return std::optional<QString>{};
        if (job.error() != QKeychain::NoError)
            return makeError(ErrorCode::Io, keychainError(job));
        return std::optional<QString>{job.textData()};
    }

    Result<void> write(const QString &key, const QString &secret) override
    {
        if (!keychainAvailable())
            return noKeyring();
        QKeychain::WritePasswordJob job(kService);
        job.setAutoDelete(false);
        job.setKey(key);
        job.setTextData(secret);
        runJob(job);
        if (job.error() != QKeychain::NoError)
            return makeError(ErrorCode::Io, keychainError(job));
        return {};
    }

    Result<void> remove(const QString &key) override
    {
        if (!keychainAvailable())
            return noKeyring();
        QKeychain::DeletePasswordJob job(kService);
        job.setAutoDelete(false);
        job.setKey(key);
        runJob(job);
        if (job.error() != QKeychain::NoError && job.error() != QKeychain::EntryNotFound)
            return makeError(ErrorCode::Io, keychainError(job));
        return {};
    }

private:
    static void runJob(QKeychain::Job &job)
    {
        QEventLoop loop;
        QObject::connect(&job, &QKeychain::Job::finished, &loop, &QEventLoop::quit);
        job.start();
        loop.exec();
    }
};

class MemorySecretStore final : public SecretStore
{
public:
    Result<std::optional<QString>> read(const QString &key) override
    {
        if (!m_secrets.contains(key))
            return std::optional<QString>{};
        return std::optional<QString>{m_secrets.value(key)};
    }
    Result<void> write(const QString &key, const QString &secret) override
    {
        m_secrets.insert(key, secret);
        return {};
    }
    Result<void> remove(const QString &key) override
    {
        m_secrets.remove(key);
        return {};
    }

private:
    QHash<QString, QString> m_secrets;
};

} // namespace

bool keychainAvailable()
{
    static std::once_flag once;
    static bool available = false;
    std::call_once(once, [] { available = probeKeychain(); });
    return available;
}

QString noKeyringMessage()
{
    return QCoreApplication::translate("secrets",
                                       "No keyring found on this desktop (no Secret Service or KWallet answers). Set the "
                                       "provider's environment variable (GANTRY_LAMBDA_API_KEY, …) for this session, or let "
                                       "Gantry keep keys in a file only you can read: Settings → Accounts, or gantry-cli "
                                       "provider-key set --store file.");
}

std::unique_ptr<SecretStore> makeKeychainSecretStore()
{
    return std::make_unique<KeychainSecretStore>();
}

std::unique_ptr<SecretStore> makeMemorySecretStore()
{
    return std::make_unique<MemorySecretStore>();
}

} // namespace gantry
