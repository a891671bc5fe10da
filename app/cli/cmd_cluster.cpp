// gantry-cli cluster: N machines as one. This file: launch, add, list, show, stop, terminate,
// remove; jobs and `check` are in cmd_cluster_jobs.cpp.
#include "cmd_cluster.h"

#include "cliworkspace.h"
#include "cmd_provider_common.h"

#include "core/cluster/lifecycle.h"
#include "core/cluster/wiring.h"
#include "core/hosts/hoststore.h"
#include "core/providers/await.h"
#include "core/providers/providerhub.h"
#include "core/util/printable.h"
#include "core/workspace/workspace.h"

#include <QEventLoop>
#include <QJsonArray>

namespace gantry::cli {
namespace clustercli {

using namespace providercli;

Result<cluster::Cluster> loadCluster(const Context &context, const QString &name)
{
    cluster::ClusterStore store(context.configDir);
    if (Result<void> loaded = store.load(); !loaded)
        return loaded.error();
    if (std::optional<cluster::Cluster> found = store.find(name))
        return *found;
    return makeError(ErrorCode::NotFound, QStringLiteral("no cluster named \"%1\" (gantry-cli cluster list)").arg(name));
}

Result<void> saveCluster(const Context &context, const cluster::Cluster &cluster)
{
    cluster::ClusterStore store(context.configDir);
    if (Result<void> loaded = store.load(); !loaded)
        return loaded;
    return store.find(cluster.name) ? store.update(cluster) : store.add(cluster);
}

cluster::NodeConnector connector(const Context &context, const HostOptions &options)
{
    return [&context, options](const cluster::ClusterNode &node, int rank) -> Result<std::unique_ptr<ssh::Session>> {
        if (node.hostName.isEmpty())
            return makeError(ErrorCode::ConnectFailed, QStringLiteral("rank %1 (%2) has no SSH address yet: is it still booting? "
                                                                   "(gantry-cli cluster show shows its state)").arg(rank).arg(node.instanceId));
        Result<std::unique_ptr<ssh::Session>> session = connectHost(context, node.hostName, options);
        if (!session)
            return Error{session.error().code, QStringLiteral("rank %1 (%2): %3").arg(rank).arg(node.hostName, session.error().message)};
        return session;
    };
}

} // namespace clustercli

namespace {

using namespace providercli;
using namespace clustercli;

QJsonObject clusterJson(const cluster::Cluster &c, const QHash<QString, providers::Instance> &states)
{
    QJsonArray nodes;
    for (int rank = 0; rank < c.nodes.size(); ++rank) {
        const cluster::ClusterNode &node = c.nodes[rank];
        const auto state = states.constFind(node.instanceId);
        nodes.append(QJsonObject{{QStringLiteral("rank"), rank}, {QStringLiteral("host"), node.hostName},
                                 {QStringLiteral("provider"), node.provider}, {QStringLiteral("instance_id"), node.instanceId},
                                 {QStringLiteral("address"), node.address}, {QStringLiteral("private_address"), node.privateAddress},
                                 {QStringLiteral("region"), node.region}, {QStringLiteral("price_per_hour"), node.pricePerHour},
                                 {QStringLiteral("state"), node.provider.isEmpty() ? QStringLiteral("saved-host")
                                                           : state == states.cend() ? QStringLiteral("unknown")
                                                                                    : providers::instanceStateName(state->state)}});
    }
    QJsonObject o{{QStringLiteral("name"), c.name}, {QStringLiteral("provider"), c.provider}, {QStringLiteral("type"), c.typeName},
                  {QStringLiteral("region"), c.region}, {QStringLiteral("gpus_per_node"), c.gpusPerNode},
                  {QStringLiteral("master_addr"), cluster::masterAddress(c)}, {QStringLiteral("nodes"), nodes},
                  {QStringLiteral("price_per_hour"), c.pricePerHour()},
                  {QStringLiteral("created"), c.created.toString(Qt::ISODate)},
                  {QStringLiteral("running_seconds"), c.created.isValid() ? c.created.secsTo(QDateTime::currentDateTimeUtc()) : 0}};
    if (c.lastJob)
        o.insert(QStringLiteral("last_job"), QJsonObject{{QStringLiteral("name"), c.lastJob->name}, {QStringLiteral("kind"), c.lastJob->kind}});
    return o;
}

Result<providers::InstanceType> findType(providers::Provider *provider, const QString &name)
{
    Result<QList<providers::InstanceType>> types = providers::await<QList<providers::InstanceType>>([&](auto done) { provider->listInstanceTypes(done); });
    if (!types)
        return types.error();
    for (const providers::InstanceType &type : std::as_const(*types)) {
        if (type.name == name)
            return type;
    }
    return makeError(ErrorCode::Usage, QStringLiteral("%1 has no instance type \"%2\" (gantry-cli types --provider %3)")
                                           .arg(provider->info().displayName, name, provider->info().id));
}

void printLaunch(Context &context, const cluster::ClusterLaunchOutcome &outcome, int wanted)
{
    for (const QString &warning : outcome.warnings)
        context.warn(warning);
    for (const QString &failure : outcome.failures)
        context.warn(failure);
    const cluster::Cluster &c = outcome.cluster;
    if (context.json) {
        QJsonObject o = clusterJson(c, {});
        o.insert(QStringLiteral("failures"), QJsonArray::fromStringList(outcome.failures));
        o.insert(QStringLiteral("terminated"), QJsonArray::fromStringList(outcome.terminated));
        context.printJson(o);
        return;
    }
    if (outcome.partial() && !outcome.terminated.isEmpty()) {
        context.err << QStringLiteral("gantry-cli: only %1 of %2 nodes came up; terminated the ones that did (%3) so nothing bills for "
                                   "a cluster that cannot run. Try another region or type (gantry-cli types --available), or "
                                   "--on-partial keep.").arg(wanted - outcome.failures.size()).arg(wanted)
                           .arg(outcome.terminated.join(QStringLiteral(", "))) << Qt::endl;
    } else if (outcome.partial()) {
        context.err << QStringLiteral("gantry-cli: only %1 of %2 nodes came up; kept them as cluster %3 (--on-partial keep): they bill.")
                           .arg(c.nodes.size()).arg(wanted).arg(c.name) << Qt::endl;
    }
    if (!c.nodes.isEmpty())
        context.out << QStringLiteral("Cluster %1: %2 node(s), $%3/h in total. Check it: gantry-cli cluster check %1")
                           .arg(c.name).arg(c.nodes.size()).arg(c.pricePerHour(), 0, 'f', 2) << Qt::endl;
}

Result<cluster::ClusterLaunchRequest> launchRequest(const Args &args)
{
    cluster::ClusterLaunchRequest request;
    request.base.typeName = args.value("type");
    request.base.region = args.value("region");
    request.base.sshKeyName = args.value("ssh-key");
    request.base.image = args.value("image");
    bool ok = false;
    request.nodes = args.value("nodes").toInt(&ok);
    if (!ok || request.nodes < 1 || request.nodes > 256)
        return makeError(ErrorCode::Usage, QStringLiteral("cluster launch needs --nodes N (1 to 256)"));
    const QString onPartial = args.value("on-partial", QStringLiteral("terminate"));
    if (onPartial != u"terminate" && onPartial != u"keep")
        return makeError(ErrorCode::Usage, QStringLiteral("--on-partial is terminate or keep"));
    request.keepPartial = onPartial == u"keep";
    request.wait = args.has("wait");
    const QString timeout = args.value("timeout");
    request.timeoutMs = (timeout.isEmpty() ? 900 : std::max(1, timeout.toInt())) * 1000;
    if (request.base.typeName.isEmpty())
        return makeError(ErrorCode::Usage, QStringLiteral("cluster launch needs --type (gantry-cli types)"));
    request.name = args.arg("NAME");
    return request;
}

int launchCommand(Context &context, const Args &args)
{
    const ProviderOptions options{args.provider().provider, args.provider().endpoint};
    Result<cluster::ClusterLaunchRequest> parsed = launchRequest(args);
    if (!parsed)
        return context.fail(parsed.error());
    cluster::ClusterLaunchRequest request = *parsed;
    if (Result<void> valid = cluster::validateClusterName(request.name); !valid)
        return context.fail(valid.error());
    if (loadCluster(context, request.name))
        return context.usage(QStringLiteral("a cluster named \"%1\" exists already").arg(request.name));
    ProviderEnv env = makeProviderEnv(context, options);
    request.provider = options.provider.isEmpty() ? providers::defaultProviderId(env.settings) : options.provider;
    CliWorkspace workspace(context, env, {request.provider});
    providers::Provider *provider = workspace.hub()->provider(request.provider);
    if (!provider)
        return context.fail(Error{ErrorCode::Usage, workspace.errors().value(0)});
    const providers::ProviderInfo info = provider->info();
    if (request.base.region.isEmpty())
        request.base.region = info.defaultRegion;
    if (request.base.region.isEmpty() && info.launchNeedsRegion)
        return context.usage(QStringLiteral("cluster launch needs --region: every node goes into the same one"));
    if (request.base.sshKeyName.isEmpty() && info.launchNeedsSshKey)
        return context.usage(QStringLiteral("cluster launch needs --ssh-key NAME (gantry-cli keys list --provider %1)").arg(request.provider));
    Result<providers::InstanceType> type = findType(provider, request.base.typeName);
    if (!type)
        return failProvider(context, type.error());
    request.pricePerHour = providers::launchPricePerHour(info, *type, request.base.gpuCount);
    request.gpusPerNode = type->gpuCount;
    cluster::ClusterLifecycle lifecycle(workspace.get());
    QObject::connect(&lifecycle, &cluster::ClusterLifecycle::progress, [&context](const QString &m) {
        if (!context.json)
            context.err << m << Qt::endl;
    });
    // Saved as soon as the ids are known (an interrupted wait still leaves the cluster on record), and at the end.
    Result<cluster::ClusterLaunchOutcome> outcome = providers::await<cluster::ClusterLaunchOutcome>(
        [&](auto done) { lifecycle.launch(request, done); }, request.timeoutMs + 600000);
    if (!outcome)
        return failProvider(context, outcome.error());
    printLaunch(context, *outcome, request.nodes);
    return outcome->partial() ? ExitProvider : ExitOk;
}

int addCommand(Context &context, const Args &args)
{
    Result<cluster::Cluster> added = cluster::addClusterOfSavedHosts(context.configDir, args.arg("NAME"), args.list("HOST"),
                                                                     args.value("master-addr"));
    if (!added && added.error().code == ErrorCode::NotFound) // a host that is not saved: a usage error, with the way to save it
        return context.usage(added.error().message + QStringLiteral(" (gantry-cli hosts add NAME [user@]host[:port])"));
    if (!added)
        return context.fail(added.error());
    const cluster::Cluster &c = *added;
    if (context.json)
        context.printJson(clusterJson(c, {}));
    else
        context.out << QStringLiteral("Cluster %1: %2 node(s), head %3. Check it: gantry-cli cluster check %1")
                           .arg(c.name).arg(c.nodes.size()).arg(c.nodes.first().hostName) << Qt::endl;
    return ExitOk;
}

int listCommand(Context &context, const Args &)
{
    cluster::ClusterStore store(context.configDir);
    if (Result<void> loaded = store.load(); !loaded)
        return context.fail(loaded.error());
    if (context.json) {
        QJsonArray array;
        for (const cluster::Cluster &c : store.clusters())
            array.append(clusterJson(c, {}));
        context.printJson(QJsonObject{{QStringLiteral("clusters"), array}});
        return ExitOk;
    }
    if (store.clusters().isEmpty()) {
        context.out << QStringLiteral("No clusters. Launch one: gantry-cli cluster launch NAME --provider sandbox --type sandbox-cpu --nodes 2 --wait")
                    << Qt::endl;
        return ExitOk;
    }
    for (const cluster::Cluster &c : store.clusters()) {
        context.out << QStringLiteral("%1 %2 %3 $%4/h  %5\n")
                           .arg(c.name.leftJustified(20), QStringLiteral("%1 node(s)").arg(c.nodes.size()).leftJustified(10),
                                text::printable(c.provider.isEmpty() ? QStringLiteral("saved hosts") : c.provider + u' ' + c.typeName).leftJustified(30))
                           .arg(c.pricePerHour(), 0, 'f', 2)
                           .arg(text::printable(cluster::masterAddress(c)));
    }
    context.out.flush();
    return ExitOk;
}

int showCommand(Context &context, const Args &args)
{
    Result<cluster::Cluster> c = loadCluster(context, args.arg("NAME"));
    if (!c)
        return context.fail(c.error());
    QHash<QString, providers::Instance> states;
    if (!c->provider.isEmpty()) {
        ProviderEnv env = makeProviderEnv(context, ProviderOptions{c->provider, {}});
        CliWorkspace workspace(context, env, {c->provider});
        cluster::ClusterLauncher launcher(workspace.get());
        QEventLoop loop;
        launcher.refresh(*c, [&](Result<cluster::Cluster> updated, QHash<QString, providers::Instance> found) {
            if (updated && !(*updated == *c)) {
                *c = *updated;
                if (Result<void> saved = saveCluster(context, *c); !saved)
                    context.warn(saved.error().message);
            } else if (!updated) {
                context.warn(updated.error().message);
            }
            states = found;
            loop.quit();
        });
        loop.exec();
    }
    const QJsonObject o = clusterJson(*c, states);
    if (context.json) {
        context.printJson(o);
        return ExitOk;
    }
    context.out << QStringLiteral("Cluster %1: %2 node(s), $%3/h, rendezvous at %4").arg(c->name).arg(c->nodes.size())
                       .arg(c->pricePerHour(), 0, 'f', 2).arg(text::printable(cluster::masterAddress(*c))) << '\n';
    for (const QJsonValue &value : o.value(QLatin1String("nodes")).toArray()) {
        const QJsonObject node = value.toObject();
        context.out << QStringLiteral("  rank %1  %2 %3 %4 %5\n")
                           .arg(node.value(QLatin1String("rank")).toInt())
                           .arg(text::printable(node.value(QLatin1String("host")).toString()).leftJustified(20),
                                node.value(QLatin1String("state")).toString().leftJustified(11),
                                text::printable(node.value(QLatin1String("address")).toString()).leftJustified(16),
                                text::printable(node.value(QLatin1String("instance_id")).toString()));
    }
    if (c->lastJob)
        context.out << QStringLiteral("Last job: %1 (%2); gantry-cli cluster status %3").arg(c->lastJob->name, c->lastJob->kind, c->name) << '\n';
    context.out.flush();
    return ExitOk;
}

// stop / terminate every node that is a provider instance, all at once, through the Workspace.
int lifecycleCommand(Context &context, const Args &args, workspace::InstanceAction action)
{
    const bool yes = args.has("yes");
    workspace::ActionOptions options;
    options.resultsAcknowledged = args.has("without-results");
    const QString verb = workspace::instanceActionName(action);
    Result<cluster::Cluster> c = loadCluster(context, args.arg("NAME"));
    if (!c)
        return context.fail(c.error());
    if (action == workspace::InstanceAction::Terminate && !yes)
        return context.usage(QStringLiteral("Terminating cluster %1 destroys its %2 node(s) and their local disks. Re-run with --yes.")
                                 .arg(c->name).arg(c->nodes.size()));
    ProviderEnv env = makeProviderEnv(context, ProviderOptions{c->provider, {}});
    CliWorkspace workspace(context, env, c->provider.isEmpty() ? QStringList{} : QStringList{c->provider});
    cluster::ClusterLifecycle lifecycle(workspace.get());
    Result<cluster::ClusterActionOutcome> outcome = providers::await<cluster::ClusterActionOutcome>(
        [&](auto done) { lifecycle.act(action, c->name, options, done); });
    if (!outcome)
        return context.fail(outcome.error());
    for (const QString &warning : std::as_const(outcome->warnings))
        context.warn(warning);
    for (const QString &failure : std::as_const(outcome->failures))
        context.warn(failure);
    if (!context.json) {
        for (const QString &line : std::as_const(outcome->done))
            context.out << line << Qt::endl;
    }
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("cluster"), c->name}, {QStringLiteral("action"), verb},
                                      {QStringLiteral("failures"), int(outcome->failures.size())},
                                      {QStringLiteral("kept"), outcome->kept}, {QStringLiteral("removed"), outcome->forgotten}});
    return outcome->failures.isEmpty() ? ExitOk : ExitProvider;
}

