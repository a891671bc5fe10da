#pragma once

#include <QString>
#include <QStringList>

namespace gantry::monitor {

// The GPU fields Gantry streams. The base set has been valid since long before any driver a cloud
// GPU runs; the optional ones are checked against `nvidia-smi --help-query-gpu` first, because one
// unknown field makes nvidia-smi reject the whole query.
QStringList baseGpuFields();
QStringList optionalGpuFields();
// base + the optional fields the help text lists (clocks_event_reasons.active, else the pre-535
// clocks_throttle_reasons.active). Empty help (unreadable): base + every optional field, and the
// stream falls back to dropping fields nvidia-smi names as invalid.
QStringList selectGpuFields(const QStringList &helpFields);

// Marker the probe prints when nvidia-smi is not on PATH.
inline constexpr char kNoNvidiaSmiMarker[] = "GANTRY-NO-NVIDIA-SMI";

// One short command run once per host: says whether nvidia-smi exists and lists its fields.
QString probeCommand();

struct StreamSettings
{
    int intervalMs = 1000;
    int processEveryMs = 5000;
};

// Tags of the lines the stream script prints (first character, then a space).
namespace tag {
constexpr char Gpu = 'G';          // one nvidia-smi CSV row (or its error text)
constexpr char GpuExited = 'X';    // nvidia-smi ended (its loop restarts it after 5 s)
constexpr char NoSmi = 'Z';        // no nvidia-smi on this machine
constexpr char HostBegin = 'H';    // H <uptime seconds>
constexpr char Stat = 'S';
constexpr char Mem = 'M';
constexpr char Load = 'L';
constexpr char Net = 'N';
constexpr char Disk = 'D';
constexpr char HostEnd = 'E';
constexpr char AppsBegin = 'A';
constexpr char App = 'P';          // one compute-apps row
constexpr char Cmdline = 'C';      // "<pid> <args>" from ps
constexpr char Owner = 'W';        // "<pid> <user> <args>" from ps (what the stream prints now)
constexpr char AppsEnd = 'Q';
constexpr char Gpm = 'V';          // one line of nvidia-smi dmon --gpm-metrics (GpmReader)
constexpr char GpmEnded = 'Y';     // dmon ended (it is not started again)
} // namespace tag

// The one long-lived remote command: a POSIX sh loop that runs `nvidia-smi -lms` in the background
// and, in the same stream, /proc host metrics every interval and compute apps every
// processEveryMs. Only builtins run per host sample; nothing is exec'd over SSH again.
QString streamCommand(const QStringList &gpuFields, const StreamSettings &settings);

// Fields of the compute-apps query the stream runs (process_name last: it may contain ", ").
QStringList computeAppsFields();

} // namespace gantry::monitor
