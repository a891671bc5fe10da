#pragma once

#include "core/monitor/samples.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gantry::monitor::nvsmi {

// A value cell: trimmed, unit suffix removed ("81559 MiB" → 81559); placeholders such as [N/A],
// [Not Supported], [Unknown Error], [Insufficient Permissions], bare N/A → nullopt.
bool isPlaceholder(const QString &cell);
std::optional<double> parseNumber(const QString &cell);
std::optional<qint64> parseInteger(const QString &cell);
std::optional<quint64> parseHex(const QString &cell); // "0x0000000000000004"
QString parseText(const QString &cell);                // placeholder → empty

// Canonical field name: header suffix stripped ("memory.used [MiB]" → "memory.used") and aliases
// folded ("gpu_name" → "name", "clocks.sm" → "clocks.current.sm",
// "clocks_throttle_reasons.active" → "clocks_event_reasons.active").
QString canonicalField(const QString &field);

// Splits a CSV row on ", ". nvidia-smi never quotes; when a row has more cells than expected, the
// surplus belongs to the (single) free-text column at textColumn.
QStringList splitRow(const QString &line, int expectedColumns = -1, int textColumn = -1);

// One --query-gpu row in the column order `fields` (requested or from a header).
// nullopt when the row is not a data row (error text, header, wrong column count).
std::optional<GpuSample> parseGpuRow(const QStringList &fields, const QString &line);

// What a whole nvidia-smi output (or one line of it) means when it is not data.
enum class LineKind
{
    Data,
    Empty,
    Header,
    InvalidField,    // Field "x" is not a valid field to query.
    DriverFailure,   // couldn't communicate with the driver, NVML mismatch, GPU lost, …
    NoDevices,       // No devices were found
    Other,
};
LineKind classifyLine(const QString &line);
// The field named by an InvalidField line (straight or curly quotes).
QString invalidFieldName(const QString &line);

// A complete --query-gpu output with or without header (units or nounits). Without a header the
// caller's field list is used.
struct GpuCsv
{
    QStringList fields;        // canonical
    QList<GpuSample> gpus;
    QStringList errors;        // non-data lines that explain a failure, verbatim
};
GpuCsv parseGpuCsv(const QString &text, const QStringList &fieldsWhenNoHeader = {});

// --query-compute-apps output. With a header the columns come from it; without, `fields` gives
// them (Gantry asks for pid,gpu_uuid,used_memory,process_name: the name last so it may hold commas).
QList<GpuProcess> parseComputeApps(const QString &text, const QStringList &fieldsWhenNoHeader = {});
std::optional<GpuProcess> parseComputeAppsRow(const QStringList &fields, const QString &line);

// Field names from `nvidia-smi --help-query-gpu` (both the old `"--query-gpu=":` and new headers,
// aliases `"a" or "b"` both returned, compute_mode value lines skipped).
QStringList parseHelpQueryGpu(const QString &text);

} // namespace gantry::monitor::nvsmi
