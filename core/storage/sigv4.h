// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QPair>
#include <QString>

// AWS Signature Version 4 (docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html):
// the Authorization header and presigned query strings. Pure functions of their inputs — the time is
// an argument — so AWS's worked examples and botocore's output on the same inputs are tests
// (tests/storage/test_storage_sigv4.cpp, tests/fixtures/storage/).
namespace gantry::storage::sigv4 {

using Pairs = QList<QPair<QByteArray, QByteArray>>;

struct Credentials
{
    QString accessKeyId;
    QString secretAccessKey;
    QString sessionToken; // temporary credentials (STS); empty for long-term keys
    bool isComplete() const { return !accessKeyId.isEmpty() && !secretAccessKey.isEmpty(); }
};

// The hashed payload of a request whose body is not signed (presigned URLs, streamed uploads).
inline constexpr char kUnsignedPayload[] = "UNSIGNED-PAYLOAD";
// SHA-256 of the empty string: the payload hash of a GET, HEAD or DELETE.
inline constexpr char kEmptySha256[] = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
// AWS refuses presigned URLs that live longer than a week.
inline constexpr int kMaxPresignSeconds = 7 * 24 * 3600;

struct Scope
{
    QString region = QStringLiteral("us-east-1");
    QString service = QStringLiteral("s3");
};

// One request as it will be sent. S3 signs the path as sent (it must already be URI-encoded, see
// encodeKeyPath); other services normalise it and encode it once more, as their test suite says.
struct Request
{
    QByteArray method = "GET";
    QByteArray host;    // host[:port], the port only where it is not the scheme's default
    QByteArray path = "/";
    Pairs query;        // decoded names and values, in any order
    Pairs headers;      // headers to sign besides host (names in any case)
    QByteArray payloadHash = kEmptySha256; // hex SHA-256 of the body, or kUnsignedPayload
};

// RFC 3986 encoding of AWS's rules: A–Z a–z 0–9 - _ . ~ stay, every other byte is %XX (upper case),
// '/' too unless keepSlash.
QByteArray uriEncode(QByteArrayView bytes, bool keepSlash);
// An S3 object key as a path: each byte encoded, '/' kept.
QByteArray encodeKeyPath(const QString &key);
// The canonical query string of decoded pairs (each encoded, sorted by name then value).
QByteArray canonicalQuery(const Pairs &query);
// "20130524T000000Z" from a UTC time.
QByteArray amzDate(const QDateTime &utc);

struct Signature
{
    QByteArray canonicalRequest;
    QByteArray stringToSign;
    QByteArray signature; // hex
    QByteArray signedHeaders; // "host;x-amz-date"
};

// The three steps on a request whose headers already hold x-amz-date (or whose query holds the
// presign parameters): exposed for the tests that compare each step with AWS's documents.
Signature sign(const Request &request, const Credentials &credentials, const Scope &scope, const QByteArray &timestamp);

// Header signing: the request's headers plus x-amz-date, x-amz-security-token (temporary
// credentials), x-amz-content-sha256 (S3) and Authorization, ready to send.
Pairs signHeaders(const Request &request, const Credentials &credentials, const Scope &scope, const QDateTime &utcNow);

// A presigned query string (the request's query plus the X-Amz-* parameters and the signature,
// encoded, ready to follow '?'): anyone holding it may make this one request until it expires.
// The payload is UNSIGNED-PAYLOAD; the request's headers are signed and must be sent as they are.
// expiresSeconds from 1 to kMaxPresignSeconds (callers keep their own, shorter limit).
Result<QByteArray> presignQuery(const Request &request, const Credentials &credentials, const Scope &scope,
                                const QDateTime &utcNow, int expiresSeconds);

} // namespace gantry::storage::sigv4
