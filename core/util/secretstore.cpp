#include "core/util/secretstore.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QHash>

#include <qt6keychain/keychain.h>

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

class KeychainSecretStore final : public SecretStore
{
public:
    Result<std::optional<QString>> read(const QString &key) override
    {
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

std::unique_ptr<SecretStore> makeKeychainSecretStore()
{
    return std::make_unique<KeychainSecretStore>();
}

std::unique_ptr<SecretStore> makeMemorySecretStore()
{
    return std::make_unique<MemorySecretStore>();
}

} // namespace gantry
