// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

// The XML an S3 server answers, read with QXmlStreamReader under caps: no DTD (so no entity is
// ever expanded), at most kMaxXmlBytes, at most 1000 objects a page (S3's own page size), keys of
// at most 1024 bytes (S3's limit). A reply past a cap is an error, never a partial listing.
namespace gantry::storage {

inline constexpr qsizetype kMaxXmlBytes = 8 * 1024 * 1024;
inline constexpr int kMaxKeysPerPage = 1000;
inline constexpr int kMaxKeyBytes = 1024;

struct ObjectInfo
{
    QString key;
    qint64 size = 0;
    QString etag;   // without quotes; a '-' in it marks a multipart upload (not an MD5)
    QDateTime lastModified;
    QString sha256; // hex, where the server returns it (x-amz-meta-sha256)
    // The ETag is the MD5 of the bytes: 32 hex digits, and (from HeadObject) no SSE-KMS or SSE-C,
    // whose ETags are not. A listing cannot tell the encryption, so it says false.
    bool etagIsMd5 = false;
};

struct ListPage
{
    QList<ObjectInfo> objects;
    QStringList commonPrefixes; // the "folders" when listed with a delimiter
    bool truncated = false;
    QString nextToken;          // NextContinuationToken
};

// <ListBucketResult> of ListObjectsV2.
Result<ListPage> parseListObjectsV2(const QByteArray &xml);

// <Error><Code>…</Code><Message>…</Message>…</Error>; empty code when the body is no such document.
struct S3ErrorBody
{
    QString code;
    QString message;
    QString region; // AuthorizationHeaderMalformed and PermanentRedirect name the bucket's region
    QString endpoint;
};
S3ErrorBody parseError(const QByteArray &xml);

} // namespace gantry::storage
