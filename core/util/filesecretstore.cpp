// SPDX-License-Identifier: Apache-2.0
// Secrets in a file only the user can read, for desktops without a keyring, and only after the user
// chose it; and the desktop's store, which puts that file before the keychain when it exists.
#include "core/util/secretstore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <mutex>

namespace gantry {
namespace {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class SecretsText
{
    Q_DECLARE_TR_FUNCTIONS(secrets)
};

// <configDir>/secrets.json: {"secrets": {"provider/lambda/api-key": "…"}}, mode 0600 from its
// first byte (QSaveFile's temporary file gets the mode before anything is written), replaced whole.
class FileSecretStore final : public SecretStore
{
public:
    explicit FileSecretStore(QString path) : m_path(std::move(path)) {}

    Result<std::optional<QString>> read(const QString &key) override
    {
        std::lock_guard lock(m_mutex);
        Result<QJsonObject> all = load();
        if (!all)
            return all.error();
        if (!all->contains(key))
            return std::optional<QString>{};
        return std::optional<QString>{all->value(key).toString()};
    }

    Result<void> write(const QString &key, const QString &secret) override
    {
        std::lock_guard lock(m_mutex);
        Result<QJsonObject> all = load();
        if (!all)
            return all.error();
        all->insert(key, secret);
        return save(*all);
    }

    Result<void> remove(const QString &key) override
    {
        std::lock_guard lock(m_mutex);
        Result<QJsonObject> all = load();
        if (!all)
            return all.error();
        if (!all->contains(key))
            return {};
        all->remove(key);
        return save(*all);
    }

    bool exists() const { return QFile::exists(m_path); }

    Result<QJsonObject> load() const
    {
        QFile file(m_path);
        if (!file.exists())
            return QJsonObject{};
        if (!file.open(QIODevice::ReadOnly))
            return Error{ErrorCode::Io, SecretsText::tr("Cannot read %1: %2.").arg(m_path, file.errorString())};
        const QJsonDocument doc = QJsonDocument::fromJson(file.readAll());
        if (!doc.isObject())
            return Error{ErrorCode::Parse, SecretsText::tr("%1 is damaged; remove it and store the keys again (Settings → Accounts).").arg(m_path)};
        return doc.object().value(QStringLiteral("secrets")).toObject();
    }

    Result<void> save(const QJsonObject &secrets) const
    {
        QDir().mkpath(QFileInfo(m_path).absolutePath());
        QSaveFile file(m_path);
        if (!file.open(QIODevice::WriteOnly) || !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner))
            return Error{ErrorCode::Io, SecretsText::tr("Cannot write %1: %2.").arg(m_path, file.errorString())};
        file.write(QJsonDocument(QJsonObject{{QStringLiteral("secrets"), secrets}}).toJson());
        if (!file.commit())
            return Error{ErrorCode::Io, SecretsText::tr("Cannot write %1: %2.").arg(m_path, file.errorString())};
        return {};
    }

private:
    QString m_path;
    std::mutex m_mutex;
};

// The file when the user chose it (asked each time, so a choice made in another process applies),
// else the keychain.
class DesktopSecretStore final : public SecretStore
{
public:
    explicit DesktopSecretStore(const QString &configDir)
        : m_file(secretsFilePath(configDir))
        , m_keychain(makeKeychainSecretStore())
    {
    }

    Result<std::optional<QString>> read(const QString &key) override
    {
        if (!m_file.exists())
            return m_keychain->read(key);
        Result<std::optional<QString>> found = m_file.read(key);
        if (!found || found->has_value() || !keychainAvailable())
            return found;
        return m_keychain->read(key); // kept there before the file was chosen
    }

    Result<void> write(const QString &key, const QString &secret) override
    {
        return m_file.exists() ? m_file.write(key, secret) : m_keychain->write(key, secret);
    }

    Result<void> remove(const QString &key) override
    {
        if (!m_file.exists())
            return m_keychain->remove(key);
        if (Result<void> removed = m_file.remove(key); !removed)
            return removed;
        return keychainAvailable() ? m_keychain->remove(key) : Result<void>();
    }

private:
    FileSecretStore m_file;
    std::unique_ptr<SecretStore> m_keychain;
};

} // namespace

QString secretsFilePath(const QString &configDir)
{
    return QDir(configDir).filePath(QStringLiteral("secrets.json"));
}

bool secretsFileEnabled(const QString &configDir)
{
    return QFile::exists(secretsFilePath(configDir));
}

Result<void> enableSecretsFile(const QString &configDir)
{
    FileSecretStore file(secretsFilePath(configDir));
    if (file.exists())
        return {};
    return file.save(QJsonObject{});
}

Result<void> disableSecretsFile(const QString &configDir)
{
    const QString path = secretsFilePath(configDir);
    if (QFile::exists(path) && !QFile::remove(path))
        return Error{ErrorCode::Io, SecretsText::tr("Cannot remove %1; delete it yourself.").arg(path)};
    return {};
}

std::unique_ptr<SecretStore> makeDesktopSecretStore(const QString &configDir)
{
    return std::make_unique<DesktopSecretStore>(configDir);
}

} // namespace gantry
