// SPDX-License-Identifier: Apache-2.0
// gantry-cli volumes list|create|delete: volumes at the providers (RunPod network volumes, Lambda
// filesystems, Shadeform and Vast.ai volumes). The cost ledger opens a row for each volume it sees
// or creates and closes it on delete: a volume bills its $/GB-month for as long as it exists.
#include "cmd_provider_common.h"
#include "interruptscope.h"
#include "core/cost/ledger.h"
#include "core/workspace/volumeops.h"
#include "core/providers/await.h"
#include "core/providers/providerdescriptor.h"
#include "core/providers/volumes.h"
#include "core/util/printable.h"

#include <QJsonArray>

#include <cstdio>
#include <unistd.h>

namespace gantry::cli {
namespace {

using namespace providercli;
using providers::await;

QJsonObject volumeJson(const providers::Filesystem &v)
{
    return QJsonObject{{QStringLiteral("provider"), v.provider}, {QStringLiteral("id"), v.id}, {QStringLiteral("name"), v.name},
                       {QStringLiteral("region"), v.region}, {QStringLiteral("size_gb"), v.sizeGb},
                       {QStringLiteral("billed_gb"), v.billedGb()}, {QStringLiteral("price_per_gb_month"), v.pricePerGbMonth},
                       {QStringLiteral("price_per_month"), v.pricePerMonth()},
                       {QStringLiteral("currency"), providers::costModelFor(v.provider).currency},
                       {QStringLiteral("attached_to"), QJsonArray::fromStringList(v.attachedTo)}, {QStringLiteral("in_use"), v.inUse}};
}

// Volumes are billed whether or not Gantry shows them: every listing brings the ledger in line.
void noteInLedger(const Context &context, const std::function<Result<void>(cost::Ledger &)> &write)
{
    cost::Ledger ledger(cost::Ledger::defaultPath(context.configDir));
    Result<void> done = ledger.open();
    if (done)
        done = write(ledger);
    if (!done)
        context.warn(done.error().message);
}

Error noVolumesApi(const QString &id)
{
    return Error{ErrorCode::Usage, QStringLiteral("%1 has no volumes API (its OpenAPI document offers none); providers with volumes: "
                                                  "lambda, runpod, shadeform, vast").arg(providers::providerDisplayName(id))};
}

void printTable(Context &context, const QList<providers::Filesystem> &all)
{
    context.out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n").arg(QStringLiteral("PROVIDER").leftJustified(10), QStringLiteral("NAME").leftJustified(20),
        QStringLiteral("REGION").leftJustified(16), QStringLiteral("SIZE").rightJustified(9), QStringLiteral("$/GB-MO").rightJustified(8),
        QStringLiteral("$/MONTH").rightJustified(9), QStringLiteral("ATTACHED TO"));
    for (const providers::Filesystem &v : all) {
        const QString size = v.sizeGb > 0 ? QStringLiteral("%1 GB").arg(v.sizeGb) : QStringLiteral("%1 GB*").arg(v.billedGb(), 0, 'f', 1);
        const QString attached = !v.attachedTo.isEmpty() ? v.attachedTo.join(QStringLiteral(", "))
                                                         : (v.inUse ? QStringLiteral("(in use)") : QStringLiteral("-"));
        context.out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n").arg(v.provider.leftJustified(10), text::printable(v.name).leftJustified(20),
            text::printable(v.region).leftJustified(16), size.rightJustified(9), QString::number(v.pricePerGbMonth, 'f', 3).rightJustified(8),
            QString::number(v.pricePerMonth(), 'f', 2).rightJustified(9), text::printable(attached));
    }
    if (std::any_of(all.cbegin(), all.cend(), [](const providers::Filesystem &v) { return v.sizeGb == 0; }))
        context.out << QStringLiteral("* grows with use: billed on what it holds\n");
    context.out.flush();
}

int listCommand(Context &context, const Args &args)
{
    const ProviderOptions options = providerOptions(args);
    ProviderEnv env = makeProviderEnv(context, options);
    if (!options.provider.isEmpty() && providers::providerDescriptor(options.provider) && !providers::providerDescriptor(options.provider)->volumes.api)
        return context.fail(noVolumesApi(options.provider));
    QList<providers::Filesystem> all;
    QJsonArray errors;
    Error lastError;
    for (const QString &id : providersToQuery(options, env)) {
        const providers::ProviderDescriptor *descriptor = providers::providerDescriptor(id);
        if (!descriptor || !descriptor->volumes.api)
            continue;
        Result<std::unique_ptr<providers::Provider>> provider = providers::createProvider(id, env.settings);
        const QDateTime listedAt = QDateTime::currentDateTimeUtc(); // the ledger's clock in a CLI
        Result<QList<providers::Filesystem>> list = provider
            ? await<QList<providers::Filesystem>>([&](auto done) { (*provider)->listFilesystems(done); })
            : Result<QList<providers::Filesystem>>(provider.error());
        if (!list) {
            lastError = list.error();
            errors.append(QJsonObject{{QStringLiteral("provider"), id}, {QStringLiteral("error"), list.error().message}});
            if (!context.json)
                context.warn(list.error().message);
            continue;
        }
        noteInLedger(context, [&](cost::Ledger &ledger) { return ledger.reconcileVolumes(id, *list, listedAt); });
        all.append(*list);
    }
    if (context.json) {
        QJsonArray array;
        for (const providers::Filesystem &v : std::as_const(all))
            array.append(volumeJson(v));
        context.printJson(QJsonObject{{QStringLiteral("volumes"), array}, {QStringLiteral("errors"), errors}});
    } else {
        printTable(context, all);
    }
    return errors.isEmpty() || !all.isEmpty() ? ExitOk : failProvider(context, lastError);
}

