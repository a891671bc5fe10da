// nvidia-smi --query-gpu / --query-compute-apps CSV as a host prints it (with or without header,
// units, error text in place of rows).
#include "fuzzinput.h"
#include "monitor/nvidiasmiparser.h"
#include "monitor/remotescript.h"

using namespace gantry::monitor;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString input = gantry::fuzz::text(data, size);
    static const QStringList gpuFields = baseGpuFields() + optionalGpuFields();
    static const QStringList appsFields = computeAppsFields();
    (void)nvsmi::parseGpuCsv(input);
    (void)nvsmi::parseGpuCsv(input, gpuFields);
    (void)nvsmi::parseComputeApps(input);
    (void)nvsmi::parseComputeApps(input, appsFields);
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
    return 0;
}
