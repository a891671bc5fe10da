// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/providers/httpclient.h"
#include "core/storage/s3xml.h"
#include "core/storage/sigv4.h"
#include "core/util/clock.h"
#include "core/util/result.h"

#include <QUrl>

#include <atomic>

namespace gantry::storage {

// One configured bucket: an S3-compatible endpoint (AWS, R2, B2, MinIO, Wasabi, OSS, COS…), the
// bucket's name and the region its signatures name ("auto" for R2; us-east-1 where the server
// ignores it).
struct BucketConfig
{
    QString name;     // Gantry's name for it ("data" in s3://data/key)
    QString endpoint; // https://host[:port]; http:// only on loopback
    QString bucket;
    QString region = QStringLiteral("us-east-1");
};

// Presigned URLs Gantry hands to a machine live at most this long (a long copy asks for new ones).
inline constexpr int kMaxUrlSeconds = 3600;

// The endpoint checked as the providers' are: https, or plain http only on 127.0.0.1/localhost
// (the keys sign every request; an eavesdropper could replay a signed request).
Result<QUrl> checkStorageEndpoint(const QString &url);
// Virtual-hosted addressing (bucket.s3.region.amazonaws.com) on AWS for DNS-safe names; path
// style (endpoint/bucket/key) everywhere else, as custom endpoints need.
bool usesVirtualHost(const QUrl &endpoint, const QString &bucket);

// S3 requests signed with Signature Version 4, each blocking its caller (worker threads and the
// CLI only): ListObjectsV2, HeadObject, and presigned URLs for the machine's curl.
class S3Client final
{
public:
    S3Client(BucketConfig config, sigv4::Credentials credentials, const Clock &clock = Clock::system());

    const BucketConfig &config() const { return m_config; }

    // Where a key lives (the bucket itself for an empty key): the URL without query and the
    // host and path that are signed.
    struct Address
    {
        QUrl url;
        QByteArray host;
        QByteArray path;
    };
    Result<Address> address(const QString &key) const;

    Result<ListPage> listPage(const QString &prefix, const QString &delimiter, const QString &token, int maxKeys,
                              const std::atomic_bool *cancel = nullptr) const;
    // Every object under prefix, page by page; more than maxObjects is an error (say so, not truncate).
    Result<QList<ObjectInfo>> listAll(const QString &prefix, int maxObjects, const std::atomic_bool *cancel = nullptr) const;
    Result<ObjectInfo> head(const QString &key, const std::atomic_bool *cancel = nullptr) const;
    // The keys work and the bucket is there: one ListObjectsV2 of at most one key.
    Result<void> checkAccess(const std::atomic_bool *cancel = nullptr) const;

    // A URL that lets its holder make this one request for expiresSeconds (1..kMaxUrlSeconds).
    // signedHeaders must be sent with it unchanged (Content-MD5, x-amz-meta-sha256).
    // `query` is signed too (a multipart upload's uploads, partNumber, uploadId).
    Result<QUrl> presign(const QByteArray &method, const QString &key, int expiresSeconds,
                         const sigv4::Pairs &signedHeaders = {}, const sigv4::Pairs &query = {}) const;

    // The one-line error of a failed answer, with the next step.
    Error errorFor(const providers::HttpResponse &response, const QString &key = {}) const;

private:
    providers::HttpResponse send(const QByteArray &method, const QString &key, const sigv4::Pairs &query,
                                 const std::atomic_bool *cancel) const;

    BucketConfig m_config;
    sigv4::Credentials m_credentials;
    const Clock &m_clock;
};

} // namespace gantry::storage
