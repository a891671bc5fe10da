// gantry-cli types: instance types and marketplace offers with prices and capacity, from every
// configured provider (or --provider P), filtered, cheapest first; offers on machines that failed
// Verify or Doctor hidden unless --include-bad.
#include "cmd_provider_common.h"

#include "core/providers/await.h"
#include "core/util/printable.h"
#include "core/verify/reputation.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QTextStream>

#include <algorithm>
#include <optional>

namespace gantry::cli {
namespace {

using namespace providercli;
using providers::await;

QJsonObject typeJson(const providers::InstanceType &type)
{
    QJsonArray regions;
    for (const providers::Region &region : type.regionsWithCapacity)
        regions.append(region.name);
    QJsonObject object{{QStringLiteral("provider"), type.provider}, {QStringLiteral("name"), type.name},
                       {QStringLiteral("description"), type.description}, {QStringLiteral("gpu_model"), type.gpuModel},
                       {QStringLiteral("gpu_count"), type.gpuCount}, {QStringLiteral("vram_gb"), type.vramGbPerGpu},
                       {QStringLiteral("vcpus"), type.vcpus}, {QStringLiteral("ram_gb"), type.ramGb},
                       {QStringLiteral("disk_gb"), type.diskGb}, {QStringLiteral("price_per_hour"), type.pricePerHour},
                       {QStringLiteral("price_per_gpu_hour"), type.pricePerGpuHour()},
                       {QStringLiteral("regions_with_capacity"), regions}, {QStringLiteral("note"), type.note}};
    if (type.reliability >= 0) { // a marketplace offer: how good this one machine is
        object.insert(QStringLiteral("reliability"), type.reliability);
        object.insert(QStringLiteral("dlperf"), type.dlperf);
        object.insert(QStringLiteral("inet_up_mbps"), type.inetUpMbps);
        object.insert(QStringLiteral("inet_down_mbps"), type.inetDownMbps);
        object.insert(QStringLiteral("max_cuda"), type.maxCuda);
        object.insert(QStringLiteral("min_bid_per_hour"), type.minBidPerHour);
        object.insert(QStringLiteral("machine_id"), type.machineId);
        object.insert(QStringLiteral("verified"), type.verified);
    }
    return object;
}

// Marketplace offers on machines that failed Verify or Doctor: hidden, or with includeBad kept
// and flagged. Returns each kept bad offer's problem, by offer name.
QHash<QString, QString> dropBadMachines(const Context &context, QList<providers::InstanceType> &rows, bool includeBad)
{
    verify::ReputationStore reputation(context.configDir);
    if (auto loaded = reputation.load(); !loaded)
        context.warn(loaded.error().message);
    QHash<QString, QString> flagged;
    int hidden = 0;
    rows.removeIf([&](const providers::InstanceType &type) {
        const verify::MachineRecord *bad = reputation.badMachine(type.provider, type.machineId);
        if (!bad)
            return false;
        if (includeBad)
            flagged.insert(type.provider + u'/' + type.name, bad->lastProblem);
        else
            ++hidden;
        return !includeBad;
    });
    if (hidden > 0 && !context.json)
        context.warn(QStringLiteral("%1 offer(s) on machines that failed Verify or Doctor are hidden; --include-bad shows "
                                    "them, gantry-cli verify-history lists the machines.").arg(hidden));
    return flagged;
}

// What `types` keeps of every provider's list.
struct TypeFilter
{
    std::optional<QString> gpu;
    int minVramGb = 0;
    double maxPrice = 0; // 0: no limit
    bool availableOnly = false;
    bool includeBad = false;

