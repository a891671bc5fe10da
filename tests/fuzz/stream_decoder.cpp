// The monitor's tagged line stream (remotescript.h), in arbitrary chunks: a 0x01 byte in the
// input ends a chunk and advances the clock by half a second.
#include "fuzzinput.h"
#include "core/monitor/remotescript.h"
#include "core/monitor/streamdecoder.h"
#include "core/util/clock.h"

using namespace gantry::monitor;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const QStringList fields = baseGpuFields() + optionalGpuFields();
    gantry::ManualClock clock;
    StreamDecoder decoder(QStringLiteral("fuzz"), fields, 1000, clock);
    int samples = 0;
    decoder.onSample = [&samples](const MachineSample &) { ++samples; };
    decoder.onInvalidField = [](const QString &) {};
    for (const QByteArray &chunk : gantry::fuzz::bytes(data, size).split('\x01')) {
        decoder.feed(chunk);
        clock.advanceMs(500);
    }
    (void)decoder.driverState();
    (void)decoder.driverMessage();
    return 0;
}
