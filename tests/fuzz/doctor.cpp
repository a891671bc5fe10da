// gpu-doctor.sh output ("@@gantry NAME@@" sections, "@@rc N@@" trailers) and the checks made of
// it; the verify program's JSON report and progress lines.
#include "fuzzinput.h"
#include "core/verify/doctor.h"
#include "core/verify/report.h"

using namespace gantry::verify;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray output = gantry::fuzz::bytes(data, size);
    const DoctorOutput parsed = parseDoctorOutput(output);
    const QList<DoctorCheck> checks = evaluateDoctor(parsed, SpecTable::builtIn());
    (void)doctorToJson(checks);
    (void)classifySmiFailure(QString::fromUtf8(output));
    if (auto report = parseReport(output)) {
        (void)reportToJson(*report);
    }
    for (const QByteArray &line : output.split('\n')) {
        (void)parseProgressLine(QString::fromUtf8(line));
    }
    return 0;
}
