// The machine-facts script's "@@section" output.
#include "fuzzinput.h"
#include "core/hosts/machinefacts.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)gantry::parseMachineFacts(gantry::fuzz::bytes(data, size)).toJson();
    return 0;
}
