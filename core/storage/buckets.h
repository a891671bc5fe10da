// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/storage/machinecopy.h"
#include "core/storage/s3client.h"
#include "core/util/result.h"

#include <QList>
#include <QString>

#include <atomic>
#include <optional>

namespace gantry {
class SecretStore;
}

namespace gantry::storage {

// Where a bucket's keys come from. Keys from the environment are read at each use and never
// written anywhere; keys in the keychain were given to `storage add` and tested first.
enum class KeySource
{
    Keychain,
    Environment,
};

struct StoredBucket
{
    BucketConfig config;
    KeySource keys = KeySource::Keychain;
};

// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, when the first two are set.
std::optional<sigv4::Credentials> environmentCredentials();
QString keySourceName(KeySource source); // "keychain", "environment"

// The configured buckets (<configDir>/storage.json; the keys in the SecretStore under
// "storage/<name>/keys"): one implementation of add, list, remove and the keys of a bucket for the
// window and gantry-cli. Calls block on the network and the keychain: off the GUI thread.
class Buckets final
{
public:
    Buckets(QString configDir, SecretStore *secrets);

    Result<QList<StoredBucket>> list() const;
    Result<StoredBucket> find(const QString &name) const;
    // Checks the name and the endpoint, makes one request with the keys (nothing is saved when it
    // fails), then stores the keys (KeySource::Keychain) and the bucket.
    Result<StoredBucket> add(const BucketConfig &config, const sigv4::Credentials &credentials, KeySource keys,
                             const std::atomic_bool *cancel = nullptr);
    // Forgets the bucket and its stored keys; the bucket and its objects stay where they are.
    Result<void> remove(const QString &name);
    Result<sigv4::Credentials> credentials(const StoredBucket &bucket) const;
    // A client for a configured bucket, its keys resolved.
    Result<S3Client> client(const QString &name) const;

    // How copies send large files: in parts, an interrupted upload remembered in
    // <configDir>/storage-uploads.json so the same copy run again goes on from its parts.
    MultipartPolicy multipartPolicy() const;

    static Result<void> checkName(const QString &name);

private:
    QString path() const;
    Result<void> save(const QList<StoredBucket> &buckets) const;

    QString m_configDir;
    SecretStore *m_secrets;
};

} // namespace gantry::storage
