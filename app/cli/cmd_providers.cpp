// Cloud provider commands: instances, launch, stop/start/restart, terminate, providers,
// provider-key. Every call goes through the same asynchronous providers the GUI uses.
#include "cliworkspace.h"
#include "cmd_accept.h"
#include "cmd_provider_common.h"

#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/providers/await.h"
#include "core/providers/keychoice.h"
#include "core/providers/launchfailure.h"
#include "core/providers/launchtypes.h"
#include "core/providers/pricegroups.h"
#include "core/providers/providerhub.h"
#include "core/util/appsettings.h"
#include "core/util/paths.h"
#include "core/util/printable.h"
#include "core/workspace/workspace.h"

#include <QFile>
#include <QJsonArray>
#include <QTextStream>

namespace gantry::cli {
namespace {

using namespace providercli;
using providers::await;

QJsonObject instanceJson(const providers::Instance &instance)
{
    return QJsonObject{{QStringLiteral("provider"), instance.provider}, {QStringLiteral("id"), instance.id},
                       {QStringLiteral("name"), instance.name}, {QStringLiteral("type"), instance.typeName},
                       {QStringLiteral("region"), instance.region},
                       {QStringLiteral("state"), providers::instanceStateName(instance.state)},
                       {QStringLiteral("provider_status"), instance.providerStatus},
                       {QStringLiteral("ssh_host"), instance.sshHost}, {QStringLiteral("ssh_port"), instance.sshPort},
                       {QStringLiteral("ssh_user"), instance.sshUser}, {QStringLiteral("price_per_hour"), instance.pricePerHour},
                       {QStringLiteral("volume_gb"), instance.volumeGb}};
}

Result<std::unique_ptr<providers::Provider>> makeProvider(const ProviderEnv &env, const QString &id)
{
    return providers::createProvider(id, env.settings);
}

// The ledger is best effort for commands whose main job is elsewhere: a broken ledger is reported
// on stderr but never blocks stopping or terminating an instance.
std::unique_ptr<cost::Ledger> openLedger(const Context &context)
{
    auto ledger = std::make_unique<cost::Ledger>(cost::Ledger::defaultPath(context.configDir));
    if (Result<void> opened = ledger->open(); !opened) {
        context.warn(opened.error().message);
        return nullptr;
    }
    return ledger;
}

void noteLedger(const Context &context, const Result<void> &result)
{
    if (!result)
        context.warn(result.error().message);
}

// --- instances ---------------------------------------------------------------------------------

int instancesCommand(Context &context, const Args &args)
{
    const ProviderOptions options = providerOptions(args);
    ProviderEnv env = makeProviderEnv(context, options);
    std::unique_ptr<cost::Ledger> ledger = openLedger(context);
    QJsonArray array;
    QJsonArray errors;
    Error lastError;
    QList<providers::Instance> all;
    for (const QString &id : providersToQuery(options, env)) {
        Result<std::unique_ptr<providers::Provider>> provider = makeProvider(env, id);
        const QDateTime listedAt = ledger ? ledger->clock().now() : QDateTime();
        Result<QList<providers::Instance>> list = provider
            ? await<QList<providers::Instance>>([&](auto done) { (*provider)->listInstances(done); })
            : Result<QList<providers::Instance>>(provider.error());
        if (!list) {
            lastError = list.error();
            errors.append(QJsonObject{{QStringLiteral("provider"), id}, {QStringLiteral("error"), list.error().message}});
            if (!context.json)
                context.warn(list.error().message);
            continue;
        }
        if (ledger) {
            ledger->setBillingPolicy(id, cost::billingPolicyFor((*provider)->info()));
            noteLedger(context, ledger->reconcile(id, *list, listedAt));
        }
        all.append(*list);
    }
    if (context.json) {
        for (const providers::Instance &instance : std::as_const(all)) {
            QJsonObject object = instanceJson(instance);
            if (ledger) {
                if (Result<cost::LedgerEntry> entry = ledger->entry(instance.provider, instance.id)) {
                    object.insert(QStringLiteral("cost_so_far"), entry->costSoFar()); // compute + stopped disk
                    object.insert(QStringLiteral("storage_cost_so_far"), entry->storageCost);
                }
            }
            array.append(object);
        }
        context.printJson(QJsonObject{{QStringLiteral("instances"), array}, {QStringLiteral("errors"), errors}});
    } else if (all.isEmpty() && errors.isEmpty()) {
        context.out << QStringLiteral("No instances. Launch one: gantry-cli launch --provider sandbox --type sandbox-cpu --region local --wait") << Qt::endl;
    } else {
        for (const providers::Instance &instance : std::as_const(all)) {
            const QString ssh = instance.sshHost.isEmpty() ? QStringLiteral("-")
                                                            : QStringLiteral("%1@%2:%3").arg(instance.sshUser, instance.sshHost).arg(instance.sshPort);
            // Every field comes from the provider's reply: no terminal escapes get through.
            QString costText;
            if (ledger) {
                if (Result<cost::LedgerEntry> entry = ledger->entry(instance.provider, instance.id))
                    costText = cost::formatUsd(entry->costSoFar());
            }
            context.out << QStringLiteral("%1 %2 %3 %4 %5 %6 $%7/h %8")
                               .arg(text::printable(instance.provider).leftJustified(8), text::printable(instance.id).leftJustified(32),
                                    text::printable(instance.name).leftJustified(16), text::printable(instance.typeName).leftJustified(24),
                                    providers::instanceStateName(instance.state).leftJustified(11), text::printable(ssh).leftJustified(28))
                               .arg(instance.pricePerHour, 0, 'f', 2)
                               .arg(costText)
                        << '\n';
        }
        context.out.flush();
    }
    return errors.isEmpty() ? ExitOk : providerExitCode(lastError);
}

// --- launch ------------------------------------------------------------------------------------

struct LaunchArgs
{
    providers::LaunchRequest request;
    int timeoutS = 900;
    bool wait = false;
    bool accept = false;       // the acceptance test once it is up (--accept, or accept.after_launch run)
    bool returnOnFail = false;
};

Result<LaunchArgs> launchArgs(const Args &args)
{
    LaunchArgs parsed;
    providers::LaunchRequest &request = parsed.request;
    request.typeName = args.value("type");
    request.region = args.value("region");
    request.sshKeyName = args.value("ssh-key");
    request.name = args.value("name");
    request.image = args.value("image");
    request.bidPerHour = args.value("bid", QStringLiteral("0")).toDouble(); // Vast: interruptible at this $/h
    // --volume NAME attaches a provider volume (gantry-cli volumes list); a bare number keeps its
    // older meaning, a volume disk of that many GB.
    const QString volume = args.value("volume");
    bool sized = false;
    const int volumeGb = volume.toInt(&sized);
    if (sized)
        request.volumeGb = volumeGb;
    else if (!volume.isEmpty())
        request.filesystemNames = QStringList{volume};
    request.gpuCount = std::max(1, args.value("gpus", QStringLiteral("1")).toInt());
    parsed.wait = args.has("wait");
    parsed.accept = args.has("accept");
    parsed.returnOnFail = args.has("return-on-fail");
    if ((parsed.accept || parsed.returnOnFail) && !parsed.wait)
        return Error{ErrorCode::Usage, QStringLiteral("--accept and --return-on-fail need --wait: the test runs once the instance is up")};
    if (parsed.returnOnFail && !parsed.accept)
        return Error{ErrorCode::Usage, QStringLiteral("--return-on-fail goes with --accept")};
    if (const QString timeout = args.value("timeout"); !timeout.isEmpty())
        parsed.timeoutS = timeout.toInt();
    return parsed;
}

// What the provider needs besides the type, filled from its defaults or asked for.
Result<void> completeLaunchRequest(providers::LaunchRequest &request, const providers::ProviderInfo &info, const QString &providerId)
{
    if (request.region.isEmpty())
        request.region = info.defaultRegion;
    if (request.region.isEmpty() && info.launchNeedsRegion)
        return Error{ErrorCode::Usage, QStringLiteral("launch needs --region (gantry-cli types --available shows where there is capacity)")};
    if (request.sshKeyName.isEmpty() && info.launchNeedsSshKey)
        return Error{ErrorCode::Usage, QStringLiteral("launch needs --ssh-key NAME (gantry-cli keys list --provider %1)").arg(providerId)};
    return {};
}

// The GUI's key choice: without --ssh-key, where the provider needs one, the most preferred account
// key whose private half is on this computer; a key without one is refused when chosen for the
// user and warned about when named (it may live in an agent or on another computer). Answers the
// private key the saved host logs in with (empty when unknown).
Result<QString> chooseLaunchKey(const Context &context, providers::Provider &provider, providers::LaunchRequest &request)
{
    const providers::ProviderInfo info = provider.info();
    Result<QList<providers::SshKey>> keys = await<QList<providers::SshKey>>([&](auto done) { provider.listSshKeys(done); });
    if (!keys)
        return QString(); // the launch itself says what is wrong with the account
    const providers::KeyChoice choice = providers::chooseKey(*keys, providers::localKeyPairs(context.configDir, paths::userSshDir()));
    const QString none = QStringLiteral("none of %1's SSH keys has its private half on this computer, so nothing here could log "
                                        "into the instance. Upload one: gantry-cli keys add --provider %2 NAME ~/.ssh/id_ed25519.pub, "
                                        "or gantry-cli keys generate NAME --provider %2").arg(info.displayName, info.id);
    if (request.sshKeyName.isEmpty()) {
        if (choice.preferred >= 0) {
            const providers::KeyOption &option = choice.options.at(choice.preferred);
            if (info.launchNeedsSshKey) {
                request.sshKeyName = option.key.name.isEmpty() ? option.key.id : option.key.name;
                context.warn(QStringLiteral("using SSH key \"%1\" (private key %2)").arg(text::printable(request.sshKeyName), option.privateKeyPath));
            }
            return option.privateKeyPath;
        }
        if (info.launchNeedsSshKey && !choice.options.isEmpty())
            return Error{ErrorCode::Usage, QStringLiteral("launch needs --ssh-key NAME, and ") + none};
        if (!choice.options.isEmpty())
            context.warn(none.at(0).toUpper() + none.mid(1));
        return QString();
    }
    const providers::KeyOption *named = providers::findKeyOption(choice, request.sshKeyName);
    if (named && !named->usable())
        context.warn(QStringLiteral("SSH key \"%1\" has no private half on this computer: the instance will only let in a computer "
                                    "that has it, and Gantry cannot connect to it.").arg(text::printable(request.sshKeyName)));
    return named ? named->privateKeyPath : QString();
}

// A marketplace offer someone else rented: the error, with the equivalent offers to launch instead
// (same GPU and count, rentable now, cheapest first), in text and in --json.
int failTakenOffer(Context &context, providers::Provider &provider, const providers::InstanceType &taken, const Error &error)
{
    Result<QList<providers::InstanceType>> offers = await<QList<providers::InstanceType>>([&](auto done) { provider.listInstanceTypes(done); });
    const QList<providers::InstanceType> same = offers ? providers::equivalentOffers(*offers, taken, {taken.name}) : QList<providers::InstanceType>{};
    if (same.isEmpty())
        return failProvider(context, error);
    QJsonArray alternatives;
    QString lines;
    for (const providers::InstanceType &offer : same) {
        const providers::Region region = offer.regionsWithCapacity.value(0);
        const QString where = region.description.isEmpty() ? region.name : region.description;
        alternatives.append(QJsonObject{{QStringLiteral("type"), offer.name}, {QStringLiteral("gpu"), offer.gpuModel},
                                        {QStringLiteral("gpus"), offer.gpuCount}, {QStringLiteral("price_per_hour"), offer.pricePerHour},
                                        {QStringLiteral("region"), where}});
        lines += QStringLiteral("\n  %1  %2x %3  $%4/h  %5").arg(text::printable(offer.name)).arg(offer.gpuCount)
                     .arg(text::printable(offer.gpuModel)).arg(offer.pricePerHour, 0, 'f', 2).arg(text::printable(where));
    }
    const QString message = QStringLiteral("%1\nEquivalent offers (same GPU and count, cheapest first):%2\nLaunch one with "
                                           "gantry-cli launch --provider %3 --type OFFER")
                                .arg(error.message, lines, provider.info().id);
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("error"), error.message}, {QStringLiteral("alternatives"), alternatives}});
    context.err << "gantry-cli: " << text::printableLines(message) << Qt::endl;
    return providerExitCode(error);
}

