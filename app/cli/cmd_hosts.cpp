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

#include <QJsonArray>

#include <memory>

namespace gantry::cli {
namespace {

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
            context.warn(QStringLiteral("the cost ledger was not updated: %1").arg(m_opened.error().message));
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
int billing(Context &context, HostStore &store, const Args &parsed)
{
    const QString name = parsed.arg("NAME");
    const QString state = parsed.arg("STATE");
    if (!state.isEmpty() && state != QLatin1String("on") && state != QLatin1String("off"))
        return context.usage(QStringLiteral("hosts billing NAME [on|off]"));
    if (!store.find(name))
        return context.fail(Error{ErrorCode::NotFound, QStringLiteral("no saved host named \"%1\" (see: gantry-cli hosts list)").arg(name)});
    HostLedger host(context, store);
    if (!host.opened())
        return context.fail(host.opened().error());
    if (!state.isEmpty()) {
        if (Result<void> set = host.workspace().setHostBilling(name, state == QLatin1String("on")); !set)
            return context.fail(set.error());
    }
    Result<std::optional<cost::LedgerEntry>> row = cost::hostBilling(host.ledger(), name);
    if (!row)
        return context.fail(row.error());
    if (context.json) {
        context.printJson(billingJson(name, *row));
    } else if (*row && (*row)->isRunning()) {
        context.out << QStringLiteral("%1 is billing %2/h (%3 so far on this row). Stop with: gantry-cli hosts billing %1 off")
                           .arg(text::printable(name), cost::moneyText((*row)->pricePerHour, (*row)->currency),
                                cost::moneyText((*row)->cost, (*row)->currency)) << Qt::endl;
    } else {
        context.out << QStringLiteral("%1 is not billing. Start when the machine is powered on: gantry-cli hosts billing %1 on")
                           .arg(text::printable(name)) << Qt::endl;
    }
    return ExitOk;
}

// hosts price NAME PER_HOUR [--currency CODE]: a new price closes the billing row and, if it was
// billing, opens one at the new price (the workspace follows the change).
int price(Context &context, HostStore &store, const Args &args)
{
    const QString currency = args.value("currency", QStringLiteral("USD")).trimmed().toUpper();
    if (Result<void> valid = HostStore::checkCurrency(currency); !valid)
        return context.usage(valid.error().message);
    bool ok = false;
    const double perHour = args.arg("PER_HOUR").toDouble(&ok);
    if (!ok || perHour < 0)
        return context.usage(QStringLiteral("hosts price NAME PER_HOUR [--currency USD|CNY|…]   (0 removes the price)"));
    std::optional<SavedHost> host = store.find(args.arg("NAME"));
    if (!host)
        return context.fail(Error{ErrorCode::NotFound, QStringLiteral("no saved host named \"%1\" (see: gantry-cli hosts list)").arg(args.arg("NAME"))});
    host->setHourlyPrice(perHour, currency);
    HostLedger ledger(context, store);
    if (Result<void> updated = store.update(*host); !updated)
        return context.fail(updated.error());
    if (context.json)
        context.printJson(hostJson(*host));
    else
        context.out << QStringLiteral("%1 now costs %2/h.").arg(text::printable(host->name), cost::moneyText(perHour, host->currency())) << Qt::endl;
    return ExitOk;
}

int list(Context &context, HostStore &store, const Args &args)
{
    // --names: one saved host name a line, nothing else (the shell completions read it).
    if (args.has("names") && !context.json) {
        for (const SavedHost &host : store.hosts())
            context.out << host.name << '\n';
        context.out.flush();
        return ExitOk;
    }
    if (context.json) {
        QJsonArray array;
        for (const SavedHost &host : store.hosts())
            array.append(hostJson(host));
        context.printJson(QJsonObject{{QStringLiteral("hosts"), array}});
        return ExitOk;
    }
    if (store.hosts().isEmpty()) {
        context.out << QStringLiteral("No saved hosts. Add one: gantry-cli hosts add NAME [user@]host[:port]") << Qt::endl;
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

int add(Context &context, HostStore &store, const Args &args)
{
    SavedHost host;
    host.source = QStringLiteral("manual");
    double price = 0;
    QString currency = QStringLiteral("USD");
    bool bill = true;
    if (const std::optional<QString> value = args.optional("billing")) {
        if (*value != QLatin1String("on") && *value != QLatin1String("off"))
            return context.usage(QStringLiteral("--billing is on or off"));
        bill = *value == QLatin1String("on");
    }
    if (const std::optional<QString> value = args.optional("currency")) {
        currency = value->trimmed().toUpper();
        if (Result<void> valid = HostStore::checkCurrency(currency); !valid)
            return context.usage(valid.error().message);
    }
    if (const std::optional<QString> value = args.optional("auth"))
        host.target.auth = ssh::authMethodFromName(*value);
    if (const std::optional<QString> value = args.optional("price")) {
        bool ok = false;
        price = value->toDouble(&ok);
        if (!ok || price < 0)
            return context.usage(QStringLiteral("--price needs a number per hour (US dollars unless --currency says otherwise)"));
    }
    host.name = args.arg("NAME");
    host.setHourlyPrice(price, currency);
    const ssh::AuthMethod auth = host.target.auth;
    QString error;
    if (!ssh::parseTargetSpec(args.arg("[USER@]HOST[:PORT]"), &host.target, &error))
        return context.usage(error);
    host.target.auth = auth;
    host.target.identityFiles = args.values("identity");
    if (const QString passwordEnv = args.value("password-env"); !passwordEnv.isEmpty()) {
        const QString secret = qEnvironmentVariable(passwordEnv.toLocal8Bit().constData());
        if (secret.isEmpty())
            return context.usage(QStringLiteral("--password-env %1: that environment variable is empty or not set").arg(passwordEnv));
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
        context.out << QStringLiteral("Saved %1 (%2).").arg(text::printable(host.name), text::printable(host.target.display())) << Qt::endl;
    if (!context.json && cost::isBillableHost(host))
        context.out << (bill ? QStringLiteral("Billing %1/h in the cost ledger from now; pause with: gantry-cli hosts billing %2 off")
                                   .arg(cost::moneyText(host.hourlyPrice(), host.currency()), text::printable(host.name))
                             : QStringLiteral("Not billing yet; start with: gantry-cli hosts billing %1 on").arg(text::printable(host.name)))
                    << Qt::endl;
    return ExitOk;
}

int importConfig(Context &context, HostStore &store, const Args &args)
{
    QString file = args.arg("FILE");
    if (file.isEmpty())
        file = paths::userSshDir() + QStringLiteral("/config");
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
        context.out << QStringLiteral("Found %1 hosts in %2, added %3 new.").arg(found).arg(file).arg(*added) << Qt::endl;
    return ExitOk;
}

int remove(Context &context, HostStore &store, const Args &args)
{
    const QString name = args.arg("NAME");
    HostLedger ledger(context, store); // its billing row, if any, is closed
    if (auto removed = ledger.workspace().removeHost(name, makeDesktopSecretStore(context.configDir).get()); !removed)
        return context.fail(removed.error());
    if (!context.json)
        context.out << QStringLiteral("Removed %1.").arg(name) << Qt::endl;
    return ExitOk;
}

// Every hosts subcommand reads the saved hosts first.
Handler withStore(int (*run)(Context &, HostStore &, const Args &))
{
    return [run](Context &context, const Args &args) {
        HostStore store(context.configDir);
        if (auto loaded = store.load(); !loaded)
            return context.fail(loaded.error());
        return run(context, store, args);
    };
}

const Argument kName{"NAME", Argument::One, Complete::Host};
const Option kCurrency{.name = "currency", .value = "CODE", .help = "the price's currency: USD (default), CNY, EUR…"};

const Registrar registrar(Command{
    .name = "hosts",
    .summary = "saved hosts: list, add, remove, import from ~/.ssh/config, their price and billing",
    .subcommands = {
        {.name = "list",
         .summary = "the saved hosts with their address, login and price",
         .options = {{.name = "names", .help = "only the names, one a line (for scripts and shell completion)"}},
         .run = withStore(list)},
        {.name = "add",
         .summary = "save a host (a priced one bills in the cost ledger from now)",
         .options = {{.name = "auth", .value = "METHOD", .help = "how to log in: auto (default), agent, key or password",
                      .choices = "auto|agent|key|password"},
                     sharedOption(Connection, "identity"),
                     sharedOption(Connection, "password-env"),
                     {.name = "price", .value = "PER_HOUR", .help = "what the machine costs per hour"},
                     kCurrency,
                     {.name = "billing", .value = "STATE", .help = "with --price: on (default) bills from now, off waits for hosts billing on",
                      .choices = "on|off"}},
         .arguments = {{"NAME"}, {"[USER@]HOST[:PORT]"}},
         .notes = {"--password-env stores the password in the keychain for later connections."},
         .run = withStore(add)},
        {.name = "remove", .summary = "forget a saved host (its billing row is closed)", .arguments = {kName}, .run = withStore(remove)},
        {.name = "import-ssh-config",
         .summary = "save the hosts of an ssh config file (default ~/.ssh/config)",
         .arguments = {{"FILE", Argument::Optional, Complete::File}},
         .run = withStore(importConfig)},
        {.name = "billing",
         .summary = "say, or turn on or off, whether a priced host bills now",
         .arguments = {kName, {"STATE", Argument::Optional, Complete::Nothing, "on|off"}},
         .run = withStore(billing)},
        {.name = "price",
         .summary = "change a host's price from now on (0 removes it)",
         .options = {kCurrency},
         .arguments = {kName, {"PER_HOUR"}},
         .run = withStore(price)},
    },
    .defaultSubcommand = "list",
});

} // namespace
} // namespace gantry::cli
