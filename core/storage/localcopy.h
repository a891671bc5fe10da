// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/storage/machinecopy.h"

#include <atomic>

namespace gantry::storage {

// Copies between this computer and a bucket, streamed by libcurl through a presigned URL (the
// same requests a machine's curl makes): never whole in memory. item.remotePath is the local
// path here. A download lands under PATH.gantry-part and is renamed once its size and checksum
// match; an upload is hashed first and sends Content-MD5 (checked by the server) and its SHA-256
// as x-amz-meta-sha256. Blocking: worker threads and the CLI only.
// Files above `threshold` go up as a multipart upload: parts of `partSize` (more where a file
// would need over 10,000 parts), `parallel` at a time, each checked by its Content-MD5; the object
// appears under its key only when every part is in, and a failed or stopped upload is aborted, so
// nothing half-written remains. Tests make the sizes small.
struct MultipartPolicy
{
    qint64 threshold = 64LL * 1024 * 1024;
    qint64 partSize = 16LL * 1024 * 1024;
    int parallel = 4;
};

// `moved`, when given, grows by each byte sent or received (for a progress bar).
Result<CopyResult> downloadToLocal(const S3Client &client, const CopyItem &item, const std::atomic_bool *cancel,
                                   std::atomic<qint64> *moved = nullptr);
Result<CopyResult> uploadFromLocal(const S3Client &client, const CopyItem &item, const std::atomic_bool *cancel,
                                   std::atomic<qint64> *moved = nullptr, const MultipartPolicy &policy = {});

} // namespace gantry::storage