// --wait: until the instance is up, then its saved host (the workspace saves it).
int waitForLaunched(Context &context, workspace::Workspace &workspace, const QString &providerId, const QString &id, int timeoutS,
                    const QString &identityFile, QString *hostName)
{
    workspace::FollowOptions follow;
    follow.identityFile = identityFile;
    follow.timeoutMs = timeoutS * 1000;
    follow.neverUpNote = QStringLiteral("never became active");
    Result<workspace::ReadyInstance> ready = await<workspace::ReadyInstance>(
        [&](auto done) { workspace.follow(providerId, id, follow, done); }, timeoutS * 1000 + 60000);
    if (!ready)
        return failProvider(context, ready.error()); // a hostile address is refused there: none of it is printed
    for (const QString &warning : std::as_const(ready->warnings))
        context.warn(warning);
    const providers::Instance &up = ready->instance;
    *hostName = ready->hostName;
    if (context.json) {
        QJsonObject object = instanceJson(up);
        object.insert(QStringLiteral("host"), ready->hostName);
        context.printJson(object);
    } else {
        context.out << QStringLiteral("%1 is running: ssh -p %2 %3@%4   (saved as host \"%5\"; the first connection shows its host key)")
                           .arg(text::printable(id)).arg(up.sshPort).arg(text::printable(up.sshUser), text::printable(up.sshHost),
                                                                        text::printable(ready->hostName))
                    << Qt::endl;
    }
    return ExitOk;
}

