// gantry-cli cost: the ledger of what instances cost, budgets, CSV export.
#include "cmd_provider_common.h"

#include "core/cost/budgetmonitor.h"
#include "core/cost/hostbilling.h"
#include "core/cost/ledger.h"
#include "core/cost/money.h"
#include "core/cost/storagewarnings.h"
#include "core/util/printable.h"

#include <QDateTime>
#include <QJsonArray>

namespace gantry::cli {
namespace {

using namespace providercli;

QJsonObject entryJson(const cost::LedgerEntry &entry)
{
    return QJsonObject{{QStringLiteral("provider"), entry.provider}, {QStringLiteral("instance_id"), entry.instanceId},
                       {QStringLiteral("name"), entry.name}, {QStringLiteral("type"), entry.typeName},
                       {QStringLiteral("region"), entry.region}, {QStringLiteral("price_per_hour"), entry.pricePerHour},
                       {QStringLiteral("launched_at"), entry.launchedAt.toString(Qt::ISODate)},
                       {QStringLiteral("stopped_at"), entry.stoppedAt.toString(Qt::ISODate)},
                       {QStringLiteral("terminated_at"), entry.terminatedAt.toString(Qt::ISODate)},
                       {QStringLiteral("state"), entry.state}, {QStringLiteral("billed_seconds"), entry.billedSeconds},
                       {QStringLiteral("cost"), entry.cost}, {QStringLiteral("note"), entry.note},
                       {QStringLiteral("currency"), entry.currency},
                       // The disk of a stopped instance, apart from compute (cost above).
                       {QStringLiteral("storage_cost"), entry.storageCost},
                       {QStringLiteral("storage_billed_seconds"), entry.storageSeconds},
                       {QStringLiteral("storage_per_hour"), entry.storagePerHour},
                       {QStringLiteral("storage_currency"), entry.storageCurrency}};
}

QJsonObject storageJson(const cost::StoragePeriod &period)
{
    return QJsonObject{{QStringLiteral("provider"), period.provider}, {QStringLiteral("instance_id"), period.instanceId},
                       {QStringLiteral("name"), period.name}, {QStringLiteral("started_at"), period.startedAt.toString(Qt::ISODate)},
                       {QStringLiteral("ended_at"), period.endedAt.toString(Qt::ISODate)},
                       {QStringLiteral("price_per_hour"), period.pricePerHour}, {QStringLiteral("volume_gb"), period.volumeGb},
                       {QStringLiteral("billed_seconds"), period.billedSeconds}, {QStringLiteral("cost"), period.cost},
                       {QStringLiteral("currency"), period.currency}};
}

QJsonObject currencyJson(const QMap<QString, double> &byCurrency)
{
    QJsonObject object;
    for (auto it = byCurrency.constBegin(); it != byCurrency.constEnd(); ++it)
        object.insert(it.key(), it.value());
    return object;
}

QMap<QString, double> volumeTotalsOf(const QList<cost::VolumeEntry> &volumes)
{
    QMap<QString, double> totals;
    for (const cost::VolumeEntry &volume : volumes)
        totals[volume.currency] += volume.cost;
    return totals;
}

void printVolumes(Context &context, const cost::Ledger &ledger, const QList<cost::VolumeEntry> &volumes)
{
    const QMap<QString, double> totals = volumeTotalsOf(volumes);
    for (auto it = totals.cbegin(); it != totals.cend(); ++it)
        context.out << QStringLiteral("Volumes: %1 %2 so far (%3 volume(s)), %4 %5/h now while they exist.\n")
                           .arg(it.key()).arg(it.value(), 0, 'f', 2).arg(volumes.size()).arg(it.key())
                           .arg(ledger.volumesPerHourNow(it.key()).valueOr(0), 0, 'f', 4);
    context.out.flush();
}

QJsonArray volumesJson(const QList<cost::VolumeEntry> &volumes)
{
    QJsonArray array;
    for (const cost::VolumeEntry &v : volumes)
        array.append(QJsonObject{{QStringLiteral("provider"), v.provider}, {QStringLiteral("volume_id"), v.volumeId},
                                 {QStringLiteral("name"), v.name}, {QStringLiteral("size_gb"), v.sizeGb},
                                 {QStringLiteral("price_per_hour"), v.pricePerHour}, {QStringLiteral("currency"), v.currency},
                                 {QStringLiteral("created_at"), v.createdAt.toString(Qt::ISODate)},
                                 {QStringLiteral("deleted_at"), v.deletedAt.isValid() ? QJsonValue(v.deletedAt.toString(Qt::ISODate)) : QJsonValue()},
                                 {QStringLiteral("cost"), v.cost}});
    return array;
}

// The table for people: one line per instance, totals (each currency apart), budgets, warnings.
void printText(Context &context, const QList<cost::LedgerEntry> &entries, const QMap<QString, double> &totals, double perHour,
               cost::BudgetMonitor &monitor, const QStringList &warnings)
{
    const double total = totals.value(QStringLiteral("USD"));
    for (const cost::LedgerEntry &entry : entries) {
        const QString storage = entry.storageCost > 0 || entry.isBillingStorage()
            ? QStringLiteral(" + %1 storage").arg(cost::moneyText(entry.storageCost, entry.storageCurrency)) : QString();
        context.out << QStringLiteral("%1 %2 %3 %4 %5 %6/h %7%8  %9")
                           .arg(entry.provider.leftJustified(8), text::printable(entry.instanceId.left(32)).leftJustified(32),
                                text::printable(entry.name).leftJustified(14), text::printable(entry.typeName).leftJustified(24),
                                text::printable(entry.state).leftJustified(10))
                           .arg(cost::moneyText(entry.pricePerHour, entry.currency),
                                cost::moneyText(entry.cost, entry.currency).rightJustified(9), storage, text::printable(entry.note))
                    << '\n';
    }
    context.out << QStringLiteral("Total: %1   Running now: %2/h").arg(cost::formatUsd(total), cost::formatUsd(perHour)) << '\n';
    const QMap<QString, double> storage = cost::totalsByCurrency(entries, cost::CostPart::Storage);
    const QMap<QString, double> storageRate = cost::ratesByCurrency(entries, cost::CostPart::Storage);
    if (!storage.isEmpty() || !storageRate.isEmpty())
        context.out << QStringLiteral("Of which storage of stopped instances: %1   Stopped disks now: %2")
                           .arg(cost::moneyTotalsText(storage), cost::moneyTotalsText(storageRate, QStringLiteral("/h"))) << '\n';
    for (auto it = totals.constBegin(); it != totals.constEnd(); ++it) {
        if (it.key() != QLatin1String("USD"))
            context.out << QStringLiteral("Total in %1: %2 (not converted)").arg(text::printable(it.key())).arg(it.value(), 0, 'f', 2) << '\n';
    }
    for (const QString &period : {QStringLiteral("daily"), QStringLiteral("monthly")}) {
        if (Result<cost::BudgetMonitor::Status> status = monitor.status(period); status && status->limit > 0)
            context.out << QStringLiteral("%1 budget: %2 of %3 (%4 %, USD rows only)").arg(period, cost::formatUsd(status->spent), cost::formatUsd(status->limit))
                               .arg(status->percent()) << '\n';
    }
    for (const QString &warning : warnings)
        context.out << QStringLiteral("Warning: %1").arg(text::printableLines(warning)) << '\n';
}

int costCommand(Context &context, const Args &args)
{
    const std::optional<QString> since = args.optional("since");
    const std::optional<QString> csv = args.optional("csv");
    const std::optional<QString> daily = args.optional("daily-budget");
    const std::optional<QString> monthly = args.optional("monthly-budget");
    QDateTime from;
    if (since) {
        from = QDateTime::fromString(*since, Qt::ISODate);
        if (!from.isValid())
            from = QDateTime(QDate::fromString(*since, Qt::ISODate), QTime(0, 0), Qt::LocalTime);
        if (!from.isValid())
            return context.usage(QStringLiteral("--since takes a date like 2026-01-31"));
    }
    cost::Ledger ledger(cost::Ledger::defaultPath(context.configDir));
    if (Result<void> opened = ledger.open(); !opened)
        return context.fail(opened.error());
    // A priced host removed or repriced while no Gantry was watching is closed now, not billed on.
    if (HostStore hosts(context.configDir); hosts.load()) {
        if (Result<void> reconciled = cost::reconcileHostBilling(ledger, hosts.hosts()); !reconciled)
            context.warn(reconciled.error().message);
    }
    for (const auto &[period, value] : {std::pair{QStringLiteral("daily"), daily}, std::pair{QStringLiteral("monthly"), monthly}}) {
        if (!value.has_value())
            continue;
        bool ok = false;
        const double limit = value->toDouble(&ok);
        if (!ok || limit < 0)
            return context.usage(QStringLiteral("a budget is a number of USD (0 removes it)"));
        if (Result<void> set = ledger.setBudget(period, limit); !set)
            return context.fail(set.error());
    }
    Result<QList<cost::LedgerEntry>> entries = ledger.entries(from);
    if (!entries)
        return context.fail(entries.error());
    if (csv) {
        if (Result<void> written = ledger.exportCsv(*csv, from); !written)
            return context.fail(written.error());
    }
    // Rows keep their currency: the dollar total counts dollars only, other currencies stand apart.
    const QMap<QString, double> totals = cost::totalsByCurrency(*entries);
    const double total = totals.value(QStringLiteral("USD"));
    const double perHour = ledger.totalPerHourNow().valueOr(0);
    const QStringList warnings = cost::storageWarnings(*entries, QDateTime::currentDateTimeUtc());
    cost::BudgetMonitor monitor(&ledger);
    const QList<cost::VolumeEntry> volumes = ledger.volumes(from).valueOr({}); // bill apart from any instance
    if (context.json) {
        QJsonArray array;
        for (const cost::LedgerEntry &entry : std::as_const(*entries))
            array.append(entryJson(entry));
        QJsonObject budgets;
        for (const QString &period : {QStringLiteral("daily"), QStringLiteral("monthly")}) {
            if (Result<cost::BudgetMonitor::Status> status = monitor.status(period); status && status->limit > 0)
                budgets.insert(period, QJsonObject{{QStringLiteral("limit"), status->limit}, {QStringLiteral("spent"), status->spent},
                                                   {QStringLiteral("percent"), status->percent()}});
        }
        QJsonArray storage;
        for (const cost::StoragePeriod &period : ledger.storagePeriods(from).valueOr({}))
            storage.append(storageJson(period));
        // totals: compute and storage together; the two parts apart, each currency on its own.
        context.printJson(QJsonObject{{QStringLiteral("entries"), array}, {QStringLiteral("storage"), storage},
                                      {QStringLiteral("total"), total},
                                      {QStringLiteral("totals_by_currency"), currencyJson(totals)},
                                      {QStringLiteral("compute_by_currency"), currencyJson(cost::totalsByCurrency(*entries, cost::CostPart::Compute))},
                                      {QStringLiteral("storage_by_currency"), currencyJson(cost::totalsByCurrency(*entries, cost::CostPart::Storage))},
                                      {QStringLiteral("storage_per_hour_now"), currencyJson(cost::ratesByCurrency(*entries, cost::CostPart::Storage))},
                                      {QStringLiteral("per_hour_now"), perHour}, {QStringLiteral("budgets"), budgets},
                                      {QStringLiteral("volumes"), volumesJson(volumes)},
                                      {QStringLiteral("volumes_by_currency"), currencyJson(volumeTotalsOf(volumes))},
                                      {QStringLiteral("volumes_per_hour_now"), ledger.volumesPerHourNow().valueOr(0)},
                                      {QStringLiteral("warnings"), QJsonArray::fromStringList(warnings)}});
        return ExitOk;
    }
    printText(context, *entries, totals, perHour, monitor, warnings);
    printVolumes(context, ledger, volumes);
    if (csv)
        context.out << QStringLiteral("Wrote %1").arg(*csv) << '\n';
    context.out.flush();
    return ExitOk;
}

const Registrar costRegistrar(Command{
    .name = "cost",
    .summary = "what instances and priced hosts cost (compute and stopped disks), budgets, CSV export",
    .options = {{.name = "since", .value = "DATE", .help = "only rows from DATE on (2026-01-31 or an ISO date and time)"},
                {.name = "csv", .value = "FILE", .help = "also write the rows to FILE as CSV", .complete = Complete::File},
                {.name = "daily-budget", .value = "USD", .help = "set the daily budget (0 removes it)"},
                {.name = "monthly-budget", .value = "USD", .help = "set the monthly budget (0 removes it)"}},
    .run = costCommand,
});

} // namespace
} // namespace gantry::cli
