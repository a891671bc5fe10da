#include "clicommand.h"
#include "core/cost/hostbilling.h"
#include "core/cost/money.h"
#include "cliconnect.h"
#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"
#include "core/util/paths.h"
#include "core/util/secretstore.h"
#include "core/util/printable.h"
#include "core/workspace/workspace.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <memory>

namespace gantry::cli {
namespace {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class CliText
{
    Q_DECLARE_TR_FUNCTIONS(cli)
};

QJsonObject hostJson(const SavedHost &host)
{
    return QJsonObject{{QStringLiteral("name"), host.name},
                       {QStringLiteral("host"), host.target.host},
                       {QStringLiteral("port"), host.target.port},
                       {QStringLiteral("user"), host.target.effectiveUser()},
                       {QStringLiteral("auth"), ssh::authMethodName(host.target.auth)},
                       {QStringLiteral("identity_files"), QJsonArray::fromStringList(host.target.identityFiles)},
                       {QStringLiteral("proxy_jump"), host.target.proxyJump},
                       {QStringLiteral("hourly_price_usd"), host.hourlyPriceUsd},
                       {QStringLiteral("hourly_price"), host.hourlyPrice()},
                       {QStringLiteral("currency"), host.currency()},
                       {QStringLiteral("provider"), host.provider},
                       {QStringLiteral("instance_id"), host.instanceId},
                       {QStringLiteral("source"), host.source}};
}

// This command's changes to the saved hosts go through the same workspace the GUI drives: a host
// added with a price bills from now, a removed one stops billing, and the managed ~/.ssh/config
// block follows. A ledger that cannot be opened is a warning here (the host change still happens),
// an error for `billing`.
class HostLedger
{
public:
    HostLedger(const Context &context, HostStore &store)
        : m_ledger(cost::Ledger::defaultPath(context.configDir))
    {
        m_opened = m_ledger.open();
        if (!m_opened)
            context.warn(CliText::tr("the cost ledger was not updated: %1").arg(m_opened.error().message));
        m_workspace = std::make_unique<workspace::Workspace>(context.configDir, nullptr, m_opened ? &m_ledger : nullptr, &store);
        QObject::connect(m_workspace.get(), &workspace::Workspace::billingWarning, m_workspace.get(),
                         [&context](const QString &message) { context.warn(message); });
        QObject::connect(m_workspace.get(), &workspace::Workspace::sshConfigWarning, m_workspace.get(),
                         [&context](const QString &message) { context.warn(message); });
    }
    Result<void> opened() const { return m_opened; }
    cost::Ledger &ledger() { return m_ledger; }
    workspace::Workspace &workspace() { return *m_workspace; }

private:
    cost::Ledger m_ledger;
    Result<void> m_opened;
    std::unique_ptr<workspace::Workspace> m_workspace;
};

QJsonObject billingJson(const QString &name, const std::optional<cost::LedgerEntry> &row)
{
    QJsonObject object{{QStringLiteral("name"), name}, {QStringLiteral("billing"), row && row->isRunning()}};
    if (row) {
        object.insert(QStringLiteral("ledger_id"), row->instanceId);
        object.insert(QStringLiteral("price_per_hour"), row->pricePerHour);
        object.insert(QStringLiteral("currency"), row->currency);
        object.insert(QStringLiteral("cost"), row->cost);
    }
    return object;
}

// hosts billing NAME [on|off]: says (or sets) whether a priced host bills now.
int billing(Context &context, HostStore &store, const QStringList &args)
{
    if (args.isEmpty() || args.size() > 2 || (args.size() == 2 && args[1] != QLatin1String("on") && args[1] != QLatin1String("off")))
        return context.usage(CliText::tr("hosts billing NAME [on|off]"));
    if (!store.find(args[0]))
        return context.fail(Error{ErrorCode::NotFound, CliText::tr("no saved host named \"%1\" (see: gantry-cli hosts list)").arg(args[0])});
    HostLedger host(context, store);
    if (!host.opened())
        return context.fail(host.opened().error());
    if (args.size() == 2) {
        if (Result<void> set = host.workspace().setHostBilling(args[0], args[1] == QLatin1String("on")); !set)
            return context.fail(set.error());
    }
    Result<std::optional<cost::LedgerEntry>> row = cost::hostBilling(host.ledger(), args[0]);
    if (!row)
        return context.fail(row.error());
    if (context.json) {
        context.printJson(billingJson(args[0], *row));
    } else if (*row && (*row)->isRunning()) {
        context.out << CliText::tr("%1 is billing %2/h (%3 so far on this row). Stop with: gantry-cli hosts billing %1 off")
                           .arg(text::printable(args[0]), cost::moneyText((*row)->pricePerHour, (*row)->currency),
                                cost::moneyText((*row)->cost, (*row)->currency)) << Qt::endl;
    } else {
        context.out << CliText::tr("%1 is not billing. Start when the machine is powered on: gantry-cli hosts billing %1 on")
                           .arg(text::printable(args[0])) << Qt::endl;
    }
    return ExitOk;
}

// hosts price NAME PER_HOUR [--currency CODE]: a new price closes the billing row and, if it was
// billing, opens one at the new price (the workspace follows the change).
int price(Context &context, HostStore &store, const QStringList &args)
{
    QStringList rest = args;
    QString currency = QStringLiteral("USD");
    if (const qsizetype at = rest.indexOf(QStringLiteral("--currency")); at >= 0 && at + 1 < rest.size()) {
        currency = rest.takeAt(at + 1).trimmed().toUpper();
        rest.removeAt(at);
        if (Result<void> valid = HostStore::checkCurrency(currency); !valid)
            return context.usage(valid.error().message);
    }
    bool ok = false;
    const double perHour = rest.size() == 2 ? rest[1].toDouble(&ok) : 0;
    if (!ok || perHour < 0)
        return context.usage(CliText::tr("hosts price NAME PER_HOUR [--currency USD|CNY|…]   (0 removes the price)"));
    std::optional<SavedHost> host = store.find(rest[0]);
    if (!host)
        return context.fail(Error{ErrorCode::NotFound, CliText::tr("no saved host named \"%1\" (see: gantry-cli hosts list)").arg(rest[0])});
    host->setHourlyPrice(perHour, currency);
    HostLedger ledger(context, store);
    if (Result<void> updated = store.update(*host); !updated)
        return context.fail(updated.error());
    if (context.json)
        context.printJson(hostJson(*host));
    else
        context.out << CliText::tr("%1 now costs %2/h.").arg(text::printable(host->name), cost::moneyText(perHour, host->currency())) << Qt::endl;
    return ExitOk;
}

int list(Context &context, HostStore &store)
{
    if (context.json) {
        QJsonArray array;
        for (const SavedHost &host : store.hosts())
            array.append(hostJson(host));
        context.printJson(QJsonObject{{QStringLiteral("hosts"), array}});
        return ExitOk;
    }
    if (store.hosts().isEmpty()) {
        context.out << CliText::tr("No saved hosts. Add one: gantry-cli hosts add NAME [user@]host[:port]") << Qt::endl;
        return ExitOk;
    }
    for (const SavedHost &host : store.hosts()) {
        context.out << QStringLiteral("%1  %2  auth=%3%4")
                           .arg(text::printable(host.name).leftJustified(20), text::printable(host.target.display()).leftJustified(36),
                                ssh::authMethodName(host.target.auth),
                                host.hourlyPrice() > 0 ? QStringLiteral("  %1/h").arg(cost::moneyText(host.hourlyPrice(), host.currency()))
                                                       : QString())
                    << Qt::endl;
    }
    return ExitOk;
}

int add(Context &context, HostStore &store, QStringList args)
{
    auto hostOptions = takeHostOptions(args);
    if (!hostOptions)
        return context.fail(hostOptions.error());
    SavedHost host;
    host.source = QStringLiteral("manual");
    QStringList positional;
    double price = 0;
    QString currency = QStringLiteral("USD");
    bool bill = true;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1StringView("--billing") && i + 1 < args.size()) {
            const QString value = args[++i];
            if (value != QLatin1String("on") && value != QLatin1String("off"))
                return context.usage(CliText::tr("--billing is on or off"));
            bill = value == QLatin1String("on");
        } else if (args[i] == QLatin1StringView("--currency") && i + 1 < args.size()) {
            currency = args[++i].trimmed().toUpper();
            if (Result<void> valid = HostStore::checkCurrency(currency); !valid)
                return context.usage(valid.error().message);
        } else if (args[i] == QLatin1StringView("--auth") && i + 1 < args.size()) {
            host.target.auth = ssh::authMethodFromName(args[++i]);
        } else if (args[i] == QLatin1StringView("--price") && i + 1 < args.size()) {
            bool ok = false;
            price = args[++i].toDouble(&ok);
            if (!ok || price < 0)
                return context.usage(CliText::tr("--price needs a number per hour (US dollars unless --currency says otherwise)"));
        } else if (args[i].startsWith(QLatin1Char('-'))) {
            return context.usage(CliText::tr("unknown option %1 for hosts add").arg(args[i]));
        } else {
            positional << args[i];
        }
    }
    if (positional.size() != 2)
        return context.usage(CliText::tr("hosts add NAME [user@]host[:port] [--auth auto|agent|key|password] [-i KEY] [--price PER_HOUR "
                                         "[--currency USD|CNY|…] [--billing on|off]] [--password-env VAR]"));
    host.name = positional[0];
    host.setHourlyPrice(price, currency);
    const ssh::AuthMethod auth = host.target.auth;
    QString error;
    if (!ssh::parseTargetSpec(positional[1], &host.target, &error))
        return context.usage(error);
    host.target.auth = auth;
    host.target.identityFiles = hostOptions->identityFiles;
    if (!hostOptions->passwordEnv.isEmpty()) {
        const QString secret = qEnvironmentVariable(hostOptions->passwordEnv.toLocal8Bit().constData());
        if (secret.isEmpty())
            return context.usage(CliText::tr("--password-env %1: that environment variable is empty or not set").arg(hostOptions->passwordEnv));
        auto keychain = makeDesktopSecretStore(context.configDir);
        if (auto stored = keychain->write(hostSecretKey(host.name, QStringLiteral("password")), secret); !stored)
            return context.fail(stored.error());
        if (host.target.auth == ssh::AuthMethod::Auto)
            host.target.auth = ssh::AuthMethod::Password;
    }
    HostLedger ledger(context, store);
    if (auto added = ledger.workspace().addHost(host, bill); !added) // a priced host bills from now unless --billing off
        return context.fail(added.error());
    if (context.json)
        context.printJson(hostJson(host));
    else
        context.out << CliText::tr("Saved %1 (%2).").arg(text::printable(host.name), text::printable(host.target.display())) << Qt::endl;
    if (!context.json && cost::isBillableHost(host))
        context.out << (bill ? CliText::tr("Billing %1/h in the cost ledger from now; pause with: gantry-cli hosts billing %2 off")
                                   .arg(cost::moneyText(host.hourlyPrice(), host.currency()), text::printable(host.name))
                             : CliText::tr("Not billing yet; start with: gantry-cli hosts billing %1 on").arg(text::printable(host.name)))
                    << Qt::endl;
    return ExitOk;
}