int launchCommand(Context &context, const Args &args)
{
    const ProviderOptions options = providerOptions(args);
    Result<LaunchArgs> parsed = launchArgs(args);
    if (!parsed)
        return context.fail(parsed.error());
    providers::LaunchRequest &request = parsed->request;
    ProviderEnv env = makeProviderEnv(context, options);
    const QString providerId = options.provider.isEmpty() ? providers::defaultProviderId(env.settings) : options.provider;
    if (request.typeName.isEmpty())
        return context.usage(QStringLiteral("launch needs --type (list them with gantry-cli types --provider %1)").arg(providerId));
    CliWorkspace workspace(context, env, {providerId});
    providers::Provider *provider = workspace.hub()->provider(providerId);
    if (!provider)
        return context.fail(Error{ErrorCode::Usage, workspace.errors().value(0)});
    const providers::ProviderInfo info = provider->info();
    Result<QString> identityFile = chooseLaunchKey(context, *provider, request);
    if (!identityFile)
        return context.usage(identityFile.error().message);
    if (Result<void> complete = completeLaunchRequest(request, info, providerId); !complete)
        return context.usage(complete.error().message);
    // The price at launch goes into the ledger; the type list also catches typos before launching.
    Result<QList<providers::InstanceType>> types = await<QList<providers::InstanceType>>([&](auto done) { provider->listInstanceTypes(done); });
    if (!types)
        return failProvider(context, types.error());
    // An exact type, or on a marketplace "GPUxN": the cheapest rentable offer, which is then what is rented.
    Result<providers::InstanceType> type = providers::resolveLaunchType(info, *types, request);
    if (!type)
        return type.error().code == ErrorCode::Usage ? context.usage(type.error().message) : failProvider(context, type.error());
    request.typeName = type->name;

    // The workspace's launch: a lost answer is looked up by its (unique) name and adopted, the
    // ledger row is written; the wait below is the same follow-up the GUI runs.
    workspace::LaunchOptions launchOptions;
    launchOptions.pricePerHour = request.bidPerHour > 0 ? request.bidPerHour : providers::launchPricePerHour(info, *type, request.gpuCount);
    launchOptions.follow = false;
    launchOptions.identityFile = *identityFile;
    Result<workspace::LaunchedInstance> launched = await<workspace::LaunchedInstance>(
        [&](auto done) { workspace.get()->launch(providerId, request, launchOptions, done); });
    if (!launched && provider->can(providers::Capability::Marketplace)
        && providers::classifyLaunchFailure(launched.error()) == providers::LaunchFailure::Capacity)
        return failTakenOffer(context, *provider, *type, launched.error());
    if (!launched)
        return failProvider(context, launched.error());
    if (launched->adopted)
        context.warn(launched->note);
    for (const QString &warning : std::as_const(launched->warnings))
        context.warn(warning);
    const QString id = launched->instanceId;
    const double price = launched->pricePerHour;
    if (!context.json)
        context.out << QStringLiteral("Launched %1 on %2 (%3, $%4/h).").arg(text::printable(id), providers::providerDisplayName(providerId), text::printable(request.typeName))
                           .arg(price, 0, 'f', 2) << Qt::endl;
    if (parsed->wait) {
        QString hostName;
        const int waited = waitForLaunched(context, *workspace.get(), providerId, id, parsed->timeoutS, *identityFile, &hostName);
        if (waited != ExitOk)
            return waited;
        // Keep it or give it back, as the window does after a launch (Settings → After a launch).
        const QString after = appsettings::value(context.configDir, QStringLiteral("accept.after_launch"));
        if (parsed->accept || after == QLatin1String("run"))
            return acceptHost(context, args, hostName, parsed->returnOnFail);
        if (after != QLatin1String("off") && !context.json)
            context.out << QStringLiteral("Keep it or give it back: gantry-cli accept %1 (--accept runs it after the launch).")
                               .arg(text::printable(hostName))
                        << Qt::endl;
        return ExitOk;
    }
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("provider"), providerId},
                                      {QStringLiteral("state"), QStringLiteral("booting")}, {QStringLiteral("price_per_hour"), price}});
    return ExitOk;
}

