// /proc snapshots (uptime, stat, meminfo, loadavg, net/dev, diskstats) as the host loop sends
// them. The first character of each line picks the file it pretends to come from; "E" ends a
// snapshot, so rates between consecutive snapshots are computed too.
#include "fuzzinput.h"
#include "core/monitor/procparser.h"

using namespace gantry::monitor;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ProcParser parser;
    for (const QString &line : gantry::fuzz::text(data, size).split(QLatin1Char('\n'))) {
        if (line.isEmpty()) {
            continue;
        }
        const QString rest = line.mid(1);
        switch (line.at(0).unicode()) {
        case 'H': parser.begin(rest.trimmed().toDouble()); break;
        case 'S': parser.addStatLine(rest); break;
        case 'M': parser.addMeminfoLine(rest); break;
        case 'L': parser.addLoadavgLine(rest); break;
        case 'N': parser.addNetDevLine(rest); break;
        case 'D':
            parser.addDiskstatsLine(rest);
            (void)ProcParser::isWholeDisk(rest.simplified().section(QLatin1Char(' '), 2, 2));
            break;
        case 'E': (void)parser.finish(); break;
        default: break;
        }
    }
    (void)parser.finish();
    return 0;
}
