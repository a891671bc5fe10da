// SPDX-License-Identifier: Apache-2.0
#include "core/storage/buckets.h"

#include "core/storage/storagetext.h"
#include "core/util/secretstore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>

namespace gantry::storage {
namespace {

QString secretName(const QString &name)
{
    return QStringLiteral("storage/%1/keys").arg(name);
}

QJsonObject toJson(const StoredBucket &bucket)
{
    return QJsonObject{{QStringLiteral("name"), bucket.config.name},
                       {QStringLiteral("endpoint"), bucket.config.endpoint},
                       {QStringLiteral("bucket"), bucket.config.bucket},
                       {QStringLiteral("region"), bucket.config.region},
                       {QStringLiteral("keys"), keySourceName(bucket.keys)}};
}

StoredBucket fromJson(const QJsonObject &object)
{
    StoredBucket bucket;
    bucket.config.name = object.value(QStringLiteral("name")).toString();
    bucket.config.endpoint = object.value(QStringLiteral("endpoint")).toString();
    bucket.config.bucket = object.value(QStringLiteral("bucket")).toString();
    bucket.config.region = object.value(QStringLiteral("region")).toString(QStringLiteral("us-east-1"));
    bucket.keys = object.value(QStringLiteral("keys")).toString() == QLatin1String("environment") ? KeySource::Environment
                                                                                                  : KeySource::Keychain;
    return bucket;
}

Error noSuchStorage(const QString &name)
{
    return Error{ErrorCode::NotFound, StorageText::tr("No storage is called \"%1\": see gantry-cli storage list, or add it with gantry-cli storage add.").arg(name)};
}

} // namespace

std::optional<sigv4::Credentials> environmentCredentials()
{
    sigv4::Credentials credentials{qEnvironmentVariable("AWS_ACCESS_KEY_ID").trimmed(),
                                   qEnvironmentVariable("AWS_SECRET_ACCESS_KEY").trimmed(),
                                   qEnvironmentVariable("AWS_SESSION_TOKEN").trimmed()};
    if (!credentials.isComplete())
        return std::nullopt;
    return credentials;
}

QString keySourceName(KeySource source)
{
    return source == KeySource::Environment ? QStringLiteral("environment") : QStringLiteral("keychain");
}

Buckets::Buckets(QString configDir, SecretStore *secrets)
    : m_configDir(std::move(configDir))
    , m_secrets(secrets)
{
}

QString Buckets::path() const
{
    return QDir(m_configDir).filePath(QStringLiteral("storage.json"));
}

Result<void> Buckets::checkName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$"));
    if (!pattern.match(name).hasMatch()) {
        return Error{ErrorCode::Usage, StorageText::tr("\"%1\" cannot name a storage: use up to 63 letters, digits, '.', '_' or '-'.").arg(name)};
    }
    return {};
}

Result<QList<StoredBucket>> Buckets::list() const
{
    QFile file(path());
    if (!file.exists())
        return QList<StoredBucket>{};
    if (!file.open(QIODevice::ReadOnly))
        return Error{ErrorCode::Io, StorageText::tr("Cannot read %1: %2.").arg(path(), file.errorString())};
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        return Error{ErrorCode::Parse, StorageText::tr("%1 is damaged (%2): fix or delete it, then add the storage again.")
                                           .arg(path(), parseError.errorString())};
    }
    QList<StoredBucket> out;
    for (const QJsonValue &value : document.object().value(QStringLiteral("buckets")).toArray())
        out.append(fromJson(value.toObject()));
    return out;
}

Result<void> Buckets::save(const QList<StoredBucket> &buckets) const
{
    QJsonArray array;
    for (const StoredBucket &bucket : buckets)
        array.append(toJson(bucket));
    QDir().mkpath(m_configDir);
    QSaveFile file(path());
    if (!file.open(QIODevice::WriteOnly))
        return Error{ErrorCode::Io, StorageText::tr("Cannot write %1: %2.").arg(path(), file.errorString())};
    file.write(QJsonDocument(QJsonObject{{QStringLiteral("version"), 1}, {QStringLiteral("buckets"), array}}).toJson());
    if (!file.commit())
        return Error{ErrorCode::Io, StorageText::tr("Cannot write %1: %2.").arg(path(), file.errorString())};
    return {};
}

Result<StoredBucket> Buckets::find(const QString &name) const
{
    Result<QList<StoredBucket>> buckets = list();
    if (!buckets)
        return buckets.error();
    for (const StoredBucket &bucket : std::as_const(*buckets)) {
        if (bucket.config.name == name)
            return bucket;
    }
    return noSuchStorage(name);
}

