// Tar entry names of a folder download as a hostile host sends them: each must map into the
// destination or be refused (localPathForEntry, isPlainName). Input: "NAME\nENTRY" (the remote
// folder's name, then the entry); an accepted entry must stay under the local folder.
#include "fuzzinput.h"
#include "core/transfer/localwrite.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString input = gantry::fuzz::text(data, size);
    const qsizetype newline = input.indexOf(QLatin1Char('\n'));
    const QString name = newline < 0 ? QStringLiteral("run1") : input.left(newline);
    const QString entry = newline < 0 ? input : input.mid(newline + 1);
    (void)gantry::transfer::isPlainName(name);
    (void)gantry::transfer::isPlainName(entry);
    static const QString localTop = QStringLiteral("/nonexistent/gantry-fuzz/dest");
    const std::optional<QString> local = gantry::transfer::localPathForEntry(entry, name, localTop);
    if (local && *local != localTop && !local->startsWith(localTop + QLatin1Char('/'))) {
        std::abort(); // an entry escaped the destination: the very bug this check exists for
    }
    return 0;
}
