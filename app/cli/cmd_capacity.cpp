// watch-capacity: poll providers until a GPU is free under a price, tell, and optionally rent it
// (falling back through listed types), then hand the new machine to the usual connect path.
#include "cmd_provider_common.h"

#include "cliworkspace.h"
#include "core/providers/await.h"
#include "core/providers/capacitywatch.h"
#include "core/providers/providerhub.h"
#include "core/verify/reputation.h"
#include "core/workspace/workspace.h"
#include "core/util/printable.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonArray>
#include <QTimer>

namespace gantry::cli {
namespace {

using namespace providercli;

QJsonObject matchJson(const QString &event, const providers::CapacityMatch &match)
{
    return QJsonObject{{QStringLiteral("event"), event}, {QStringLiteral("provider"), match.provider},
                       {QStringLiteral("type"), match.type.name}, {QStringLiteral("gpu_model"), match.type.gpuModel},
                       {QStringLiteral("gpu_count"), match.gpuCount}, {QStringLiteral("vram_gb"), match.type.vramGbPerGpu},
                       {QStringLiteral("region"), match.region}, {QStringLiteral("price_per_hour"), match.pricePerHour},
                       {QStringLiteral("price_per_gpu_hour"), match.pricePerGpuHour}};
}

QStringList splitList(const QString &value)
{
    QStringList list;
    for (const QString &item : value.split(QLatin1Char(','), Qt::SkipEmptyParts))
        list.append(item.trimmed());
    return list;
}

struct WatchArgs
{
    providers::WatchOptions options;
    QStringList providerIds;
    QString endpoint;
    int timeoutS = 0;
};

Result<WatchArgs> parseArgs(const Args &args)
{
    WatchArgs parsed;
    QStringList fallbacks;
    for (const QString &value : args.values("fallback")) // --fallback may repeat, each a TYPE or a comma list
        fallbacks += splitList(value);
    providers::WatchOptions &options = parsed.options;
    options.launch = args.has("launch");
    options.keepWatching = args.has("keep-watching");
    options.query.gpu = args.value("gpu").trimmed();
    if (options.query.gpu.isEmpty())
        return Error{ErrorCode::Usage, QStringLiteral("watch-capacity needs --gpu MODEL (e.g. H100, \"H100 SXM\", RTX 4090)")};
    bool ok = true;
    options.query.count = args.value("count", QStringLiteral("0")).toInt(&ok);
    bool priceOk = true;
    options.query.maxPricePerGpuHour = args.value("max-price", QStringLiteral("0")).toDouble(&priceOk);
    bool pollOk = true;
    options.pollMs = int(args.value("poll", QStringLiteral("0")).toDouble(&pollOk) * 1000);
    bool timeoutOk = true;
    parsed.timeoutS = args.value("timeout", QStringLiteral("0")).toInt(&timeoutOk);
    if (!ok || !priceOk || !pollOk || !timeoutOk || options.query.count < 0 || options.query.maxPricePerGpuHour < 0)
        return Error{ErrorCode::Usage, QStringLiteral("--count, --max-price (USD per GPU-hour), --poll and --timeout need numbers")};
    options.query.regions = splitList(args.value("regions"));
    options.sshKey = args.value("ssh-key");
    options.name = args.value("name");
    options.fallbackTypes = fallbacks;
    if (options.launch && options.sshKey.isEmpty())
        return Error{ErrorCode::Usage, QStringLiteral("--launch needs --ssh-key NAME (the account key the new machine accepts)")};
    parsed.providerIds = splitList(args.value("providers"));
    parsed.endpoint = args.value("endpoint");
    if (!parsed.endpoint.isEmpty() && parsed.providerIds.size() != 1)
        return Error{ErrorCode::Usage, QStringLiteral("--endpoint needs exactly one provider in --providers")};
    for (const QString &id : std::as_const(parsed.providerIds)) {
        if (!providers::knownProviderIds().contains(id))
            return Error{ErrorCode::Usage, QStringLiteral("unknown provider \"%1\" (known: %2)")
                                               .arg(id, providers::knownProviderIds().join(QStringLiteral(", ")))};
    }
    return parsed;
}

// The usual path after a launch (the workspace wrote its ledger row): wait until reachable, save the host.
int handOver(Context &context, workspace::Workspace &workspace, const providers::LaunchOutcome &outcome, const QString &providerId)
{
    workspace::FollowOptions follow;
    follow.timeoutMs = 900 * 1000;
    follow.neverUpNote = QStringLiteral("never became active");
    Result<workspace::ReadyInstance> ready = providers::await<workspace::ReadyInstance>(
        [&](auto done) { workspace.follow(providerId, outcome.id, follow, done); }, 960 * 1000);
    if (!ready)
        return failProvider(context, ready.error()); // a hostile address is refused there: none of it is printed
    for (const QString &warning : std::as_const(ready->warnings))
        context.warn(warning);
    const providers::Instance &up = ready->instance;
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("running")}, {QStringLiteral("provider"), providerId},
                                      {QStringLiteral("id"), up.id}, {QStringLiteral("ssh_host"), up.sshHost},
                                      {QStringLiteral("ssh_port"), up.sshPort}, {QStringLiteral("ssh_user"), up.sshUser},
                                      {QStringLiteral("host"), ready->hostName}});
    } else {
        context.out << QStringLiteral("%1 is running: ssh -p %2 %3@%4   (saved as host \"%5\")")
                           .arg(text::printable(up.id)).arg(up.sshPort)
                           .arg(text::printable(up.sshUser), text::printable(up.sshHost), text::printable(ready->hostName))
                    << Qt::endl;
    }
    return ExitOk;
}

