#include "core/verify/report.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>

namespace gantry::verify {
namespace {

std::optional<double> number(const QJsonObject &object, QLatin1StringView key)
{
    const QJsonValue value = object.value(key);
    if (!value.isDouble())
        return std::nullopt; // null, missing, or a string: unknown
    return value.toDouble();
}

std::optional<bool> boolean(const QJsonObject &object, QLatin1StringView key)
{
    const QJsonValue value = object.value(key);
    if (!value.isBool())
        return std::nullopt;
    return value.toBool();
}

Verdict verdictOf(const QJsonObject &object, QLatin1StringView key, Verdict fallback)
{
    return verdictFromName(object.value(key).toString()).value_or(fallback);
}

TestResult parseTest(const QJsonObject &object)
{
    TestResult test;
    test.id = object.value(QLatin1StringView("id")).toString();
    test.name = object.value(QLatin1StringView("name")).toString();
    if (test.name.isEmpty())
        test.name = test.id;
    test.status = verdictOf(object, QLatin1StringView("status"), Verdict::Error);
    test.measured = number(object, QLatin1StringView("measured"));
    test.expected = number(object, QLatin1StringView("expected"));
    test.ratio = number(object, QLatin1StringView("ratio"));
    if (!test.ratio && test.measured && test.expected && *test.expected > 0)
        test.ratio = *test.measured / *test.expected;
    test.unit = object.value(QLatin1StringView("unit")).toString();
    test.message = object.value(QLatin1StringView("message")).toString();
    test.details = object.value(QLatin1StringView("details")).toObject();
    return test;
}

GpuResult parseGpu(const QJsonObject &object, int position)
{
    GpuResult gpu;
    gpu.index = object.value(QLatin1StringView("index")).toInt(position);
    gpu.name = object.value(QLatin1StringView("name")).toString();
    gpu.uuid = object.value(QLatin1StringView("uuid")).toString();
    gpu.pciBusId = object.value(QLatin1StringView("pci_bus_id")).toString();
    gpu.pciDeviceId = object.value(QLatin1StringView("pci_device_id")).toString();
    gpu.computeCapability = object.value(QLatin1StringView("compute_capability")).toString();
    gpu.smCount = number(object, QLatin1StringView("sm_count"));
    gpu.memoryTotalMib = number(object, QLatin1StringView("memory_total_mib"));
    gpu.busWidthBits = number(object, QLatin1StringView("bus_width_bits"));
    gpu.maxMemClockMhz = number(object, QLatin1StringView("max_mem_clock_mhz"));
    gpu.maxSmClockMhz = number(object, QLatin1StringView("max_sm_clock_mhz"));
    gpu.eccEnabled = boolean(object, QLatin1StringView("ecc_enabled"));
    gpu.migEnabled = boolean(object, QLatin1StringView("mig_enabled"));
    gpu.powerLimitW = number(object, QLatin1StringView("power_limit_w"));
    gpu.defaultPowerLimitW = number(object, QLatin1StringView("default_power_limit_w"));
    gpu.pcieGenMax = number(object, QLatin1StringView("pcie_gen_max"));
    gpu.pcieWidthMax = number(object, QLatin1StringView("pcie_width_max"));
    gpu.verdict = verdictOf(object, QLatin1StringView("verdict"), Verdict::Error);
    const QJsonArray tests = object.value(QLatin1StringView("tests")).toArray();
    for (const QJsonValue &test : tests)
        gpu.tests.append(parseTest(test.toObject()));
    return gpu;
}

} // namespace

const TestResult *GpuResult::test(const QString &id) const
{
    for (const TestResult &t : tests) {
        if (t.id == id)
            return &t;
    }
    return nullptr;
}

QString methodName(Method method)
{
    switch (method) {
    case Method::BundledBinary: return QStringLiteral("bundled-binary");
    case Method::BuiltOnInstance: return QStringLiteral("built-on-instance");
    case Method::Torch: return QStringLiteral("pytorch");
    case Method::DiagnosisOnly: return QStringLiteral("diagnosis-only");
    }
    return QStringLiteral("diagnosis-only");
}

std::optional<Method> methodFromName(const QString &name)
{
    for (Method m : {Method::BundledBinary, Method::BuiltOnInstance, Method::Torch, Method::DiagnosisOnly}) {
        if (methodName(m) == name)
            return m;
    }
    return std::nullopt;
}

Result<Report> parseReport(const QByteArray &json)
{
    // The program prints exactly one document, but a wrapper (ssh banner, a shell profile that
    // echoes) may add lines before it: start at the first '{'.
    const qsizetype start = json.indexOf('{');
    if (start < 0) {
        return Error::make(ErrorCode::Parse,
                           QStringLiteral("gantry-verify printed no JSON result; rerun it by hand on the instance "
                                          "to see its error output"));
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json.mid(start), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        return Error::make(ErrorCode::Parse,
                           QStringLiteral("gantry-verify's result is not valid JSON (%1 at offset %2); the run was "
                                          "probably cut short, so run it again")
                               .arg(parseError.errorString())
                               .arg(parseError.offset + start));
    }
    const QJsonObject object = document.object();
    Report report;
    report.raw = object;
    report.schema = object.value(QLatin1StringView("schema")).toString();
    if (report.schema.isEmpty()) {
        return Error::make(ErrorCode::Parse,
                           QStringLiteral("the result has no \"schema\" field, so it was not written by gantry-verify; "
                                          "check that the uploaded program is Gantry's"));
    }
    if (report.schema != kReportSchema) {
        return Error::make(ErrorCode::Parse,
                           QStringLiteral("gantry-verify wrote schema \"%1\" but this Gantry reads \"%2\"; use the "
                                          "gantry-verify built with this version of Gantry")
                               .arg(report.schema, QString(kReportSchema)));
    }
    report.toolVersion = object.value(QLatin1StringView("tool_version")).toString();
    report.mode = object.value(QLatin1StringView("mode")).toString();
    report.driverVersion = object.value(QLatin1StringView("driver_version")).toString();
    report.cudaDriverApi = number(object, QLatin1StringView("cuda_driver_api"));
    report.nvml = object.value(QLatin1StringView("nvml")).toBool();
    report.durationS = number(object, QLatin1StringView("duration_s"));
    const QJsonArray errors = object.value(QLatin1StringView("errors")).toArray();
    for (const QJsonValue &error : errors)
        report.errors.append(error.toString());
    report.verdict = verdictOf(object, QLatin1StringView("verdict"), Verdict::Error);
    const QJsonArray gpus = object.value(QLatin1StringView("gpus")).toArray();
    for (int i = 0; i < gpus.size(); ++i)
        report.gpus.append(parseGpu(gpus.at(i).toObject(), i));
    if (const auto method = methodFromName(object.value(QLatin1StringView("gantry_method")).toString()))
        report.method = *method;
    report.methodReason = object.value(QLatin1StringView("gantry_method_reason")).toString();
    return report;
}

QJsonObject reportToJson(const Report &report)
{
    QJsonObject object = report.raw;
    if (object.isEmpty()) {
        object.insert(QLatin1StringView("schema"), QString(kReportSchema));
        object.insert(QLatin1StringView("verdict"), verdictName(report.verdict));
        object.insert(QLatin1StringView("errors"), QJsonArray::fromStringList(report.errors));
        object.insert(QLatin1StringView("gpus"), QJsonArray());
    }
    object.insert(QLatin1StringView("gantry_method"), methodName(report.method));
    object.insert(QLatin1StringView("gantry_method_reason"), report.methodReason);
    object.insert(QLatin1StringView("exit_code"), report.exitCode);
    return object;
}

std::optional<Progress> parseProgressLine(const QString &line)
{
    // Every line of a verify run's output comes here; most are not progress lines, and a match
    // (allocating its match data) is far dearer than this test of a substring every match needs.
    if (!line.contains(QLatin1StringView("gantry-verify:")))
        return std::nullopt;
    static const QRegularExpression re(QStringLiteral(R"(^\s*gantry-verify:\s*(?:\[\s*(\d{1,3})\s*%\s*\]\s*)?(.*)$)"));
    const QRegularExpressionMatch match = re.match(line);
    if (!match.hasMatch())
        return std::nullopt;
    Progress progress;
    if (match.capturedLength(1) > 0)
        progress.percent = qBound(0, match.captured(1).toInt(), 100);
    progress.text = match.captured(2).trimmed();
    return progress;
}

} // namespace gantry::verify
