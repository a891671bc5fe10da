// nvidia-smi --query-gpu / --query-compute-apps CSV as a host prints it (with or without header,
// units, error text in place of rows).
//
// Each input goes through one parser only, chosen by its length, so a call costs one parse (the
// four parsers on every input made this the slowest harness); across inputs all of them run.
#include "fuzzinput.h"
#include "core/monitor/nvidiasmiparser.h"
#include "core/monitor/remotescript.h"

using namespace gantry::monitor;

namespace {

void cellHelpers(const QString &input)
{
    for (const QString &line : input.split(QLatin1Char('\n'))) {
        if (nvsmi::classifyLine(line) == nvsmi::LineKind::InvalidField) {
            (void)nvsmi::invalidFieldName(line);
        }
        const QStringList cells = nvsmi::splitRow(line, 4, 3);
        for (const QString &cell : cells) {
            (void)nvsmi::parseNumber(cell);
            (void)nvsmi::parseInteger(cell);
            (void)nvsmi::parseHex(cell);
            (void)nvsmi::parseText(cell);
            (void)nvsmi::canonicalField(cell);
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString input = gantry::fuzz::text(data, size);
    static const QStringList gpuFields = baseGpuFields() + optionalGpuFields();
    static const QStringList appsFields = computeAppsFields();
    switch (size % 5) {
    case 0: (void)nvsmi::parseGpuCsv(input); break;
    case 1: (void)nvsmi::parseGpuCsv(input, gpuFields); break;
    case 2: (void)nvsmi::parseComputeApps(input); break;
    case 3: (void)nvsmi::parseComputeApps(input, appsFields); break;
    default: cellHelpers(input); break;
    }
    return 0;
}