void report(Context &context, providers::CapacityWatcher &watcher)
{
    QObject::connect(&watcher, &providers::CapacityWatcher::matchFound, &watcher, [&context](const providers::CapacityMatch &match) {
        if (context.json)
            return context.printJson(matchJson(QStringLiteral("match"), match));
        context.out << QStringLiteral("Available: %1 %2 (%3x %4%5) at $%6/h ($%7 per GPU-hour)")
                           .arg(match.provider, text::printable(match.type.name)).arg(match.gpuCount)
                           .arg(text::printable(match.type.gpuModel),
                                match.region.isEmpty() ? QString() : QStringLiteral(", ") + text::printable(match.region))
                           .arg(match.pricePerHour, 0, 'f', 2).arg(match.pricePerGpuHour, 0, 'f', 2) << Qt::endl;
    });
    QObject::connect(&watcher, &providers::CapacityWatcher::pollFailed, &watcher,
                     [&context](const QString &provider, const QString &message, qint64 retryMs) {
                         if (context.json)
                             return context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("poll_failed")},
                                                                  {QStringLiteral("provider"), provider},
                                                                  {QStringLiteral("error"), message},
                                                                  {QStringLiteral("retry_in_s"), double(retryMs) / 1000}});
                         context.warn(QStringLiteral("%1 (next try in %2 s)").arg(message).arg(retryMs / 1000));
                     });
    QObject::connect(&watcher, &providers::CapacityWatcher::launchFailed, &watcher,
                     [&context](const providers::CapacityMatch &match, const QString &kind, const QString &message, bool retry) {
                         if (context.json) {
                             QJsonObject object = matchJson(QStringLiteral("launch_failed"), match);
                             object.insert(QStringLiteral("kind"), kind);
                             object.insert(QStringLiteral("error"), message);
                             object.insert(QStringLiteral("will_retry"), retry);
                             return context.printJson(object);
                         }
                         context.warn(retry ? QStringLiteral("%1 (will try again)").arg(message) : message);
                     });
}