int createVolume(Context &context, const Args &args, providers::Provider &provider)
{
    const providers::ProviderInfo info = provider.info();
    const providers::VolumeTerms terms = providers::providerDescriptor(info.id)->volumes;
    if (!terms.api)
        return context.fail(noVolumesApi(info.id));
    providers::VolumeSpec spec{args.arg("NAME"), args.value("size", QStringLiteral("0")).toInt(), args.value("region")};
    if (terms.sizeAtCreate && spec.sizeGb <= 0)
        return context.usage(QStringLiteral("%1 volumes need --size GB").arg(info.displayName));
    if (!terms.sizeAtCreate && spec.sizeGb > 0)
        context.warn(QStringLiteral("%1 filesystems have no fixed size; they grow with use and bill what they hold (--size ignored)").arg(info.displayName));
    if (!terms.nameAtCreate)
        context.warn(QStringLiteral("%1 names volumes itself (V.<id>); \"%2\" is not kept").arg(info.displayName, spec.name));
    // The window's New volume… makes it the same way: the provider's terms, then the ledger row.
    cost::Ledger ledger(cost::Ledger::defaultPath(context.configDir));
    const Result<void> opened = ledger.open();
    if (!opened)
        context.warn(opened.error().message);
    Result<workspace::CreatedVolume> made = await<workspace::CreatedVolume>(
        [&](auto done) { workspace::createVolumeRecorded(provider, opened ? &ledger : nullptr, spec, done); });
    if (!made)
        return made.error().code == ErrorCode::Usage ? context.usage(made.error().message) : failProvider(context, made.error());
    if (!made->warning.isEmpty())
        context.warn(made->warning);
    const providers::Filesystem &volume = made->volume;
    if (context.json)
        context.printJson(volumeJson(volume));
    else
        context.out << QStringLiteral("Created volume \"%1\" (%2) on %3 in %4; it bills $%5/GB-month until you delete it.")
                           .arg(text::printable(volume.name), volume.id, info.displayName, volume.region)
                           .arg(volume.pricePerGbMonth, 0, 'f', 3) << Qt::endl;
    return ExitOk;
}

bool confirmDelete(Context &context, const QString &question)
{
    if (!isatty(STDIN_FILENO))
        return false;
    const TerminalQuestion asking;
    context.err << question << QStringLiteral(" [y/N] ") << Qt::flush;
    char answer[16] = {};
    return std::fgets(answer, sizeof answer, stdin) && (answer[0] == 'y' || answer[0] == 'Y');
}

int deleteVolumeCommand(Context &context, const Args &args, providers::Provider &provider)
{
    const QString name = args.arg("NAME");
    if (!providers::providerDescriptor(provider.info().id)->volumes.api)
        return context.fail(noVolumesApi(provider.info().id));
    Result<providers::Filesystem> volume = await<providers::Filesystem>([&](auto done) { providers::withVolume(provider, name, done); });
    if (!volume)
        return failProvider(context, volume.error());
    const QString loss = providers::volumeLossText(*volume);
    if (!args.has("yes") && !confirmDelete(context, loss + QStringLiteral(" Delete it?")))
        return context.fail(Error{ErrorCode::Usage, QStringLiteral("Not deleted. %1 Re-run with --yes to delete it.").arg(loss)});
    Result<providers::Filesystem> deleted = await<providers::Filesystem>([&](auto done) { providers::deleteVolume(provider, volume->id, done); });
    if (!deleted)
        return failProvider(context, deleted.error());
    noteInLedger(context, [&](cost::Ledger &ledger) { return ledger.recordVolumeDeleted(deleted->provider, deleted->id); });
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("deleted"), volumeJson(*deleted)}});
    else
        context.out << QStringLiteral("Deleted volume \"%1\" from %2; it no longer bills.").arg(text::printable(deleted->name), provider.info().displayName)
                    << Qt::endl;
    return ExitOk;
}

const Registrar volumesRegistrar(Command{
    .name = "volumes",
    .summary = "volumes at the providers (RunPod network volumes, Lambda filesystems, Shadeform, Vast.ai): list, create, delete",
    .groups = Provider,
    .notes = {"A volume bills its $/GB-month for as long as it exists, attached or not; the cost ledger and budgets count it.",
              "Attach one at launch with gantry-cli launch ... --volume NAME."},
    .subcommands = {
        {.name = "list", .summary = "every volume (of --provider P, else of every configured provider), its size, price and users",
         .run = listCommand},
        {.name = "create", .summary = "create the volume NAME (--size GB where the provider sizes volumes, --region R)",
         .options = {{.name = "size", .value = "GB", .help = "its size (RunPod 10-4096; Lambda filesystems grow with use)"},
                     {.name = "region", .value = "REGION", .help = "where (RunPod: a data center such as US-KS-2)"}},
         .arguments = {{"NAME"}},
         .run = [](Context &c, const Args &a) { return withProvider(c, a, [&](providers::Provider &p) { return createVolume(c, a, p); }); }},
        {.name = "delete", .summary = "delete the volume NAME (or id) and every file on it; refused while an instance uses it",
         .options = {{.name = "yes", .help = "confirm: the volume and its files are destroyed"}},
         .arguments = {{"NAME"}},
         .run = [](Context &c, const Args &a) { return withProvider(c, a, [&](providers::Provider &p) { return deleteVolumeCommand(c, a, p); }); }},
    },
});

} // namespace
} // namespace gantry::cli
