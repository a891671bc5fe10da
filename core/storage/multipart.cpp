// SPDX-License-Identifier: Apache-2.0
// Multipart uploads that survive an interruption: begun or taken up again from the UploadJournal,
// completed, kept open or aborted. The requests themselves are in localcopy.cpp.
#include "core/storage/localcopy.h"
#include "core/storage/storagetext.h"
#include "core/storage/uploadjournal.h"

namespace gantry::storage {
namespace {

UploadJournal journalOf(const MultipartPolicy &policy)
{
    return UploadJournal(policy.journal);
}

// Uploads into this bucket left open longer than the journal keeps them: aborted at the storage
// (their parts are billed while open) and forgotten.
void abortStale(const S3Client &client, const UploadJournal &journal)
{
    const BucketConfig &c = client.config();
    for (const OpenUpload &old : journal.stale(c.endpoint, c.bucket)) {
        abortMultipart(client, old.key, old.uploadId);
        journal.forget(old.uploadId);
    }
}

} // namespace

// Anything else (a checksum that did not match, a file that cannot be read, no such bucket, no
// permission) gives the copy's partial work up.
bool resumableInterruption(const Error &error)
{
    switch (error.code) {
    case ErrorCode::Cancelled:
    case ErrorCode::ConnectFailed:
    case ErrorCode::Timeout:
    case ErrorCode::Provider:
    case ErrorCode::AuthFailed:
        return true;
    default:
        return false;
    }
}

Result<MultipartStart> beginMultipart(const S3Client &client, const MultipartPolicy &policy, const QString &key, const QByteArray &sha256Hex,
                                      qint64 size, const std::atomic_bool *cancel)
{
    const UploadJournal journal = journalOf(policy);
    const BucketConfig &c = client.config();
    const qint64 partSize = multipartPartSize(policy, size);
    abortStale(client, journal);
    if (std::optional<OpenUpload> open = journal.find(c.endpoint, c.bucket, key)) {
        const bool same = open->sha256 == QString::fromLatin1(sha256Hex) && open->size == size && open->partSize == partSize;
        const bool fresh = open->started.isValid() && open->started.daysTo(QDateTime::currentDateTimeUtc()) <= UploadJournal::kMaxAgeDays;
        if (same && fresh) {
            Result<QHash<int, QByteArray>> sent = listParts(client, key, open->uploadId, cancel);
            if (sent)
                return MultipartStart{open->uploadId, *sent, true};
            if (sent.error().code != ErrorCode::NotFound) // the same trouble would stop its abort: keep it for the next run
                return sent.error();
        }
        // Another file's, too old, or gone at the storage (NoSuchUpload): nothing of it can be used.
        abortMultipart(client, key, open->uploadId);
        journal.forget(open->uploadId);
    }
    Result<QString> uploadId = createMultipart(client, key, sha256Hex, cancel);
    if (!uploadId)
        return uploadId.error();
    const bool remembered = journal.remember(OpenUpload{c.endpoint, c.bucket, key, *uploadId, QString::fromLatin1(sha256Hex), size, partSize,
                                                        QDateTime::currentDateTimeUtc()});
    return MultipartStart{*uploadId, {}, remembered};
}

Result<void> finishMultipart(const S3Client &client, const MultipartPolicy &policy, const QString &key, const MultipartStart &start,
                             const Result<QList<QByteArray>> &etags, const std::atomic_bool *cancel)
{
    const UploadJournal journal = journalOf(policy);
    Result<void> completed = etags ? completeMultipart(client, key, start.uploadId, *etags, cancel) : Result<void>(etags.error());
    if (completed) {
        journal.forget(start.uploadId);
        return completed;
    }
    if (start.remembered && resumableInterruption(completed.error())) {
        Error kept = completed.error();
        kept.message += QLatin1Char(' ')
            + StorageText::tr("The parts already sent stay at the storage, unseen under %1: run the same copy again to go on from them.").arg(key);
        return kept;
    }
    abortMultipart(client, key, start.uploadId); // nothing half-written under the key
    journal.forget(start.uploadId);
    return completed;
}

Result<bool> alreadyInBucket(const S3Client &client, const QString &key, qint64 size, const QString &md5Hex, const QString &sha256Hex,
                             const std::atomic_bool *cancel)
{
    Result<ObjectInfo> object = client.head(key, cancel);
    if (!object)
        return object.error().code == ErrorCode::Cancelled ? Result<bool>(object.error()) : Result<bool>(false);
    if (object->size != size)
        return false;
    if (!object->sha256.isEmpty())
        return object->sha256 == sha256Hex;
    return object->etagIsMd5 && object->etag == md5Hex;
}

} // namespace gantry::storage
