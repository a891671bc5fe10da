// gantry-cli verify / doctor: the Verify tab's work from a terminal.
#include "clicommand.h"
#include "cliconnect.h"
#include "scopedsignal.h"
#include "core/hosts/hoststore.h"
#include "core/util/canceltoken.h"
#include "core/util/printable.h"
#include "core/verify/reputation.h"
#include "core/verify/verifyoperation.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>

#include <csignal>

namespace gantry::cli {
namespace {

using namespace gantry::verify;

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class CliText
{
    Q_DECLARE_TR_FUNCTIONS(cli)
};

// Ctrl-C cancels the run (the remote program gets SIGINT); created before main() runs.
const CancelToken g_verifyInterrupted;

void onVerifySigint(int)
{
    g_verifyInterrupted.cancel();
}

QString num(std::optional<double> value, int precision = 1)
{
    return value ? QString::number(*value, 'f', precision) : QStringLiteral("-");
}

// Removes "--name VALUE" from args; the value, or nullopt when absent. Missing value → usage error.
Result<std::optional<QString>> takeValue(QStringList &args, const QString &name)
{
    const qsizetype at = args.indexOf(name);
    if (at < 0)
        return std::optional<QString>{};
    if (at + 1 >= args.size())
        return Error::make(ErrorCode::Usage, CliText::tr("%1 needs a value").arg(name));
    const QString value = args.at(at + 1);
    args.remove(at, 2);
    return std::optional<QString>{value};
}

bool takeFlag(QStringList &args, const QString &name)
{
    return args.removeAll(name) > 0;
}

QJsonValue optJson(std::optional<double> value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QJsonObject assessmentToJson(const Assessment &a)
{
    QJsonArray findings;
    for (const Finding &f : a.findings) {
        findings.append(QJsonObject{{QStringLiteral("id"), f.id},
                                    {QStringLiteral("gpu"), f.gpuIndex},
                                    {QStringLiteral("status"), verdictName(f.status)},
                                    {QStringLiteral("message"), f.message}});
    }
    QJsonArray specs;
    for (const SpecComparison &c : a.comparisons) {
        specs.append(QJsonObject{
            {QStringLiteral("gpu"), c.gpuIndex},
            {QStringLiteral("name"), c.gpuName},
            {QStringLiteral("spec_id"), c.specId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(c.specId)},
            {QStringLiteral("spec_model"), c.specModel},
            {QStringLiteral("bandwidth_gbs"), optJson(c.bandwidthGbs)},
            {QStringLiteral("spec_bandwidth_gbs"), optJson(c.specBandwidthGbs)},
            {QStringLiteral("bandwidth_ratio"), optJson(SpecComparison::ratio(c.bandwidthGbs, c.specBandwidthGbs))},
            {QStringLiteral("fp32_tflops"), optJson(c.fp32Tflops)},
            {QStringLiteral("spec_fp32_tflops"), optJson(c.specFp32Tflops)},
            {QStringLiteral("fp32_ratio"), optJson(SpecComparison::ratio(c.fp32Tflops, c.specFp32Tflops))},
            {QStringLiteral("tensor_tflops"), optJson(c.tensorTflops)},
            {QStringLiteral("spec_tensor_tflops"), optJson(c.specTensorTflops)},
            {QStringLiteral("tensor_ratio"), optJson(SpecComparison::ratio(c.tensorTflops, c.specTensorTflops))},
        });
    }
    return QJsonObject{{QStringLiteral("verdict"), verdictName(a.verdict)},
                       {QStringLiteral("headline"), a.headline},
                       {QStringLiteral("findings"), findings},
                       {QStringLiteral("spec_comparison"), specs},
                       {QStringLiteral("total_tensor_tflops"), optJson(a.totalTensorTflops)},
                       {QStringLiteral("usd_per_tflop_hour"), optJson(a.usdPerTflopHour)}};
}

void printTable(QTextStream &out, const Report &report)
{
    out << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
               .arg(CliText::tr("GPU"), -4)
               .arg(CliText::tr("Test"), -46)
               .arg(CliText::tr("Measured"), 18)
               .arg(CliText::tr("Expected"), 18)
               .arg(CliText::tr("Ratio"), 6)
               .arg(CliText::tr("Verdict"), -7);
    for (const GpuResult &gpu : report.gpus) {
        for (const TestResult &test : gpu.tests) {
            const QString unit = test.unit.isEmpty() ? QString() : QLatin1Char(' ') + text::printable(test.unit);
            out << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                       .arg(QString::number(gpu.index), -4)
                       .arg(text::printable(test.name).left(46), -46)
                       .arg(test.measured ? num(test.measured) + unit : QStringLiteral("-"), 18)
                       .arg(test.expected ? num(test.expected) + unit : QStringLiteral("-"), 18)
                       .arg(num(test.ratio, 2), 6)
                       .arg(verdictName(effectiveStatus(test)), -7);
        }
    }
}

void printDoctor(QTextStream &out, const QList<DoctorCheck> &checks, bool onlyProblems)
{
    // Messages quote what the host printed (driver errors, nvidia-smi output): escaped.
    for (const DoctorCheck &c : checks) {
        if (onlyProblems && c.status == CheckStatus::Ok)
            continue;
        out << QStringLiteral("%1 %2 %3\n").arg(checkStatusName(c.status).toUpper(), -4).arg(c.id, -15).arg(text::printableLines(c.message));
        if (!c.fix.isEmpty())
            out << QStringLiteral("     %1 %2\n").arg(CliText::tr("fix:"), text::printableLines(c.fix));
    }
}

// Removes --binary and the --advertised-* / --price-per-hour / --instance-type values from args.
Result<void> takeVerifyValues(QStringList &args, VerifyRequest &request)
{
    Advertised &advertised = request.advertised;
    for (const QString &name : {QStringLiteral("--binary"), QStringLiteral("--advertised-model"),
                                QStringLiteral("--advertised-count"), QStringLiteral("--advertised-vram-gib"),
                                QStringLiteral("--price-per-hour"), QStringLiteral("--instance-type"),
                                QStringLiteral("--machine-id")}) {
        auto value = takeValue(args, name);
        if (!value)
            return value.error();
        if (!value->has_value())
            continue;
        const QString v = **value;
        if (name == QLatin1StringView("--binary"))
            request.binaryPath = v;
        else if (name == QLatin1StringView("--advertised-model"))
            advertised.gpuModel = v;
        else if (name == QLatin1StringView("--advertised-count"))
            advertised.gpuCount = v.toInt();
        else if (name == QLatin1StringView("--advertised-vram-gib"))
            advertised.vramGib = v.toDouble();
        else if (name == QLatin1StringView("--price-per-hour"))
            advertised.hourlyPriceUsd = v.toDouble();
        else if (name == QLatin1StringView("--machine-id"))
            advertised.machineId = v;
        else
            advertised.instanceType = v;
    }
    return {};
}

// The binary to upload: --binary when it exists, else the one next to this install.
Result<void> resolveBinary(VerifyRequest &request)
{
    if (request.binaryPath.isEmpty()) {
        request.binaryPath = defaultVerifyBinary();
        return {};
    }
    if (QFileInfo(request.binaryPath).isFile())
        return {};
    return Error::make(ErrorCode::Usage,
                       CliText::tr("--binary %1 does not exist; build it (cmake --build BUILD --target "
                                   "gantry-verify) or leave --binary out")
                           .arg(request.binaryPath));
}

void printVerifyJson(Context &context, const VerifyRequest &request, const VerifyRun &run)
{
    const Report &report = run.outcome.report;
    QJsonObject json = assessmentToJson(run.assessment);
    json.insert(QStringLiteral("host"), request.hostName);
    json.insert(QStringLiteral("method"), methodName(report.method));
    json.insert(QStringLiteral("method_reason"), report.methodReason);
    json.insert(QStringLiteral("report"), reportToJson(report));
    json.insert(QStringLiteral("doctor"), doctorToJson(run.outcome.doctor).value(QStringLiteral("checks")));
    context.printJson(json);
}

void printMeasured(QTextStream &out, const VerifyRun &run)
{
    const Assessment &assessment = run.assessment;
    printTable(out, run.outcome.report);
    for (const SpecComparison &c : assessment.comparisons) {
        if (c.specId.isEmpty())
            continue;
        out << CliText::tr("GPU %1 vs %2 spec: memory %3 of %4 GB/s, FP32 %5 of %6 TFLOPS, tensor %7 of %8 TFLOPS")
                   .arg(c.gpuIndex)
                   .arg(text::printable(c.specModel), num(c.bandwidthGbs, 0), num(c.specBandwidthGbs, 0), num(c.fp32Tflops),
                        num(c.specFp32Tflops), num(c.tensorTflops, 0), num(c.specTensorTflops, 0))
            << '\n';
    }
    for (const Finding &f : assessment.findings) {
        if (f.status != Verdict::Pass)
            out << verdictName(f.status).toUpper() << ' ' << text::printableLines(f.message) << '\n';
    }
    printDoctor(out, run.outcome.doctor, true);
    if (assessment.usdPerTflopHour)
        out << CliText::tr("Cost: $%1 per measured tensor TFLOPS-hour").arg(*assessment.usdPerTflopHour, 0, 'f', 4) << '\n';
}

void printVerifyText(QTextStream &out, const VerifyRun &run)
{
    const Report &report = run.outcome.report;
    const QList<DoctorCheck> &doctor = run.outcome.doctor;
    out << CliText::tr("Method: %1. %2").arg(methodName(report.method), text::printableLines(report.methodReason)) << '\n';
    if (report.gpus.isEmpty()) {
        printDoctor(out, doctor, true);
        for (const QString &error : report.errors) {
            if (!doctor.isEmpty() && report.method == Method::DiagnosisOnly)
                break; // the doctor lines above already say it, with the fix
            out << text::printableLines(error) << '\n';
        }
    } else {
        printMeasured(out, run);
    }
    out << CliText::tr("Verdict: %1").arg(text::printableLines(run.assessment.headline)) << Qt::endl;
}

VerifyCallbacks progressPrinter(QTextStream &log)
{
    VerifyCallbacks callbacks;
    callbacks.onStatus = [&log](const QString &status) { log << text::printableLines(status) << Qt::endl; };
    callbacks.onProgress = [&log](const Progress &p) {
        if (p.percent >= 0)
            log << QStringLiteral("[%1%] ").arg(p.percent, 3) << text::printableLines(p.text) << Qt::endl;
        else
            log << text::printableLines(p.text) << Qt::endl;
    };
    return callbacks;
}

int verifyCommand(Context &context, const QStringList &input)
{
    QStringList args = input;
    auto options = takeHostOptions(args);
    if (!options)
        return context.fail(options.error());
    VerifyRequest request;
    request.quick = takeFlag(args, QStringLiteral("--quick"));
    if (takeFlag(args, QStringLiteral("--json")))
        context.json = true;
    if (auto taken = takeVerifyValues(args, request); !taken)
        return context.fail(taken.error());
    if (args.size() != 1)
        return context.usage(CliText::tr("verify HOST [--quick] [--json] [--binary PATH]"));
    request.hostName = args.first();
    if (auto binary = resolveBinary(request); !binary)
        return context.fail(binary.error());
    request.sourcesDir = defaultKernelSources();
    HostStore store(context.configDir);
    if (store.load()) {
        if (const auto saved = store.find(request.hostName))
            request.advertised = advertisedFor(*saved, request.advertised);
    }

    auto session = connectHost(context, request.hostName, *options);
    if (!session)
        return context.fail(session.error());
    const ScopedSignal ctrlC(SIGINT, onVerifySigint);
    auto run = runVerify(**session, context.configDir, request, g_verifyInterrupted, progressPrinter(context.err));
    if (!run)
        return context.fail(run.error());
    for (const QString &warning : std::as_const(run->warnings))
        context.warn(CliText::tr("warning: %1").arg(warning));
    if (context.json)
        printVerifyJson(context, request, *run);
    else
        printVerifyText(context.out, *run);
    const Verdict verdict = run->assessment.verdict;
    return verdict == Verdict::Fail || verdict == Verdict::Error ? ExitFailure : ExitOk;
}

// The doctor's failure against the machine: its provider and Vast machine id come from the saved
// host (an explicit --machine-id wins). A broken record only warns.
void recordDoctorRun(const Context &context, const QString &host, const QString &machineId, const QList<DoctorCheck> &checks)
{
    Advertised machine;
    machine.machineId = machineId;
    HostStore store(context.configDir);
    if (store.load()) {
        if (const auto saved = store.find(host))
            machine = advertisedFor(*saved, machine);
    }
    if (auto recorded = recordDoctor(context.configDir, host, machine, checks); !recorded)
        context.warn(CliText::tr("warning: %1").arg(recorded.error().message));
}

int doctorCommand(Context &context, const QStringList &input)
{
    QStringList args = input;
    auto options = takeHostOptions(args);
    if (!options)
        return context.fail(options.error());
    if (takeFlag(args, QStringLiteral("--json")))
        context.json = true;
    auto machineId = takeValue(args, QStringLiteral("--machine-id"));
    if (!machineId)
        return context.fail(machineId.error());
    if (args.size() != 1)
        return context.usage(CliText::tr("doctor HOST [--json] [--machine-id ID]"));
    auto session = connectHost(context, args.first(), *options);
    if (!session)
        return context.fail(session.error());
    const ScopedSignal ctrlC(SIGINT, onVerifySigint);
    auto checks = runDoctor(**session, g_verifyInterrupted);
    if (!checks)
        return context.fail(checks.error());
    recordDoctorRun(context, args.first(), machineId->value_or(QString()), *checks);
    if (context.json)
        context.printJson(doctorToJson(*checks));
    else
        printDoctor(context.out, *checks, false);
    context.out.flush();
    return anyFailed(*checks) ? ExitFailure : ExitOk;
}

const Registrar verifyRegistrar(
    "verify",
    "verify HOST [--quick] [--json] [--binary PATH] [--advertised-model M] [--advertised-count N] "
    "[--advertised-vram-gib G] [--price-per-hour USD] [--machine-id ID]   run gantry-verify, verdict per test (exit 1 on fail)",
    verifyCommand);
const Registrar doctorRegistrar("doctor", "doctor HOST [--json] [--machine-id ID]   the usual GPU-instance problems, each with its fix "
                                          "(exit 1 when one fails)",
                                doctorCommand);

} // namespace
} // namespace gantry::cli
