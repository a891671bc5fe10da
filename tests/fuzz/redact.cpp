// SPDX-License-Identifier: Apache-2.0
// The diagnostic report's redactor on arbitrary text (logs and settings a user's machine wrote):
// no crash, no runaway backtracking, and a known secret never survives. The input's first line is
// taken as the known secret, the rest as the report.
#include "fuzzinput.h"
#include "core/diagnostics/redact.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString input = gantry::fuzz::text(data, size);
    const qsizetype newline = input.indexOf(QLatin1Char('\n'));
    const QString secret = newline < 0 ? QString() : input.left(newline);
    const QString report = newline < 0 ? input : input.mid(newline + 1);
    const QString out = gantry::diagnostics::redact(report, {secret});
    // Every replacement is bracketed, so a secret without brackets that "[redacted]" does not
    // itself spell ("acted") can only be in the output if it was left there: a leak.
    const bool checkable = secret.size() >= 4 && !secret.contains(QLatin1Char('[')) && !secret.contains(QLatin1Char(']'))
                           && !QStringLiteral("[redacted]").contains(secret);
    if (checkable && out.contains(secret))
        std::abort();
    return 0;
}