// --- stop / start / restart / terminate --------------------------------------------------------

// An instance id's provider: --provider, else the ledger's record of it, else the default.
QString providerForInstance(const Context &context, const ProviderOptions &options, const ProviderEnv &env, const QString &id)
{
    if (!options.provider.isEmpty())
        return options.provider;
    if (std::unique_ptr<cost::Ledger> ledger = openLedger(context)) {
        if (Result<QList<cost::LedgerEntry>> all = ledger->entries()) {
            for (const cost::LedgerEntry &entry : std::as_const(*all)) {
                if (entry.instanceId == id)
                    return entry.provider;
            }
        }
    }
    return providers::defaultProviderId(env.settings);
}

int lifecycleCommand(Context &context, const Args &args, const QString &verb)
{
    const ProviderOptions options = providerOptions(args);
    const bool yes = args.has("yes");
    workspace::ActionOptions actionOptions;
    actionOptions.resultsAcknowledged = args.has("without-results");
    const QString id = args.arg("ID");
    ProviderEnv env = makeProviderEnv(context, options);
    const QString providerId = providerForInstance(context, options, env, id);
    CliWorkspace workspace(context, env, {providerId});
    providers::Provider *provider = workspace.hub()->provider(providerId);
    if (!provider)
        return context.fail(Error{ErrorCode::Usage, workspace.errors().value(0)});
    const providers::ProviderInfo info = provider->info();

    if (verb == QLatin1String("terminate") && !yes) {
        QString keeps = provider->can(providers::Capability::Filesystems)
            ? QStringLiteral("Persistent filesystems/volumes are kept and keep billing storage until you delete them.")
            : QStringLiteral("Nothing keeps billing afterwards.");
        return context.fail(Error{ErrorCode::Usage,
                                  QStringLiteral("Terminating %1 on %2 destroys the instance and its local disk: everything not on a persistent "
                                              "filesystem or volume is lost for good. %3 Re-run with --yes to terminate.")
                                      .arg(id, info.displayName, keeps)});
    }
    if (verb == QLatin1String("stop") && !provider->can(providers::Capability::StopStart)) {
        return context.fail(Error{ErrorCode::Usage, QStringLiteral("%1 cannot stop instances; it bills until you terminate (gantry-cli terminate %2 --yes).")
                                                        .arg(info.displayName, id)});
    }
    // The same operation the GUI runs: results home first, ledger row, saved host forgotten.
    Result<workspace::ActionOutcome> done = await<workspace::ActionOutcome>([&](auto cb) {
        workspace.get()->act(*workspace::instanceActionFromName(verb), providerId, id, actionOptions, cb);
    }, 24 * 3600 * 1000);
    if (!done)
        return failProvider(context, done.error());
    for (const QString &warning : std::as_const(done->warnings))
        context.warn(warning);
    QString note;
    if (verb == QLatin1String("stop")) {
        // In the provider's own terms (its descriptor): what the stop lost and what still bills.
        const providers::StopTerms &terms = info.cost.stop;
        note = QStringLiteral("Compute billing stopped.");
        if (provider->can(providers::Capability::StorageBillsWhileStopped) && !terms.keptUnsized.isEmpty())
            note += QStringLiteral(" Kept, and still billing storage: %1.").arg(terms.keptUnsized);
        if (!terms.lost.isEmpty())
            note += QStringLiteral(" Lost: %1.").arg(terms.lost);
    }
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("provider"), providerId},
                                      {QStringLiteral("action"), verb}, {QStringLiteral("note"), note}});
    } else {
        context.out << QStringLiteral("%1: %2 requested on %3.").arg(text::printable(id), verb, info.displayName);
        if (!note.isEmpty())
            context.out << ' ' << note;
        context.out << Qt::endl;
    }
    return ExitOk;
}