int importConfig(Context &context, HostStore &store, const QStringList &args)
{
    const QString file = args.value(0, paths::userSshDir() + QStringLiteral("/config"));
    QStringList warnings;
    HostLedger ledger(context, store);
    int found = 0;
    auto added = ledger.workspace().importSshConfig(file, &warnings, &found);
    if (!added)
        return context.fail(added.error());
    for (const QString &warning : std::as_const(warnings))
        context.warn(warning);
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("found"), found}, {QStringLiteral("added"), *added},
                                      {QStringLiteral("warnings"), QJsonArray::fromStringList(warnings)}});
    else
        context.out << CliText::tr("Found %1 hosts in %2, added %3 new.").arg(found).arg(file).arg(*added) << Qt::endl;
    return ExitOk;
}

int hosts(Context &context, const QStringList &args)
{
    HostStore store(context.configDir);
    if (auto loaded = store.load(); !loaded)
        return context.fail(loaded.error());
    const QString sub = args.value(0, QStringLiteral("list"));
    if (sub == QLatin1StringView("list"))
        return list(context, store);
    if (sub == QLatin1StringView("add"))
        return add(context, store, args.mid(1));
    if (sub == QLatin1StringView("import-ssh-config"))
        return importConfig(context, store, args.mid(1));
    if (sub == QLatin1StringView("billing"))
        return billing(context, store, args.mid(1));
    if (sub == QLatin1StringView("price"))
        return price(context, store, args.mid(1));
    if (sub == QLatin1StringView("remove")) {
        if (args.size() != 2)
            return context.usage(CliText::tr("hosts remove NAME"));
        HostLedger ledger(context, store); // its billing row, if any, is closed
        if (auto removed = ledger.workspace().removeHost(args[1], makeDesktopSecretStore(context.configDir).get()); !removed)
            return context.fail(removed.error());
        if (!context.json)
            context.out << CliText::tr("Removed %1.").arg(args[1]) << Qt::endl;
        return ExitOk;
    }
    return context.usage(CliText::tr("unknown hosts subcommand \"%1\"").arg(sub));
}

const Registrar registrar("hosts",
                          "hosts list|add NAME [user@]host[:port] [--auth M] [-i KEY] [--price PER_HOUR [--currency CODE] [--billing on|off]] "
                          "[--password-env VAR]|remove NAME|import-ssh-config [FILE]|billing NAME [on|off]|price NAME PER_HOUR [--currency CODE]",
                          hosts);

} // namespace
} // namespace gantry::cli