    bool keeps(const providers::InstanceType &type) const
    {
        if (gpu && !type.gpuModel.contains(*gpu, Qt::CaseInsensitive) && !type.name.contains(*gpu, Qt::CaseInsensitive))
            return false;
        return type.vramGbPerGpu >= minVramGb && (maxPrice <= 0 || type.pricePerHour <= maxPrice)
            && (!availableOnly || type.availableNow());
    }
};

Result<TypeFilter> typeFilter(const Args &args)
{
    const std::optional<QString> minVram = args.optional("min-vram");
    const std::optional<QString> maxPrice = args.optional("max-price");
    TypeFilter filter;
    filter.gpu = args.optional("gpu");
    filter.availableOnly = args.has("available");
    filter.includeBad = args.has("include-bad");
    bool ok = true;
    filter.minVramGb = minVram ? minVram->toInt(&ok) : 0;
    if (!ok)
        return Error{ErrorCode::Usage, QStringLiteral("--min-vram takes a number of GB")};
    filter.maxPrice = maxPrice ? maxPrice->toDouble(&ok) : 0;
    if (!ok)
        return Error{ErrorCode::Usage, QStringLiteral("--max-price takes a number of USD per hour")};
    return filter;
}

void printTypesJson(const Context &context, const QList<providers::InstanceType> &rows, const QHash<QString, QString> &bad,
                    const QJsonArray &errors)
{
    QJsonArray array;
    for (const providers::InstanceType &type : rows) {
        QJsonObject object = typeJson(type);
        if (const auto it = bad.constFind(type.provider + u'/' + type.name); it != bad.cend())
            object.insert(QStringLiteral("bad_machine"), QJsonObject{{QStringLiteral("problem"), *it}});
        array.append(object);
    }
    context.printJson(QJsonObject{{QStringLiteral("types"), array}, {QStringLiteral("errors"), errors}});
}

void printTypesTable(Context &context, const QList<providers::InstanceType> &rows, const QHash<QString, QString> &bad)
{
    context.out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8  %9")
                       .arg(QStringLiteral("PROVIDER").leftJustified(8), QStringLiteral("TYPE").leftJustified(26), QStringLiteral("GPU").leftJustified(18),
                            QStringLiteral("VRAM").rightJustified(5), QStringLiteral("vCPU").rightJustified(4), QStringLiteral("RAM").rightJustified(5),
                            QStringLiteral("$/h").rightJustified(8), QStringLiteral("$/GPU-h").rightJustified(8), QStringLiteral("REGIONS WITH CAPACITY"))
                << '\n';
    for (const providers::InstanceType &type : std::as_const(rows)) {
        QStringList regions;
        for (const providers::Region &region : type.regionsWithCapacity)
            regions.append(text::printable(region.name));
        const QString gpuText = type.gpuCount > 0 ? QStringLiteral("%1x %2").arg(type.gpuCount).arg(text::printable(type.gpuModel))
                                                  : QStringLiteral("(CPU only)");
        context.out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8  %9")
                           .arg(text::printable(type.provider).leftJustified(8), text::printable(type.name).leftJustified(26), gpuText.leftJustified(18),
                                (type.vramGbPerGpu > 0 ? QString::number(type.vramGbPerGpu) + QStringLiteral("GB") : QStringLiteral("-")).rightJustified(5),
                                QString::number(type.vcpus).rightJustified(4),
                                (type.ramGb > 0 ? QString::number(type.ramGb) + QStringLiteral("GB") : QStringLiteral("-")).rightJustified(5),
                                QStringLiteral("%1").arg(type.pricePerHour, 0, 'f', 2).rightJustified(8),
                                QStringLiteral("%1").arg(type.pricePerGpuHour(), 0, 'f', 2).rightJustified(8),
                                regions.isEmpty() ? QStringLiteral("none now") : regions.join(QLatin1Char(',')));
        if (const auto it = bad.constFind(type.provider + u'/' + type.name); it != bad.cend())
            context.out << QStringLiteral("  [BAD MACHINE: %1]").arg(text::printable(*it).left(80));
        context.out << '\n';
    }
    context.out.flush();
}

int typesCommand(Context &context, const Args &args)
{
    const ProviderOptions options = providerOptions(args);
    Result<TypeFilter> filter = typeFilter(args);
    if (!filter)
        return context.usage(filter.error().message);

    ProviderEnv env = makeProviderEnv(context, options);
    QList<providers::InstanceType> rows;
    QJsonArray errors;
    Error lastError;
    for (const QString &id : providersToQuery(options, env)) {
        Result<std::unique_ptr<providers::Provider>> provider = providers::createProvider(id, env.settings);
        Result<QList<providers::InstanceType>> types = provider
            ? await<QList<providers::InstanceType>>([&](auto done) { (*provider)->listInstanceTypes(done); })
            : Result<QList<providers::InstanceType>>(provider.error());
        if (!types) {
            lastError = types.error();
            errors.append(QJsonObject{{QStringLiteral("provider"), id}, {QStringLiteral("error"), types.error().message}});
            if (!context.json)
                context.warn(types.error().message);
            continue;
        }
        for (const providers::InstanceType &type : std::as_const(*types))
            if (filter->keeps(type))
                rows.append(type);
    }
    std::sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) { return a.pricePerHour < b.pricePerHour; });
    const QHash<QString, QString> bad = dropBadMachines(context, rows, filter->includeBad);
    if (context.json)
        printTypesJson(context, rows, bad, errors);
    else
        printTypesTable(context, rows, bad);
    return errors.isEmpty() ? ExitOk : providerExitCode(lastError);
}

const Registrar typesRegistrar(Command{
    .name = "types",
    .summary = "instance types and offers with prices and capacity, cheapest first",
    .options = {{.name = "gpu", .value = "NAME", .help = "only types whose GPU model or name contains NAME"},
                {.name = "min-vram", .value = "GB", .help = "at least GB of memory per GPU"},
                {.name = "max-price", .value = "USD", .help = "at most USD per hour"},
                {.name = "available", .help = "only types with capacity now"},
                {.name = "include-bad", .help = "keep offers on machines that failed Verify or Doctor (flagged)"}},
    .groups = Provider,
    .notes = {"Offers on machines that failed Verify or Doctor are hidden unless --include-bad (gantry-cli verify-history lists them)."},
    .run = typesCommand,
});

} // namespace
} // namespace gantry::cli
