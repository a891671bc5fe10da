// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QString>

namespace gantry::storage {

// What a refused request was about, for its message.
struct S3ErrorContext
{
    QString endpoint;
    QString bucket;
    QString region;
    QString key;         // empty: the request was about the bucket
    QString accessKeyId; // named in messages (never the secret)
};

// The one-line error, with the next step, of an S3 answer: its XML <Error> code where there is
// one (InvalidAccessKeyId, SignatureDoesNotMatch, ExpiredToken, NoSuchBucket, an expired presigned
// URL…), else its status. Used for answers the laptop got and for those a machine's curl reports.
Error s3Error(int status, const QByteArray &body, const S3ErrorContext &where);

} // namespace gantry::storage