// --- providers, provider-key ---------------------------------------------------------------------

int providersCommand(Context &context, const Args &)
{
    ProviderEnv env = makeProviderEnv(context, ProviderOptions{});
    const QString preferred = providers::defaultProviderId(env.settings);
    QJsonArray array;
    for (const QString &id : providers::knownProviderIds()) {
        QString keySource = QStringLiteral("none");
        if (!providers::providerNeedsApiKey(id)) {
            keySource = QStringLiteral("not needed");
        } else if (!qEnvironmentVariableIsEmpty(providers::apiKeyEnvName(id).toLatin1().constData())) {
            keySource = providers::apiKeyEnvName(id);
        } else if (Result<std::optional<QString>> stored = env.secrets->read(providers::apiKeySecretName(id)); stored && stored->has_value()) {
            keySource = secretsFileEnabled(context.configDir) ? QStringLiteral("file") : QStringLiteral("keychain");
        }
        const bool configured = keySource != QLatin1String("none");
        const QString endpoint = providers::endpointFor(id, env.settings);
        if (context.json) {
            array.append(QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("name"), providers::providerDisplayName(id)},
                                     {QStringLiteral("configured"), configured}, {QStringLiteral("key_source"), keySource},
                                     {QStringLiteral("endpoint"), endpoint}, {QStringLiteral("default"), id == preferred}});
        } else {
            context.out << QStringLiteral("%1 %2 %3 %4%5")
                               .arg(id.leftJustified(8), providers::providerDisplayName(id).leftJustified(14),
                                    (configured ? QStringLiteral("configured (key: %1)").arg(keySource) : QStringLiteral("no API key")).leftJustified(40),
                                    endpoint, id == preferred ? QStringLiteral("  [default]") : QString())
                        << '\n';
        }
    }
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("providers"), array}});
    context.out.flush();
    return ExitOk;
}

