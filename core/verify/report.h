#pragma once

#include "core/util/result.h"
#include "core/verify/verdict.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gantry::verify {

inline constexpr QLatin1StringView kReportSchema{"gantry-verify/1"};

struct TestResult
{
    QString id;       // "device_bandwidth", …
    QString name;     // human label from the program
    Verdict status = Verdict::Skip;
    std::optional<double> measured;
    std::optional<double> expected;
    std::optional<double> ratio;
    QString unit;
    QString message;
    QJsonObject details;
};

struct GpuResult
{
    int index = 0;
    QString name;
    QString uuid;
    QString pciBusId;
    QString pciDeviceId;        // "0x233510DE"
    QString computeCapability;  // "9.0"
    std::optional<double> smCount;
    std::optional<double> memoryTotalMib;
    std::optional<double> busWidthBits;
    std::optional<double> maxMemClockMhz;
    std::optional<double> maxSmClockMhz;
    std::optional<bool> eccEnabled;
    std::optional<bool> migEnabled;
    std::optional<double> powerLimitW;
    std::optional<double> defaultPowerLimitW;
    std::optional<double> pcieGenMax;
    std::optional<double> pcieWidthMax;
    Verdict verdict = Verdict::Skip;
    QList<TestResult> tests;

    const TestResult *test(const QString &id) const;
};

// How the figures were obtained; every report says which path ran and why.
enum class Method
{
    BundledBinary,   // the gantry-verify built with the app, uploaded
    BuiltOnInstance, // kernels/ sources compiled with the instance's nvcc
    Torch,           // the PyTorch fallback (CUDA available, matmul and copy rates)
    DiagnosisOnly,   // nothing could run; the report carries the diagnosis
};
QString methodName(Method method);
std::optional<Method> methodFromName(const QString &name);

// One run of gantry-verify (or a fallback that speaks the same schema).
struct Report
{
    QString schema;
    QString toolVersion;
    QString mode;               // "full", "quick", "torch"
    QString driverVersion;
    std::optional<double> cudaDriverApi;
    bool nvml = false;
    std::optional<double> durationS;
    QStringList errors;
    Verdict verdict = Verdict::Error;
    QList<GpuResult> gpus;
    int exitCode = 0;           // the program's exit status (3: no GPU/driver, 4: driver too old)
    Method method = Method::BundledBinary;
    QString methodReason;       // why this method was used
    QJsonObject raw;            // the document as the program printed it
};

// Parses the program's stdout. Fails with a message naming the problem when the text is not JSON,
// or the schema is missing or of another version (the app is older/newer than the program).
Result<Report> parseReport(const QByteArray &json);

// The program's document with the app's method annotation (for --json and the history).
QJsonObject reportToJson(const Report &report);

// "gantry-verify: [ 42%] device_bandwidth: copy 3.9 TB/s" → 42 and the text after the bracket.
struct Progress
{
    int percent = -1; // -1 when the line had no percentage
    QString text;
};
std::optional<Progress> parseProgressLine(const QString &line);

} // namespace gantry::verify
