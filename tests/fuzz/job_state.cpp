// What a host prints about jobs and results: the job directory records (listScript), the
// result-pattern expansion, and `jupyter server list`.
#include "fuzzinput.h"
#include "core/jobs/jobinfo.h"
#include "core/jobs/results.h"
#include "core/tunnel/jupyter.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray output = gantry::fuzz::bytes(data, size);
    for (const auto &job : gantry::jobs::parseJobList(output)) {
        (void)job.statusText();
    }
    (void)gantry::jobs::parseResultExpansion(output);
    for (const auto &server : gantry::tunnel::parseJupyterList(output)) {
        (void)server.localUrl(18888);
    }
    return 0;
}
