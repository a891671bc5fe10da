// SPDX-License-Identifier: Apache-2.0
// What an S3 server's refusal means for the user, in one line with the next step.
#include "core/storage/s3client.h"
#include "core/storage/s3errors.h"
#include "core/storage/storagetext.h"

namespace gantry::storage {
namespace {

Error fromCode(const QString &code, const QString &message, const S3ErrorContext &where)
{
    if (code == QLatin1String("InvalidAccessKeyId"))
        return Error{ErrorCode::AuthFailed, StorageText::tr("%1 does not know the access key %2 (InvalidAccessKeyId): check the key ID, then add the storage again.")
                                                .arg(where.endpoint, where.accessKeyId)};
    if (code == QLatin1String("SignatureDoesNotMatch"))
        return Error{ErrorCode::AuthFailed, StorageText::tr("The secret key does not match the access key %1 (SignatureDoesNotMatch): check the secret key, then add the storage again.")
                                                .arg(where.accessKeyId)};
    if (code == QLatin1String("ExpiredToken") || code == QLatin1String("TokenRefreshRequired"))
        return Error{ErrorCode::AuthFailed, StorageText::tr("The session token has expired (%1): get new temporary credentials and set AWS_SESSION_TOKEN again.").arg(code)};
    if (code == QLatin1String("RequestTimeTooSkewed"))
        return Error{ErrorCode::AuthFailed, StorageText::tr("This computer's clock is more than 15 minutes off the storage server's (RequestTimeTooSkewed): set the clock right and retry.")};
    if (code == QLatin1String("AccessDenied") && message.contains(QLatin1String("expired"), Qt::CaseInsensitive))
        return Error{ErrorCode::AuthFailed, StorageText::tr("A presigned URL expired before the machine used it: run the copy again (each URL lives at most an hour).")};
    if (code == QLatin1String("AccessDenied"))
        return Error{ErrorCode::PermissionDenied, StorageText::tr("Access to bucket %1 was denied (AccessDenied): give the keys permission to list, read and write it, or use other keys.")
                                                      .arg(where.bucket)};
    if (code == QLatin1String("NoSuchBucket"))
        return Error{ErrorCode::NotFound, StorageText::tr("There is no bucket %1 at %2 (NoSuchBucket): check --bucket and --endpoint.").arg(where.bucket, where.endpoint)};
    if (code == QLatin1String("NoSuchKey"))
        return Error{ErrorCode::NotFound, StorageText::tr("There is no object %1 in bucket %2: the Storage panel lists what is there (gantry-cli storage ls).").arg(where.key, where.bucket)};
    if (code == QLatin1String("BadDigest") || code == QLatin1String("XAmzContentSHA256Mismatch"))
        return Error{ErrorCode::RemoteFailed, StorageText::tr("The object arrived damaged at the storage server (%1): run the copy again.").arg(code)};
    if (code == QLatin1String("EntityTooLarge"))
        return Error{ErrorCode::RemoteFailed, StorageText::tr("%1 is larger than this storage takes in one request (EntityTooLarge): Gantry sends files over 64 MiB in parts; check the storage's own limits on object size.").arg(where.key)};
    return Error{ErrorCode::Provider, StorageText::tr("The storage server refused: %1 (%2).").arg(message.isEmpty() ? code : message, code)};
}

} // namespace

Error s3Error(int status, const QByteArray &body, const S3ErrorContext &where)
{
    const S3ErrorBody parsed = parseError(body);
    if (!parsed.region.isEmpty() && parsed.region != where.region
        && (parsed.code == QLatin1String("AuthorizationHeaderMalformed") || parsed.code == QLatin1String("PermanentRedirect")
            || parsed.code == QLatin1String("IllegalLocationConstraintException"))) {
        return Error{ErrorCode::Usage, StorageText::tr("Bucket %1 is in region %2, not %3: add the storage again with --region %2.")
                                           .arg(where.bucket, parsed.region, where.region)};
    }
    if (!parsed.code.isEmpty())
        return fromCode(parsed.code, parsed.message, where);
    // A HEAD answer has no body: the status is all there is.
    if (status == 404)
        return fromCode(where.key.isEmpty() ? QStringLiteral("NoSuchBucket") : QStringLiteral("NoSuchKey"), {}, where);
    if (status == 403)
        return Error{ErrorCode::PermissionDenied, StorageText::tr("Bucket %1 refused the request (HTTP 403): check the keys and their permissions on it.").arg(where.bucket)};
    return Error{ErrorCode::Provider, StorageText::tr("The storage server answered HTTP %1: try again later.").arg(status)};
}

Error S3Client::errorFor(const providers::HttpResponse &response, const QString &key) const
{
    if (response.curlCode == -1)
        return Error{ErrorCode::Usage, response.transportError};
    if (response.transportFailed()) {
        if (response.bodyTooLarge)
            return Error{ErrorCode::Parse, StorageText::tr("The storage server's answer was too large to read; is %1 an S3-compatible endpoint?").arg(m_config.endpoint)};
        return Error{ErrorCode::ConnectFailed, StorageText::tr("Cannot reach %1: %2. Check --endpoint and the network.").arg(m_config.endpoint, response.transportError)};
    }
    return s3Error(response.status, response.body,
                   S3ErrorContext{m_config.endpoint, m_config.bucket, m_config.region, key, m_credentials.accessKeyId});
}

} // namespace gantry::storage