int watchCapacityCommand(Context &context, const Args &arguments)
{
    Result<WatchArgs> parsed = parseArgs(arguments);
    if (!parsed)
        return context.fail(parsed.error());
    ProviderOptions options;
    options.endpoint = parsed->endpoint;
    ProviderEnv env = makeProviderEnv(context, options);
    QStringList ids = parsed->providerIds;
    if (ids.isEmpty()) {
        ids = providers::configuredProviderIds(env.settings);
        ids.removeIf([&env](const QString &id) { // a local provider has no capacity to wait for
            Result<std::unique_ptr<providers::Provider>> provider = providers::createProvider(id, env.settings);
            return provider && (*provider)->info().capabilities.testFlag(providers::Capability::Local);
        });
        if (ids.isEmpty())
            return context.usage(QStringLiteral("no provider has an API key; store one with gantry-cli provider-key set PROVIDER"));
    }
    // The workspace rents what the watch finds: a lost answer adopted, the ledger row written.
    CliWorkspace workspace(context, env, ids);
    if (!workspace.errors().isEmpty())
        return context.fail(Error{ErrorCode::Usage, workspace.errors().first()});
    QList<providers::Provider *> list;
    for (const QString &id : std::as_const(ids))
        list.append(workspace.hub()->provider(id));
    parsed->options.isFlagged = verify::flaggedMachines(context.configDir); // never the same bad machine again
    providers::CapacityWatcher watcher(list, parsed->options, Clock::system());
    workspace::LaunchOptions launchOptions;
    launchOptions.follow = false;
    launchOptions.lookupIntervalMs = parsed->options.lookupIntervalMs;
    watcher.setLauncher(workspace.get()->capacityLauncher(launchOptions));
    report(context, watcher);
    QEventLoop loop;
    int exitCode = ExitOk;
    std::optional<std::pair<providers::CapacityMatch, providers::LaunchOutcome>> handoff;
    QObject::connect(&watcher, &providers::CapacityWatcher::launched, &watcher,
                     [&](const providers::CapacityMatch &match, const providers::LaunchOutcome &outcome) {
                         if (outcome.adopted)
                             context.warn(outcome.note);
                         if (context.json) {
                             QJsonObject object = matchJson(QStringLiteral("launched"), match);
                             object.insert(QStringLiteral("id"), outcome.id);
                             object.insert(QStringLiteral("adopted"), outcome.adopted);
                             context.printJson(object);
                         } else {
                             context.out << QStringLiteral("Launched %1 on %2 (%3, $%4/h).").arg(text::printable(outcome.id), match.provider,
                                                                                         text::printable(match.type.name))
                                                .arg(match.pricePerHour, 0, 'f', 2) << Qt::endl;
                         }
                         if (!parsed->options.keepWatching)
                             handoff.emplace(match, outcome);
                     });
    QObject::connect(&watcher, &providers::CapacityWatcher::finished, &loop, [&](bool ok, const QString &message) {
        if (!ok)
            exitCode = context.fail(Error{ErrorCode::Provider, message});
        loop.quit();
    });
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, &watcher, &providers::CapacityWatcher::tick);
    ticker.start(250);
    watcher.tick();
    if (parsed->timeoutS > 0) {
        QTimer::singleShot(parsed->timeoutS * 1000, &loop, [&] {
            exitCode = context.fail(Error{ErrorCode::Timeout, QStringLiteral("No match within %1 s; stopped watching.").arg(parsed->timeoutS)});
            loop.quit();
        });
    }
    loop.exec();
    ticker.stop();
    if (exitCode != ExitOk || !handoff)
        return exitCode;
    return handOver(context, *workspace.get(), handoff->second, handoff->first.provider);
}

const Registrar watchCapacityRegistrar(Command{
    .name = "watch-capacity",
    .summary = "wait until a GPU is free under a price, then tell, or rent it (--launch) and save its host",
    .options = {
        {.name = "gpu", .value = "MODEL", .help = "the GPU model (H100, \"H100 SXM\", RTX 4090…); required"},
        {.name = "count", .value = "N", .help = "at least N GPUs in one machine"},
        {.name = "max-price", .value = "USD", .help = "at most USD per GPU-hour"},
        {.name = "regions", .value = "R1,R2", .help = "only these regions"},
        {.name = "providers", .value = "P1,P2", .help = "only these providers (default: every one with an API key)"},
        {.name = "endpoint", .value = "URL", .help = "the API base URL of the one provider in --providers (a proxy, an emulator)"},
        {.name = "launch", .help = "rent the first match (needs --ssh-key)"},
        {.name = "ssh-key", .value = "NAME", .help = "with --launch: the provider's SSH key the machine accepts"},
        {.name = "fallback", .value = "TYPE", .help = "with --launch: try these types when the match is gone (repeatable; or a comma list)",
         .repeatable = true},
        {.name = "name", .value = "NAME", .help = "with --launch: the instance's name"},
        {.name = "keep-watching", .help = "report (or rent) every match, not only the first"},
        {.name = "poll", .value = "SECONDS", .help = "seconds between polls (default: each provider's own)"},
        {.name = "timeout", .value = "SECONDS", .help = "give up after SECONDS (default: never)"},
    },
    .run = watchCapacityCommand,
});

} // namespace
} // namespace gantry::cli
