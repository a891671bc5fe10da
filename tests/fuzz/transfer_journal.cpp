// Transfer journals (<configDir>/transfers/KEY.json) as a crash, a full disk or another program
// may leave them: loading one must give a usable journal or none, never a crash.
#include "fuzzinput.h"
#include "core/transfer/journal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const gantry::transfer::JournalStore store(gantry::fuzz::scratchDir());
    static const QString key = QStringLiteral("0123456789abcdef0123456789abcdef");
    QDir().mkpath(store.directory());
    QFile file(store.directory() + QLatin1Char('/') + key + QStringLiteral(".json"));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Unbuffered)) {
        return 0;
    }
    file.write(gantry::fuzz::bytes(data, size));
    file.close();
    if (const auto journal = store.loadFile(key)) {
        (void)journal->doneBytes();
        (void)journal->complete();
        for (int i = 0; i < journal->chunkCount(); ++i) {
            (void)journal->chunkLength(i);
        }
    }
    (void)store.loadTree(key);
    return 0;
}
