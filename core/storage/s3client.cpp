// SPDX-License-Identifier: Apache-2.0
#include "core/storage/s3client.h"

#include "core/providers/restprovider.h"
#include "core/storage/storagetext.h"

#include <QRegularExpression>

namespace gantry::storage {
namespace {

constexpr int kRequestTimeoutMs = 60000;

bool dnsSafe(const QString &bucket)
{
    static const QRegularExpression pattern(QStringLiteral("^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$"));
    return pattern.match(bucket).hasMatch();
}

QByteArray hostHeader(const QUrl &url)
{
    QByteArray host = url.host(QUrl::FullyEncoded).toUtf8();
    if (host.contains(':'))
        host = '[' + host + ']';
    if (url.port() != -1)
        host += ':' + QByteArray::number(url.port());
    return host;
}

QUrl withoutDefaultPort(QUrl url)
{
    const bool https = url.scheme() == QLatin1String("https");
    if ((https && url.port() == 443) || (!https && url.port() == 80))
        url.setPort(-1);
    return url;
}

// The URL from its encoded parts, so what is sent is byte for byte what was signed (QUrl would
// decode some escapes of a path it is handed piecewise).
QUrl urlOf(const QUrl &server, const QByteArray &host, const QByteArray &path, const QByteArray &query)
{
    QByteArray encoded = server.scheme().toLatin1() + "://" + host + path;
    if (!query.isEmpty())
        encoded += '?' + query;
    return QUrl::fromEncoded(encoded, QUrl::StrictMode);
}

} // namespace

Result<QUrl> checkStorageEndpoint(const QString &url)
{
    Result<QUrl> checked = providers::checkEndpoint(url, StorageText::tr("storage"));
    if (!checked)
        return checked;
    if (!checked->path().isEmpty() && checked->path() != QLatin1String("/")) {
        return Error{ErrorCode::Usage, StorageText::tr("The storage endpoint is a server, not a path (got \"%1\"): give "
                                                       "https://host[:port] and the bucket with --bucket.").arg(url)};
    }
    return withoutDefaultPort(*checked);
}

bool usesVirtualHost(const QUrl &endpoint, const QString &bucket)
{
    const QString host = endpoint.host().toLower();
    return (host == QLatin1String("s3.amazonaws.com") || host.endsWith(QLatin1String(".amazonaws.com")))
        && host.startsWith(QLatin1String("s3")) && dnsSafe(bucket);
}

S3Client::S3Client(BucketConfig config, sigv4::Credentials credentials, const Clock &clock)
    : m_config(std::move(config))
    , m_credentials(std::move(credentials))
    , m_clock(clock)
{
}

Result<S3Client::Address> S3Client::address(const QString &key) const
{
    Result<QUrl> endpoint = checkStorageEndpoint(m_config.endpoint);
    if (!endpoint)
        return endpoint.error();
    Address out;
    QUrl server = *endpoint;
    if (usesVirtualHost(*endpoint, m_config.bucket)) {
        server.setHost(m_config.bucket + QLatin1Char('.') + endpoint->host());
        out.path = '/' + sigv4::encodeKeyPath(key);
    } else {
        out.path = '/' + sigv4::encodeKeyPath(m_config.bucket);
        if (!key.isEmpty())
            out.path += '/' + sigv4::encodeKeyPath(key);
    }
    out.host = hostHeader(server);
    out.url = urlOf(server, out.host, out.path, {});
    return out;
}

providers::HttpResponse S3Client::send(const QByteArray &method, const QString &key, const sigv4::Pairs &query,
                                       const std::atomic_bool *cancel) const
{
    providers::HttpResponse failed;
    Result<Address> where = address(key);
    if (!where) {
        failed.curlCode = -1;
        failed.transportError = where.error().message;
        return failed;
    }
    sigv4::Request request;
    request.method = method;
    request.host = where->host;
    request.path = where->path;
    request.query = query;
    providers::HttpRequest http;
    http.method = method;
    http.url = urlOf(where->url, where->host, where->path, sigv4::canonicalQuery(query));
    http.headers = sigv4::signHeaders(request, m_credentials, sigv4::Scope{m_config.region}, m_clock.now());
    http.timeoutMs = kRequestTimeoutMs;
    providers::RetryPolicy policy;
    policy.maxAttempts = 3;
    return providers::HttpClient::performWithRetries(http, policy, cancel);
}

Result<ListPage> S3Client::listPage(const QString &prefix, const QString &delimiter, const QString &token, int maxKeys,
                                    const std::atomic_bool *cancel) const
{
    sigv4::Pairs query{{"list-type", "2"}, {"max-keys", QByteArray::number(std::clamp(maxKeys, 1, kMaxKeysPerPage))}};
    if (!prefix.isEmpty())
        query.append({"prefix", prefix.toUtf8()});
    if (!delimiter.isEmpty())
        query.append({"delimiter", delimiter.toUtf8()});
    if (!token.isEmpty())
        query.append({"continuation-token", token.toUtf8()});
    // The bucket itself, addressed without a trailing slash.
    const providers::HttpResponse response = send("GET", QString(), query, cancel);
    if (response.transportFailed() || response.status != 200)
        return errorFor(response);
    return parseListObjectsV2(response.body);
}

Result<QList<ObjectInfo>> S3Client::listAll(const QString &prefix, int maxObjects, const std::atomic_bool *cancel) const
{
    QList<ObjectInfo> out;
    QString token;
    for (;;) {
        Result<ListPage> page = listPage(prefix, QString(), token, kMaxKeysPerPage, cancel);
        if (!page)
            return page.error();
        out += page->objects;
        if (out.size() > maxObjects) {
            return Error{ErrorCode::Usage, StorageText::tr("More than %1 objects under \"%2\": copy a narrower prefix.")
                                               .arg(maxObjects).arg(prefix)};
        }
        if (!page->truncated)
            return out;
        if (page->nextToken == token)
            return Error{ErrorCode::Parse, StorageText::tr("The storage server repeated a listing page; stopped listing.")};
        token = page->nextToken;
    }
}

Result<ObjectInfo> S3Client::head(const QString &key, const std::atomic_bool *cancel) const
{
    const providers::HttpResponse response = send("HEAD", key, {}, cancel);
    if (response.transportFailed() || response.status != 200)
        return errorFor(response, key);
    ObjectInfo info;
    info.key = key;
    info.size = response.header("content-length").toLongLong();
    info.etag = QString::fromLatin1(response.header("etag")).remove(QLatin1Char('"'));
    info.lastModified = QDateTime::fromString(QString::fromLatin1(response.header("last-modified")), Qt::RFC2822Date);
    const QByteArray encryption = response.header("x-amz-server-side-encryption");
    info.etagIsMd5 = QRegularExpression(QStringLiteral("^[0-9a-f]{32}$")).match(info.etag).hasMatch() && !encryption.startsWith("aws:kms")
        && response.header("x-amz-server-side-encryption-customer-algorithm").isEmpty();
    const QByteArray sha = response.header("x-amz-meta-sha256");
    if (QRegularExpression(QStringLiteral("^[0-9a-f]{64}$")).match(QString::fromLatin1(sha)).hasMatch())
        info.sha256 = QString::fromLatin1(sha);
    return info;
}

Result<void> S3Client::checkAccess(const std::atomic_bool *cancel) const
{
    Result<ListPage> page = listPage(QString(), QString(), QString(), 1, cancel);
    if (!page)
        return page.error();
    return {};
}

Result<QUrl> S3Client::presign(const QByteArray &method, const QString &key, int expiresSeconds,
                               const sigv4::Pairs &signedHeaders, const sigv4::Pairs &query) const
{
    if (expiresSeconds < 1 || expiresSeconds > kMaxUrlSeconds) {
        return Error{ErrorCode::Usage, StorageText::tr("Presigned URLs from Gantry live at most an hour (asked for %1 s).")
                                           .arg(expiresSeconds)};
    }
    Result<Address> where = address(key);
    if (!where)
        return where.error();
    sigv4::Request request;
    request.method = method;
    request.host = where->host;
    request.path = where->path;
    request.headers = signedHeaders;
    request.query = query;
    Result<QByteArray> signedQuery = sigv4::presignQuery(request, m_credentials, sigv4::Scope{m_config.region}, m_clock.now(), expiresSeconds);
    if (!signedQuery)
        return signedQuery.error();
    return urlOf(where->url, where->host, where->path, *signedQuery);
}

} // namespace gantry::storage
