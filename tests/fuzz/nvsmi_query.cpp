// `nvidia-smi -q` text, as the verify and doctor paths read it from a host.
#include "fuzzinput.h"
#include "core/verify/smiquery.h"

using namespace gantry::verify;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const SmiQuery query = parseSmiQuery(gantry::fuzz::text(data, size));
    for (const SmiGpu &gpu : query.gpus) {
        (void)gpu.name();
        (void)gpu.under(QStringLiteral("ECC Errors/Volatile"));
        for (const auto &field : gpu.fields) {
            (void)leadingInt(field.second);
        }
    }
    return 0;
}
