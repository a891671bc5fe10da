// `nvidia-smi --help-query-gpu`: decides which fields the monitor stream asks for.
#include "fuzzinput.h"
#include "core/monitor/nvidiasmiparser.h"
#include "core/monitor/remotescript.h"

using namespace gantry::monitor;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QStringList fields = nvsmi::parseHelpQueryGpu(gantry::fuzz::text(data, size));
    (void)selectGpuFields(fields);
    return 0;
}