int providerKeyCommand(Context &context, const Args &args, bool set)
{
    // --store file: the user's consent to a private file where no keyring runs (never chosen silently).
    const std::optional<QString> store = args.optional("store");
    if (store && *store != QLatin1String("file"))
        return context.usage(QStringLiteral("--store takes one value: file (keys in a file only you can read, for a desktop without a keyring)"));
    const QString id = args.arg("PROVIDER");
    if (!providers::knownProviderIds().contains(id) || !providers::providerNeedsApiKey(id))
        return context.usage(QStringLiteral("provider-key is for %1").arg(providers::cloudProviderIds().join(QStringLiteral(", "))));
    std::unique_ptr<SecretStore> secrets = makeDesktopSecretStore(context.configDir);
    if (!set) {
        if (Result<void> removed = secrets->remove(providers::apiKeySecretName(id)); !removed)
            return context.fail(removed.error());
        context.out << QStringLiteral("Removed the %1 API key from the keychain.").arg(providers::providerDisplayName(id)) << Qt::endl;
        return ExitOk;
    }
    QTextStream in(stdin);
    const QString key = in.readLine().trimmed();
    if (key.isEmpty())
        return context.usage(QStringLiteral("no key on stdin (e.g. printf '%s' \"$KEY\" | gantry-cli provider-key set %1)").arg(id));
    if (store) {
        if (Result<void> enabled = enableSecretsFile(context.configDir); !enabled)
            return context.fail(enabled.error());
    }
    if (Result<void> written = secrets->write(providers::apiKeySecretName(id), key); !written)
        return context.fail(written.error());
    if (secretsFileEnabled(context.configDir))
        context.out << QStringLiteral("Stored the %1 API key in %2 (readable only by you).")
                           .arg(providers::providerDisplayName(id), secretsFilePath(context.configDir)) << Qt::endl;
    else
        context.out << QStringLiteral("Stored the %1 API key in the OS keychain.").arg(providers::providerDisplayName(id)) << Qt::endl;
    return ExitOk;
}

