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
// `moved`, when given, grows by each byte sent or received (for a progress bar).
Result<CopyResult> downloadToLocal(const S3Client &client, const CopyItem &item, const std::atomic_bool *cancel,
                                   std::atomic<qint64> *moved = nullptr);
Result<CopyResult> uploadFromLocal(const S3Client &client, const CopyItem &item, const std::atomic_bool *cancel,
                                   std::atomic<qint64> *moved = nullptr);

} // namespace gantry::storage
