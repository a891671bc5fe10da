// gantry-cli verify / doctor: the Verify tab's work from a terminal.
#include "clicommand.h"
#include "cliconnect.h"
#include "interruptscope.h"
#include "core/hosts/hoststore.h"
#include "core/util/canceltoken.h"
#include "core/util/printable.h"
#include "core/verify/reputation.h"
#include "core/verify/verifyoperation.h"

#include <QFileInfo>
#include <QJsonArray>


namespace gantry::cli {
namespace {

using namespace gantry::verify;

QString num(std::optional<double> value, int precision = 1)
{
    return value ? QString::number(*value, 'f', precision) : QStringLiteral("-");
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
               .arg(QStringLiteral("GPU"), -4)
               .arg(QStringLiteral("Test"), -46)
               .arg(QStringLiteral("Measured"), 18)
               .arg(QStringLiteral("Expected"), 18)
               .arg(QStringLiteral("Ratio"), 6)
               .arg(QStringLiteral("Verdict"), -7);
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
            out << QStringLiteral("     %1 %2\n").arg(QStringLiteral("fix:"), text::printableLines(c.fix));
    }
}

// --binary and the --advertised-* / --price-per-hour / --instance-type / --machine-id values.
Result<void> verifyValues(const Args &args, VerifyRequest &request)
{
    Advertised &advertised = request.advertised;
    request.binaryPath = args.value("binary");
    if (const std::optional<QString> model = args.optional("advertised-model"))
        advertised.gpuModel = *model;
    if (const std::optional<QString> count = args.optional("advertised-count"))
        advertised.gpuCount = count->toInt();
    if (const std::optional<QString> vram = args.optional("advertised-vram-gib"))
        advertised.vramGib = vram->toDouble();
    if (const std::optional<QString> price = args.optional("price-per-hour"))
        advertised.hourlyPriceUsd = price->toDouble();
    if (const std::optional<QString> machine = args.optional("machine-id"))
        advertised.machineId = *machine;
    if (const std::optional<QString> type = args.optional("instance-type"))
        advertised.instanceType = *type;
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
                       QStringLiteral("--binary %1 does not exist; build it (cmake --build BUILD --target "
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
        out << QStringLiteral("GPU %1 vs %2 spec: memory %3 of %4 GB/s, FP32 %5 of %6 TFLOPS, tensor %7 of %8 TFLOPS")
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
        out << QStringLiteral("Cost: $%1 per measured tensor TFLOPS-hour").arg(*assessment.usdPerTflopHour, 0, 'f', 4) << '\n';
}

void printVerifyText(QTextStream &out, const VerifyRun &run)
{
    const Report &report = run.outcome.report;
    const QList<DoctorCheck> &doctor = run.outcome.doctor;
    out << QStringLiteral("Method: %1. %2").arg(methodName(report.method), text::printableLines(report.methodReason)) << '\n';
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
    out << QStringLiteral("Verdict: %1").arg(text::printableLines(run.assessment.headline)) << Qt::endl;
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

int verifyCommand(Context &context, const Args &args)
{
    VerifyRequest request;
    request.quick = args.has("quick");
    if (auto taken = verifyValues(args, request); !taken)
        return context.fail(taken.error());
    request.hostName = args.arg("HOST");
    if (auto binary = resolveBinary(request); !binary)
        return context.fail(binary.error());
    request.sourcesDir = defaultKernelSources();
    HostStore store(context.configDir);
    if (store.load()) {
        if (const auto saved = store.find(request.hostName))
            request.advertised = advertisedFor(*saved, request.advertised);
    }

    auto session = connectHost(context, request.hostName, args.host());
    if (!session)
        return context.fail(session.error());
    // Ctrl+C cancels the run (the remote program gets SIGINT).
    const InterruptScope interrupt;
    auto run = runVerify(**session, context.configDir, request, interrupt.token(), progressPrinter(context.err));
    if (!run)
        return interrupt.interrupted() ? interrupt.exitCode() : context.fail(run.error());
    for (const QString &warning : std::as_const(run->warnings))
        context.warn(QStringLiteral("warning: %1").arg(warning));
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
        context.warn(QStringLiteral("warning: %1").arg(recorded.error().message));
}

int doctorCommand(Context &context, const Args &args)
{
    const QString host = args.arg("HOST");
    auto session = connectHost(context, host, args.host());
    if (!session)
        return context.fail(session.error());
    const InterruptScope interrupt;
    auto checks = runDoctor(**session, interrupt.token());
    if (!checks)
        return interrupt.interrupted() ? interrupt.exitCode() : context.fail(checks.error());
    recordDoctorRun(context, host, args.value("machine-id"), *checks);
    if (context.json)
        context.printJson(doctorToJson(*checks));
    else
        printDoctor(context.out, *checks, false);
    context.out.flush();
    return anyFailed(*checks) ? ExitFailure : ExitOk;
}

const Option kMachineId{.name = "machine-id", .value = "ID", .help = "the marketplace machine id the result is recorded against (default: the saved host's)"};

const Registrar verifyRegistrar(Command{
    .name = "verify",
    .summary = "run gantry-verify on HOST: is the GPU the advertised one and healthy? A verdict per test (exit 1 on a failure)",
    .options = {{.name = "quick", .help = "the short run (about a minute)"},
                {.name = "binary", .value = "PATH", .help = "the gantry-verify to upload (default: the one installed with gantry-cli)",
                 .complete = Complete::File},
                {.name = "advertised-model", .value = "MODEL", .help = "the GPU model that was advertised (default: the saved host's)"},
                {.name = "advertised-count", .value = "N", .help = "how many GPUs were advertised"},
                {.name = "advertised-vram-gib", .value = "GIB", .help = "the advertised memory per GPU"},
                {.name = "price-per-hour", .value = "USD", .help = "what the machine costs, for the $ per measured TFLOPS"},
                {.name = "instance-type", .value = "TYPE", .help = "the provider's instance type, for the record"},
                kMachineId},
    .arguments = {{"HOST", Argument::One, Complete::Host}},
    .groups = Connection,
    .notes = {"Ctrl+C cancels the run: the remote program gets SIGINT (exit 130)."},
    .run = verifyCommand,
});
const Registrar doctorRegistrar(Command{
    .name = "doctor",
    .summary = "the usual GPU-instance problems on HOST, each with its fix (exit 1 when one fails)",
    .options = {kMachineId},
    .arguments = {{"HOST", Argument::One, Complete::Host}},
    .groups = Connection,
    .run = doctorCommand,
});

} // namespace
} // namespace gantry::cli