Result<StoredBucket> Buckets::add(const BucketConfig &config, const sigv4::Credentials &credentials, KeySource keys,
                                  const std::atomic_bool *cancel)
{
    if (Result<void> named = checkName(config.name); !named)
        return named.error();
    if (config.bucket.isEmpty() || config.bucket.contains(QLatin1Char('/')) || config.bucket.size() > 255)
        return Error{ErrorCode::Usage, StorageText::tr("\"%1\" is not a bucket name: give the bucket alone, without slashes.").arg(config.bucket)};
    if (Result<QUrl> endpoint = checkStorageEndpoint(config.endpoint); !endpoint)
        return endpoint.error();
    Result<QList<StoredBucket>> existing = list();
    if (!existing)
        return existing.error();
    for (const StoredBucket &bucket : std::as_const(*existing)) {
        if (bucket.config.name == config.name)
            return Error{ErrorCode::Conflict, StorageText::tr("A storage is already called \"%1\": remove it first (gantry-cli storage remove %1) or choose another name.").arg(config.name)};
    }
    if (Result<void> works = S3Client(config, credentials).checkAccess(cancel); !works)
        return works.error();
    if (keys == KeySource::Keychain) {
        const QJsonObject secret{{QStringLiteral("access_key_id"), credentials.accessKeyId},
                                 {QStringLiteral("secret_access_key"), credentials.secretAccessKey}};
        if (Result<void> written = m_secrets->write(secretName(config.name), QString::fromUtf8(QJsonDocument(secret).toJson(QJsonDocument::Compact))); !written)
            return written.error();
    }
    const StoredBucket added{config, keys};
    existing->append(added);
    if (Result<void> saved = save(*existing); !saved) {
        if (keys == KeySource::Keychain)
            (void)m_secrets->remove(secretName(config.name));
        return saved.error();
    }
    return added;
}

Result<void> Buckets::remove(const QString &name)
{
    Result<QList<StoredBucket>> buckets = list();
    if (!buckets)
        return buckets.error();
    const qsizetype before = buckets->size();
    const auto removed = std::find_if(buckets->cbegin(), buckets->cend(), [&](const StoredBucket &b) { return b.config.name == name; });
    if (removed == buckets->cend())
        return noSuchStorage(name);
    const KeySource keys = removed->keys;
    buckets->removeIf([&](const StoredBucket &b) { return b.config.name == name; });
    Q_ASSERT(buckets->size() == before - 1);
    if (Result<void> saved = save(*buckets); !saved)
        return saved.error();
    if (keys == KeySource::Keychain)
        return m_secrets->remove(secretName(name));
    return {};
}

Result<sigv4::Credentials> Buckets::credentials(const StoredBucket &bucket) const
{
    if (bucket.keys == KeySource::Environment) {
        if (std::optional<sigv4::Credentials> fromEnvironment = environmentCredentials())
            return *fromEnvironment;
        return Error{ErrorCode::AuthFailed, StorageText::tr("Storage \"%1\" takes its keys from the environment: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary keys).")
                                                .arg(bucket.config.name)};
    }
    Result<std::optional<QString>> stored = m_secrets->read(secretName(bucket.config.name));
    if (!stored)
        return stored.error();
    const QJsonObject secret = QJsonDocument::fromJson(stored->value_or(QString()).toUtf8()).object();
    sigv4::Credentials out{secret.value(QStringLiteral("access_key_id")).toString(),
                           secret.value(QStringLiteral("secret_access_key")).toString(), {}};
    if (!out.isComplete()) {
        return Error{ErrorCode::AuthFailed, StorageText::tr("The keys of storage \"%1\" are not in the keychain any more: remove it and add it again.")
                                                .arg(bucket.config.name)};
    }
    return out;
}

MultipartPolicy Buckets::multipartPolicy() const
{
    MultipartPolicy policy;
    policy.journal = QDir(m_configDir).filePath(QStringLiteral("storage-uploads.json"));
    return policy;
}

Result<S3Client> Buckets::client(const QString &name) const
{
    Result<StoredBucket> bucket = find(name);
    if (!bucket)
        return bucket.error();
    Result<sigv4::Credentials> keys = credentials(*bucket);
    if (!keys)
        return keys.error();
    return S3Client(bucket->config, *keys);
}

} // namespace gantry::storage
