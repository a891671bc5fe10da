// SPDX-License-Identifier: Apache-2.0
// gantry-cli accept: rent or return in 90 seconds (issue #34). The Verify tab's Acceptance test
// from a terminal: passive health, active figures against references, one decision.
#include "cmd_accept.h"
#include "clicommand.h"
#include "cliconnect.h"
#include "cliworkspace.h"
#include "cmd_provider_common.h"
#include "interruptscope.h"
#include "core/hosts/hoststore.h"
#include "core/providers/await.h"
#include "core/providers/providerhub.h"
#include "core/util/printable.h"
#include "core/verify/acceptance.h"
#include "core/verify/remoteverifier.h"
#include "core/verify/reputation.h"
#include "core/workspace/workspace.h"

#include <QFileInfo>

namespace gantry::cli {
namespace {

using namespace gantry::verify;
using namespace gantry::cli::providercli;

void printText(QTextStream &out, const Acceptance &a)
{
    // Details quote what the machine printed (kernel log lines, GPU names): escaped.
    out << QStringLiteral("Acceptance test of %1: %2").arg(text::printable(a.host), acceptVerdictName(a.verdict).toUpper()) << '\n';
    for (const QString &reason : a.reasons)
        out << QStringLiteral("  - %1").arg(text::printableLines(reason)) << '\n';
    out << QStringLiteral("Next step: %1").arg(a.nextStep) << "\n\n";
    out << QStringLiteral("%1 %2 %3 %4\n").arg(QStringLiteral("GPU"), -4).arg(QStringLiteral("Check"), -18).arg(QStringLiteral("Status"), -8).arg(QStringLiteral("Detail"));
    for (const AcceptCheck &c : a.checks) {
        out << QStringLiteral("%1 %2 %3 %4\n")
                   .arg(c.gpu ? QString::number(*c.gpu) : QStringLiteral("-"), -4)
                   .arg(c.name, -18)
                   .arg(acceptStatusName(c.status).toUpper(), -8)
                   .arg(text::printableLines(c.detail));
    }
    out.flush();
}

// --return-on-fail: the terminate the GUI and `gantry-cli terminate` run (results guard, ledger
// row with the reason), for the provider instance behind the saved host.
Result<QString> returnMachine(Context &context, const SavedHost &host, const Acceptance &a)
{
    if (host.provider.isEmpty() || host.instanceId.isEmpty())
        return Error::make(ErrorCode::Usage, QStringLiteral("--return-on-fail: %1 is not an instance Gantry launched or listed, so "
                                                            "there is nothing to terminate; return it at its provider")
                                                 .arg(host.name));
    ProviderEnv env = makeProviderEnv(context, ProviderOptions{host.provider, {}});
    CliWorkspace workspace(context, env, {host.provider});
    if (!workspace.hub()->provider(host.provider))
        return Error::make(ErrorCode::Usage, workspace.errors().value(0));
    workspace::ActionOptions options;
    options.resultsAcknowledged = true; // just rented and failed: nothing of the user's is on it yet
    options.note = QStringLiteral("acceptance test failed: %1").arg(a.reasons.value(0));
    Result<workspace::ActionOutcome> done = providers::await<workspace::ActionOutcome>([&](auto cb) {
        workspace.get()->act(workspace::InstanceAction::Terminate, host.provider, host.instanceId, options, cb);
    }, 10 * 60 * 1000);
    if (!done)
        return done.error();
    for (const QString &warning : std::as_const(done->warnings))
        context.warn(warning);
    return QStringLiteral("%1 on %2 terminated: the acceptance test failed.").arg(host.instanceId, host.provider);
}

Result<AcceptRequest> requestFrom(const Context &context, const Args &args, const QString &hostName, std::optional<SavedHost> &saved)
{
    AcceptRequest request;
    request.verify.hostName = hostName;
    request.verify.binaryPath = args.value("binary", defaultVerifyBinary());
    request.verify.sourcesDir = defaultKernelSources();
    request.expect.gpuModel = args.value("expect-gpu");
    bool ok = true;
    if (args.has("expect-count"))
        request.expect.gpuCount = args.value("expect-count").toInt(&ok);
    if (!ok || request.expect.gpuCount < 0)
        return Error::make(ErrorCode::Usage, QStringLiteral("--expect-count is a number of GPUs"));
    request.budgetSeconds = args.value("budget-seconds", QStringLiteral("90")).toInt(&ok);
    if (!ok || request.budgetSeconds < 30)
        return Error::make(ErrorCode::Usage, QStringLiteral("--budget-seconds is a number of seconds, 30 or more"));
    HostStore store(context.configDir);
    if (store.load())
        saved = store.find(request.verify.hostName);
    if (saved)
        request.verify.advertised = advertisedFor(*saved, request.verify.advertised);
    request.verify.advertised.gpuModel = request.expect.gpuModel;
    request.verify.advertised.gpuCount = request.expect.gpuCount;
    return request;
}

} // namespace

int acceptHost(Context &context, const Args &args, const QString &hostName, bool returnOnFail)
{
    std::optional<SavedHost> saved;
    Result<AcceptRequest> request = requestFrom(context, args, hostName, saved);
    if (!request)
        return context.fail(request.error());
    if (returnOnFail && !saved)
        return context.fail(Error::make(ErrorCode::Usage, QStringLiteral("--return-on-fail needs a saved host of a provider instance "
                                                                        "(gantry-cli hosts); %1 is not one")
                                                              .arg(request->verify.hostName)));
    auto session = connectHost(context, request->verify.hostName, args.host());
    if (!session)
        return context.fail(session.error());
    const InterruptScope interrupt;
    VerifyCallbacks quiet;
    quiet.onStatus = [&context](const QString &status) { context.err << text::printableLines(status) << Qt::endl; };
    auto accepted = runAcceptance(**session, context.configDir, *request, interrupt.token(), quiet);
    if (!accepted)
        return interrupt.interrupted() ? interrupt.exitCode() : context.fail(accepted.error());
    if (const QString report = args.value("report"); !report.isEmpty()) {
        if (auto written = writeAcceptanceReport(report, *accepted); !written)
            context.warn(QStringLiteral("warning: %1").arg(written.error().message));
    }
    QString returned;
    if (accepted->verdict == AcceptVerdict::Fail && returnOnFail) {
        Result<QString> done = returnMachine(context, *saved, *accepted);
        if (!done)
            return context.fail(done.error());
        returned = *done;
    }
    if (context.json) {
        QJsonObject json = acceptanceToJson(*accepted);
        json.insert(QStringLiteral("returned"), !returned.isEmpty());
        context.printJson(json);
    } else {
        printText(context.out, *accepted);
        if (!returned.isEmpty())
            context.out << returned << Qt::endl;
    }
    return accepted->verdict == AcceptVerdict::Fail ? ExitFailure : ExitOk;
}

namespace {

int acceptCommand(Context &context, const Args &args)
{
    return acceptHost(context, args, args.arg("HOST"), args.has("return-on-fail"));
}

const Registrar acceptRegistrar(Command{
    .name = "accept",
    .summary = "keep it or give it back: passive GPU health and measured figures against what good machines achieve, one "
               "verdict (pass, warn, fail, incomplete; exit 1 on fail)",
    .options = {{.name = "expect-gpu", .value = "MODEL", .help = "the GPU model you rented (\"H100 SXM\", \"A100 80GB\")"},
                {.name = "expect-count", .value = "N", .help = "how many GPUs you rented"},
                {.name = "report", .value = "FILE.html", .help = "also write a printable report (what a refund request needs)",
                 .complete = Complete::File},
                {.name = "return-on-fail", .help = "terminate the instance behind HOST when the test fails (recorded in the "
                                                   "ledger and the machine's reputation)"},
                {.name = "binary", .value = "PATH", .help = "the gantry-verify to upload (default: the one installed with gantry-cli)",
                 .complete = Complete::File},
                {.name = "budget-seconds", .value = "S", .help = "the time the test may take (default 90; 600 or more: the full run)"}},
    .arguments = {{"HOST", Argument::One, Complete::Host}},
    .groups = Connection,
    .notes = {"A simulated GPU (the sandbox) or a machine without a CUDA device is never a pass: it is incomplete.",
              "Ctrl+C cancels the run (exit 130)."},
    .run = acceptCommand,
});

} // namespace
} // namespace gantry::cli
