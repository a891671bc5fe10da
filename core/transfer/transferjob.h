#pragma once

#include "core/transfer/transfercontext.h"

namespace gantry::transfer {

// Runs one request to the end on the calling thread: connects (through the context's factory),
// resolves the destination like cp (into an existing directory, or a trailing '/' creates it),
// applies the conflict policy, and sends a file or a folder.
Result<TransferOutcome> runTransfer(const TransferRequest &request, TransferContext &ctx);

// Errors worth retrying by themselves after a pause: the connection dropped or the host
// restarted its sshd. Host-key, auth, permission, disk and conflict errors are not.
bool isTransient(const Error &error);

// runTransfer, retried up to `attempts` times while the error is transient; each retry resumes
// from the journal. onRetry(attempt, error) is told before each wait.
Result<TransferOutcome> runTransferWithRetries(const TransferRequest &request, TransferContext &ctx, int attempts,
                                               const std::function<void(int, const Error &)> &onRetry = {});

} // namespace gantry::transfer
