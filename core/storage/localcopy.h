// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/storage/machinecopy.h"

#include <QHash>

#include <atomic>

namespace gantry::storage {

// Copies between this computer and a bucket, streamed by libcurl through a presigned URL (the
// same requests a machine's curl makes): never whole in memory. item.remotePath is the local
// path here. A download lands under a ".gantry-part-…" beside PATH (a name no listing produces;
// resumablePartName() for large objects, so a run after an interruption asks only for the rest)
// and is renamed once its size and checksum match; a file already there with the same checksum is
// not fetched again, nor is an upload the bucket already holds; an upload is hashed first and sends Content-MD5 (checked by the server) and its SHA-256
// as x-amz-meta-sha256. Blocking: worker threads and the CLI only.
// The steps of a multipart upload, each one presigned request made here (the machine's copy sends
// the parts itself): Create (keeping the SHA-256 as x-amz-meta-sha256) answers the upload's id;
// Complete takes the parts' ETags in order; Abort forgets the parts sent.
Result<QString> createMultipart(const S3Client &client, const QString &key, const QByteArray &sha256Hex, const std::atomic_bool *cancel);
Result<void> completeMultipart(const S3Client &client, const QString &key, const QString &uploadId, const QList<QByteArray> &etags,
                               const std::atomic_bool *cancel);
void abortMultipart(const S3Client &client, const QString &key, const QString &uploadId);
// The part size for a file: policy.partSize, or more where the file would need over 10,000 parts.
qint64 multipartPartSize(const MultipartPolicy &policy, qint64 size);

// The parts an open multipart upload holds (ListParts): part number -> ETag (hex MD5 of the part).
Result<QHash<int, QByteArray>> listParts(const S3Client &client, const QString &key, const QString &uploadId,
                                         const std::atomic_bool *cancel);
// An interruption the same copy run again can get past (stopped, the network, the server's 5xx,
// an expired token): what was sent or received so far is kept for it.
bool resumableInterruption(const Error &error);

// A multipart upload begun, or taken up again from policy.journal where an interrupted copy of
// the same file (size, SHA-256, part size) left one open: `sent` holds the parts already there,
// each still to be checked against the file's part before it is skipped.
struct MultipartStart
{
    QString uploadId;
    QHash<int, QByteArray> sent;
    bool remembered = false; // in the journal: an interruption keeps it open to resume
};
Result<MultipartStart> beginMultipart(const S3Client &client, const MultipartPolicy &policy, const QString &key, const QByteArray &sha256Hex,
                                      qint64 size, const std::atomic_bool *cancel);
// Completes the upload once every part's ETag is in. After a failure the upload stays open (and
// the error says so) where the copy was only interrupted (stopped, the network, the server's
// 5xx, an expired token) and a journal is kept; otherwise it is aborted.
Result<void> finishMultipart(const S3Client &client, const MultipartPolicy &policy, const QString &key, const MultipartStart &start,
                             const Result<QList<QByteArray>> &etags, const std::atomic_bool *cancel);
// True when the bucket already holds these bytes under the key (its x-amz-meta-sha256, else an
// MD5 ETag, and the size agree): an upload run again skips them. Errors other than a stop count
// as "not there" (keys that may write but not read).
Result<bool> alreadyInBucket(const S3Client &client, const QString &key, qint64 size, const QString &md5Hex, const QString &sha256Hex,
                             const std::atomic_bool *cancel);

// `moved`, when given, grows by each byte sent or received (for a progress bar).
Result<CopyResult> downloadToLocal(const S3Client &client, const CopyItem &item, const std::atomic_bool *cancel,
                                   std::atomic<qint64> *moved = nullptr);
Result<CopyResult> uploadFromLocal(const S3Client &client, const CopyItem &item, const std::atomic_bool *cancel,
                                   std::atomic<qint64> *moved = nullptr, const MultipartPolicy &policy = {});

} // namespace gantry::storage