int removeCommand(Context &context, const Args &args)
{
    cluster::ClusterStore store(context.configDir);
    if (Result<void> loaded = store.load(); !loaded)
        return context.fail(loaded.error());
    if (Result<void> removed = store.remove(args.arg("NAME")); !removed)
        return context.fail(removed.error());
    if (!context.json)
        context.out << QStringLiteral("Forgot cluster %1; its machines are untouched.").arg(args.arg("NAME")) << Qt::endl;
    return ExitOk;
}

const Argument kName{"NAME"};

std::vector<Option> lifecycleOptions(bool terminate)
{
    std::vector<Option> options{{.name = "without-results", .help = "do not download the machines' result paths first"}};
    options.push_back({.name = "yes", .help = terminate ? "confirm: the nodes and their local disks are destroyed" : "do not ask"});
    return options;
}

std::vector<Command> clusterSubcommands()
{
    std::vector<Command> subs{
        {.name = "launch",
         .summary = "launch N nodes of one type in one region as cluster NAME",
         .options = {{.name = "type", .value = "TYPE", .help = "the instance type of every node (gantry-cli types)"},
                     {.name = "region", .value = "REGION", .help = "the region every node goes into"},
                     {.name = "nodes", .value = "N", .help = "how many nodes, 1 to 256"},
                     {.name = "ssh-key", .value = "NAME", .help = "the provider's SSH key the nodes accept (gantry-cli keys list)"},
                     {.name = "image", .value = "IMAGE", .help = "the image to boot (default: the provider's)"},
                     {.name = "wait", .help = "wait until every node is up and its host saved"},
                     {.name = "timeout", .value = "SECONDS", .help = "with --wait: give up after SECONDS (default 900)"},
                     {.name = "on-partial", .value = "WHAT", .help = "when not every node comes up: terminate (default) or keep the others",
                      .choices = "terminate|keep"}},
         .arguments = {kName},
         .groups = Provider,
         .run = launchCommand},
        {.name = "add",
         .summary = "make cluster NAME of saved hosts (the first is rank 0)",
         .options = {{.name = "master-addr", .value = "ADDR", .help = "the address the ranks meet at (default: rank 0's private address)"}},
         .arguments = {kName, {"HOST", Argument::OneOrMore, Complete::Host}},
         .run = addCommand},
        {.name = "list", .summary = "every cluster: nodes, provider and type, $/h, rendezvous address", .run = listCommand},
        {.name = "show", .summary = "one cluster's nodes with their state at the provider", .arguments = {kName}, .run = showCommand},
    };
    for (Command &sub : jobSubcommands())
        subs.push_back(std::move(sub));
    subs.push_back({.name = "stop",
                    .summary = "stop every node that can be stopped (compute billing ends; disks may still bill)",
                    .options = lifecycleOptions(false),
                    .arguments = {kName},
                    .run = [](Context &c, const Args &a) { return lifecycleCommand(c, a, workspace::InstanceAction::Stop); }});
    subs.push_back({.name = "terminate",
                    .summary = "terminate every node (their result paths are downloaded first); a node that fails stays on record",
                    .options = lifecycleOptions(true),
                    .arguments = {kName},
                    .run = [](Context &c, const Args &a) { return lifecycleCommand(c, a, workspace::InstanceAction::Terminate); }});
    subs.push_back({.name = "remove", .summary = "forget cluster NAME; its machines are left as they are", .arguments = {kName},
                    .run = removeCommand});
    return subs;
}

const Registrar registrar(Command{
    .name = "cluster",
    .summary = "N machines as one: launch or gather them, check them, run and follow jobs on every rank",
    .subcommands = clusterSubcommands(),
});

} // namespace
} // namespace gantry::cli
