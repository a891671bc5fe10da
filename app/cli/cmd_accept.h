// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clicommand.h"

namespace gantry::cli {

// The acceptance test of `hostName` (a saved host, or an ssh-config name), printed as `gantry-cli
// accept` prints it (one JSON object with --json); with `returnOnFail` a failing provider instance
// is terminated and the ledger says why. `args` may carry accept's options (--expect-gpu, --report,
// --budget-seconds…); where it does not (launch --accept), the defaults apply. The exit code.
int acceptHost(Context &context, const Args &args, const QString &hostName, bool returnOnFail);

} // namespace gantry::cli
