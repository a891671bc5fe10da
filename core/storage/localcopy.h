// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/storage/machinecopy.h"

#include <atomic>

namespace gantry::storage {

// Copies between this computer and a bucket, streamed by libcurl through a presigned URL (the
// same requests a machine's curl makes): never whole in memory. item.remotePath is the local
// path here. A download lands under a fresh ".gantry-part-<random>" beside PATH (a name no listing
// produces) and is renamed once its size and checksum match; an upload is hashed first and sends Content-MD5 (checked by the server) and its SHA-256
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

// `moved`, when given, grows by each byte sent or received (for a progress bar).
Result<CopyResult> downloadToLocal(const S3Client &client, const CopyItem &item, const std::atomic_bool *cancel,
                                   std::atomic<qint64> *moved = nullptr);
Result<CopyResult> uploadFromLocal(const S3Client &client, const CopyItem &item, const std::atomic_bool *cancel,
                                   std::atomic<qint64> *moved = nullptr, const MultipartPolicy &policy = {});

} // namespace gantry::storage
