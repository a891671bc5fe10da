#pragma once

#include "core/monitor/samples.h"

#include <QJsonObject>
#include <QString>

namespace gantry::monitor {

// The `gantry-cli monitor --json` line: {"time", "host", "driver", "gpus": […], "processes": […],
// "host_metrics": {…}}. Unknown values are null, never 0.
QJsonObject sampleToJson(const MachineSample &sample);
QJsonObject gpuToJson(const GpuSample &gpu);
QJsonObject hostMetricsToJson(const HostMetrics &metrics);
QString driverStateName(DriverState state); // "ok", "no_driver", "failed", "unknown"

// A compact human table of one sample (the CLI without --json).
QString sampleToText(const MachineSample &sample);

} // namespace gantry::monitor