// stop, start, restart, terminate: ID, the provider options, --yes and --without-results.
Command lifecycle(const char *verb, const char *summary, const char *yes)
{
    return Command{
        .name = verb,
        .summary = summary,
        .options = {{.name = "yes", .help = yes}, {.name = "without-results", .help = "do not download the instance's result paths first"}},
        .arguments = {{"ID"}},
        .groups = Provider,
        .run = [verb](Context &c, const Args &a) { return lifecycleCommand(c, a, QString::fromUtf8(verb)); },
    };
}

const Registrar instancesRegistrar(Command{
    .name = "instances",
    .summary = "your cloud instances with their state, SSH address and cost so far",
    .groups = Provider,
    .run = instancesCommand,
});
const Registrar launchRegistrar(Command{
    .name = "launch",
    .summary = "start an instance (a lost answer is found by its name and adopted; the cost ledger gets its row)",
    .options = {{.name = "type", .value = "TYPE", .help = "the instance type (gantry-cli types); on Vast.ai an offer id, or GPUxN for the cheapest"},
                {.name = "region", .value = "REGION", .help = "where (gantry-cli types --available shows where there is capacity)"},
                {.name = "ssh-key", .value = "NAME", .help = "the provider's SSH key the instance accepts (gantry-cli keys list)"},
                {.name = "name", .value = "NAME", .help = "the instance's name (default: a unique one)"},
                {.name = "image", .value = "IMAGE", .help = "the image to boot (default: the provider's)"},
                {.name = "volume", .value = "NAME", .help = "attach the provider volume NAME (gantry-cli volumes list); a number N: a volume disk of N GB (RunPod, Vast.ai)"},
                {.name = "gpus", .value = "N", .help = "GPUs per instance where the type leaves it open (default 1)"},
                {.name = "bid", .value = "USD", .help = "Vast.ai: an interruptible instance at this $/h"},
                {.name = "wait", .help = "wait until it is running and reachable, then save it as a host"},
                {.name = "timeout", .value = "SECONDS", .help = "with --wait: give up after SECONDS (default 900)"},
                {.name = "accept", .help = "with --wait: run the acceptance test (gantry-cli accept) once it is up"},
                {.name = "return-on-fail", .help = "with --accept: terminate it when the acceptance test fails"}},
    .groups = Provider,
    .run = launchCommand,
});
const Registrar stopRegistrar(lifecycle("stop", "stop an instance: compute billing ends (a RunPod volume disk keeps billing)", "do not ask"));
const Registrar startRegistrar(lifecycle("start", "start a stopped instance", "do not ask"));
const Registrar restartRegistrar(lifecycle("restart", "reboot an instance", "do not ask"));
const Registrar terminateRegistrar(lifecycle("terminate", "destroy an instance and its local disk (its result paths are downloaded first)",
                                             "confirm: the instance and its local disk are destroyed"));
const Registrar providersRegistrar(Command{
    .name = "providers",
    .summary = "which providers are configured, where each key comes from (never the key), the endpoints",
    .run = providersCommand,
});

const Option kStore{.name = "store", .value = "file", .help = "keep the key in a file only you can read, where no keyring runs",
                    .choices = "file"};
const Argument kProviderId{"PROVIDER", Argument::One, Complete::Provider};

const Registrar providerKeyRegistrar(Command{
    .name = "provider-key",
    .summary = "store a provider's API key (read from stdin) in the keychain, or remove it",
    .subcommands = {
        {.name = "set", .summary = "read the key from stdin and store it", .options = {kStore}, .arguments = {kProviderId},
         .run = [](Context &c, const Args &a) { return providerKeyCommand(c, a, true); }},
        {.name = "remove", .summary = "remove the stored key", .arguments = {kProviderId},
         .run = [](Context &c, const Args &a) { return providerKeyCommand(c, a, false); }},
    },
});

} // namespace
} // namespace gantry::cli
