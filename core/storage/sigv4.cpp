// SPDX-License-Identifier: Apache-2.0
#include "core/storage/sigv4.h"

#include "core/storage/storagetext.h"

#include <QCryptographicHash>
#include <QMessageAuthenticationCode>
#include <QStringList>

#include <algorithm>

namespace gantry::storage::sigv4 {
namespace {

bool unreserved(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.'
        || c == '~';
}

QByteArray hmac(const QByteArray &key, const QByteArray &message)
{
    return QMessageAuthenticationCode::hash(message, key, QCryptographicHash::Sha256);
}

QByteArray sha256Hex(const QByteArray &data)
{
    return QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex();
}

// Trimall: leading and trailing blanks gone, inner runs of blanks one space.
QByteArray trimAll(const QByteArray &value)
{
    return value.simplified();
}

// RFC 3986 dot segments removed and empty segments kept, as the SigV4 test suite expects of
// services other than S3.
QByteArray normalizePath(const QByteArray &path)
{
    const QList<QByteArray> parts = path.split('/');
    QList<QByteArray> out;
    for (const QByteArray &part : parts) {
        if (part == ".")
            continue;
        if (part == "..") {
            if (!out.isEmpty())
                out.removeLast();
            continue;
        }
        if (!part.isEmpty())
            out.append(part);
    }
    QByteArray joined = '/' + out.join('/');
    if (path.endsWith('/') && joined.size() > 1)
        joined += '/';
    return joined;
}

QByteArray canonicalUri(const QByteArray &path, const Scope &scope)
{
    if (scope.service == QLatin1String("s3"))
        return path.isEmpty() ? QByteArray("/") : path;
    return uriEncode(normalizePath(QByteArray::fromPercentEncoding(path)), true);
}

struct CanonicalHeaders
{
    QByteArray block;  // "name:value\n" each
    QByteArray names;  // "a;b;c"
};

CanonicalHeaders canonicalHeaders(const QByteArray &host, const Pairs &headers)
{
    QList<QPair<QByteArray, QByteArray>> lowered;
    lowered.append({QByteArray("host"), host});
    for (const auto &[name, value] : headers) {
        const QByteArray lower = name.trimmed().toLower();
        if (lower != "host")
            lowered.append({lower, trimAll(value)});
    }
    std::stable_sort(lowered.begin(), lowered.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    CanonicalHeaders out;
    QList<QByteArray> names;
    for (qsizetype i = 0; i < lowered.size(); ++i) {
        if (!names.isEmpty() && names.constLast() == lowered[i].first) {
            out.block.chop(1);
            out.block += ',' + lowered[i].second + '\n'; // repeated headers join with commas
            continue;
        }
        names.append(lowered[i].first);
        out.block += lowered[i].first + ':' + lowered[i].second + '\n';
    }
    out.names = names.join(';');
    return out;
}

QByteArray credentialScope(const QByteArray &date, const Scope &scope)
{
    return date + '/' + scope.region.toUtf8() + '/' + scope.service.toUtf8() + "/aws4_request";
}

QByteArray signingKey(const Credentials &credentials, const QByteArray &date, const Scope &scope)
{
    const QByteArray kDate = hmac("AWS4" + credentials.secretAccessKey.toUtf8(), date);
    const QByteArray kRegion = hmac(kDate, scope.region.toUtf8());
    const QByteArray kService = hmac(kRegion, scope.service.toUtf8());
    return hmac(kService, "aws4_request");
}

} // namespace

QByteArray uriEncode(QByteArrayView bytes, bool keepSlash)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    QByteArray out;
    out.reserve(bytes.size() * 3);
    for (const char c : bytes) {
        if (unreserved(c) || (keepSlash && c == '/')) {
            out.append(c);
        } else {
            const auto byte = static_cast<unsigned char>(c);
            out.append('%');
            out.append(kHex[byte >> 4]);
            out.append(kHex[byte & 0xF]);
        }
    }
    return out;
}

QByteArray encodeKeyPath(const QString &key)
{
    return uriEncode(key.toUtf8(), true);
}

QByteArray canonicalQuery(const Pairs &query)
{
    Pairs encoded;
    encoded.reserve(query.size());
    for (const auto &[name, value] : query)
        encoded.append({uriEncode(name, false), uriEncode(value, false)});
    std::sort(encoded.begin(), encoded.end());
    QList<QByteArray> parts;
    parts.reserve(encoded.size());
    for (const auto &[name, value] : std::as_const(encoded))
        parts.append(name + '=' + value);
    return parts.join('&');
}

QByteArray amzDate(const QDateTime &utc)
{
    return utc.toUTC().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'")).toLatin1();
}

Signature sign(const Request &request, const Credentials &credentials, const Scope &scope, const QByteArray &timestamp)
{
    const CanonicalHeaders headers = canonicalHeaders(request.host, request.headers);
    Signature out;
    out.signedHeaders = headers.names;
    out.canonicalRequest = request.method.toUpper() + '\n' + canonicalUri(request.path, scope) + '\n'
        + canonicalQuery(request.query) + '\n' + headers.block + '\n' + headers.names + '\n' + request.payloadHash;
    const QByteArray date = timestamp.left(8);
    out.stringToSign = "AWS4-HMAC-SHA256\n" + timestamp + '\n' + credentialScope(date, scope) + '\n'
        + sha256Hex(out.canonicalRequest);
    out.signature = hmac(signingKey(credentials, date, scope), out.stringToSign).toHex();
    return out;
}

Pairs signHeaders(const Request &request, const Credentials &credentials, const Scope &scope, const QDateTime &utcNow)
{
    const QByteArray timestamp = amzDate(utcNow);
    Request signedRequest = request;
    signedRequest.headers.append({QByteArray("x-amz-date"), timestamp});
    if (!credentials.sessionToken.isEmpty())
        signedRequest.headers.append({QByteArray("x-amz-security-token"), credentials.sessionToken.toUtf8()});
    // S3 wants the payload hash as a header too (and checks the body against it).
    if (scope.service == QLatin1String("s3"))
        signedRequest.headers.append({QByteArray("x-amz-content-sha256"), request.payloadHash});
    const Signature signature = sign(signedRequest, credentials, scope, timestamp);
    Pairs out = signedRequest.headers;
    out.append({QByteArray("Authorization"),
                "AWS4-HMAC-SHA256 Credential=" + credentials.accessKeyId.toUtf8() + '/'
                    + credentialScope(timestamp.left(8), scope) + ", SignedHeaders=" + signature.signedHeaders
                    + ", Signature=" + signature.signature});
    return out;
}

Result<QByteArray> presignQuery(const Request &request, const Credentials &credentials, const Scope &scope,
                                const QDateTime &utcNow, int expiresSeconds)
{
    if (expiresSeconds < 1 || expiresSeconds > kMaxPresignSeconds) {
        return Error{ErrorCode::Usage, StorageText::tr("A presigned URL lives from 1 second to 7 days (asked for %1 s).")
                                           .arg(expiresSeconds)};
    }
    const QByteArray timestamp = amzDate(utcNow);
    Request signedRequest = request;
    signedRequest.payloadHash = kUnsignedPayload;
    const CanonicalHeaders headers = canonicalHeaders(request.host, request.headers);
    signedRequest.query.append({QByteArray("X-Amz-Algorithm"), QByteArray("AWS4-HMAC-SHA256")});
    signedRequest.query.append({QByteArray("X-Amz-Credential"),
                                credentials.accessKeyId.toUtf8() + '/' + credentialScope(timestamp.left(8), scope)});
    signedRequest.query.append({QByteArray("X-Amz-Date"), timestamp});
    signedRequest.query.append({QByteArray("X-Amz-Expires"), QByteArray::number(expiresSeconds)});
    signedRequest.query.append({QByteArray("X-Amz-SignedHeaders"), headers.names});
    if (!credentials.sessionToken.isEmpty())
        signedRequest.query.append({QByteArray("X-Amz-Security-Token"), credentials.sessionToken.toUtf8()});
    const Signature signature = sign(signedRequest, credentials, scope, timestamp);
    return QByteArray(canonicalQuery(signedRequest.query) + "&X-Amz-Signature=" + signature.signature);
}

} // namespace gantry::storage::sigv4
