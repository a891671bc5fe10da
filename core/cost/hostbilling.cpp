#include "core/cost/hostbilling.h"

#include <QCoreApplication>

#include <algorithm>

namespace gantry::cost {
namespace {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class HostBillingText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::cost)
};

// The next free instance id for a host's row: the name, then "NAME#2", "NAME#3" …
Result<QString> nextRowId(const Ledger &ledger, const QString &hostName)
{
    Result<QList<LedgerEntry>> all = ledger.entries();
    if (!all)
        return all.error();
    QString id = hostName;
    for (int n = 2;; ++n) {
        const bool taken = std::any_of(all->cbegin(), all->cend(), [&id](const LedgerEntry &e) {
            return e.provider == hostProvider() && e.instanceId == id;
        });
        if (!taken)
            return id;
        id = hostName + QLatin1Char('#') + QString::number(n);
    }
}

bool samePrice(const LedgerEntry &row, const SavedHost &host)
{
    return qFuzzyCompare(1.0 + row.pricePerHour, 1.0 + host.hourlyPrice()) && row.currency == host.currency();
}

} // namespace

QString hostProvider()
{
    return QStringLiteral("host");
}

bool isBillableHost(const SavedHost &host)
{
    return host.provider.isEmpty() && host.hourlyPrice() > 0;
}

Result<std::optional<LedgerEntry>> hostBilling(const Ledger &ledger, const QString &hostName)
{
    Result<QList<LedgerEntry>> all = ledger.entries();
    if (!all)
        return all.error();
    for (const LedgerEntry &entry : std::as_const(*all)) {
        if (entry.provider == hostProvider() && entry.name == hostName && entry.isOpen())
            return std::optional<LedgerEntry>(entry);
    }
    return std::optional<LedgerEntry>();
}

Result<void> startHostBilling(Ledger &ledger, const SavedHost &host)
{
    if (!isBillableHost(host)) {
        return Error{ErrorCode::Usage, host.provider.isEmpty()
            ? HostBillingText::tr("%1 has no hourly price, so there is nothing to bill; give it one first "
                                  "(gantry-cli hosts price %1 PER_HOUR --currency CNY).").arg(host.name)
            : HostBillingText::tr("%1 is a %2 instance: the ledger bills it through %2 already.").arg(host.name, host.provider)};
    }
    Result<std::optional<LedgerEntry>> open = hostBilling(ledger, host.name);
    if (!open)
        return open.error();
    if (*open && samePrice(**open, host))
        return (*open)->isRunning() ? Result<void>{} : ledger.recordStarted(hostProvider(), (*open)->instanceId);
    if (*open) { // billed at another price until now: that row keeps its hours
        if (Result<void> closed = ledger.recordTerminated(hostProvider(), (*open)->instanceId, HostBillingText::tr("price changed"));
            !closed)
            return closed;
    }
    Result<QString> id = nextRowId(ledger, host.name);
    if (!id)
        return id.error();
    providers::Instance row;
    row.provider = hostProvider();
    row.id = *id;
    row.name = host.name;
    row.region = host.target.host;
    row.state = providers::InstanceState::Running;
    return ledger.recordLaunch(row, host.hourlyPrice(), host.currency());
}

Result<void> resumeHostBilling(Ledger &ledger, const QString &hostName)
{
    Result<std::optional<LedgerEntry>> open = hostBilling(ledger, hostName);
    if (!open)
        return open.error();
    if (!*open)
        return Error{ErrorCode::NotFound, HostBillingText::tr("%1 has no billing to resume; start it in Cost → Resume billing, or with: gantry-cli hosts billing %1 on")
                                              .arg(hostName)};
    return ledger.recordStarted(hostProvider(), (*open)->instanceId);
}

Result<void> stopHostBilling(Ledger &ledger, const QString &hostName)
{
    Result<std::optional<LedgerEntry>> open = hostBilling(ledger, hostName);
    if (!open)
        return open.error();
    return *open ? ledger.recordStopped(hostProvider(), (*open)->instanceId) : Result<void>{};
}

Result<void> endHostBilling(Ledger &ledger, const QString &hostName, const QString &note)
{
    Result<std::optional<LedgerEntry>> open = hostBilling(ledger, hostName);
    if (!open)
        return open.error();
    return *open ? ledger.recordTerminated(hostProvider(), (*open)->instanceId, note) : Result<void>{};
}

Result<void> reconcileHostBilling(Ledger &ledger, const QList<SavedHost> &hosts)
{
    Result<QList<LedgerEntry>> all = ledger.entries();
    if (!all)
        return all.error();
    for (const LedgerEntry &row : std::as_const(*all)) {
        if (row.provider != hostProvider() || !row.isOpen())
            continue;
        auto host = std::find_if(hosts.cbegin(), hosts.cend(), [&row](const SavedHost &h) { return h.name == row.name; });
        Result<void> done;
        if (host == hosts.cend() || !isBillableHost(*host))
            done = ledger.recordTerminated(hostProvider(), row.instanceId, HostBillingText::tr("host removed or no longer priced"));
        else if (!samePrice(row, *host) && row.isRunning())
            done = startHostBilling(ledger, *host); // closes this row, opens one at the new price
        else if (!samePrice(row, *host))
            done = ledger.recordTerminated(hostProvider(), row.instanceId, HostBillingText::tr("price changed"));
        if (!done)
            return done;
    }
    return {};
}

} // namespace gantry::cost
