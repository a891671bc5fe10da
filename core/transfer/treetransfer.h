#pragma once

#include "ssh/session.h"
#include "transfer/sftpclient.h"
#include "transfer/transfercontext.h"

namespace gantry::transfer {

// Uploads a local folder into remoteParent (the folder itself becomes remoteParent/NAME, or
// remoteTop when given): files go as a tar stream into a remote `tar -x`, in batches of at most
// 10 000 files / 256 MiB, and each batch is checked against a SHA-256 manifest with the remote's
// `sha256sum -c` before the journal marks it done. Without a remote shell (sftp-only accounts)
// the files go one by one over SFTP. policy decides about files that already exist.
Result<TransferOutcome> uploadTree(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                   const QString &localFolder, const QString &remoteTop, ConflictPolicy policy);

// Downloads a remote folder as a tar stream from a remote `tar -c` and unpacks it into
// localTop (created), checking each file against the remote's sha256sum.
Result<TransferOutcome> downloadTree(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                     const QString &remoteFolder, const QString &localTop, ConflictPolicy policy);

} // namespace gantry::transfer
