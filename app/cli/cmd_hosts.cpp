#include "clicommand.h"
#include "core/cost/money.h"
#include "cliconnect.h"
#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"
#include "core/hosts/sshconfigimport.h"
#include "core/util/paths.h"
#include "core/util/secretstore.h"
#include "core/util/printable.h"

#include <QCoreApplication>
#include <QJsonArray>

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
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1StringView("--currency") && i + 1 < args.size()) {
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
                                         "[--currency USD|CNY|…]] [--password-env VAR]"));
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
        auto keychain = makeKeychainSecretStore();
        if (auto stored = keychain->write(hostSecretKey(host.name, QStringLiteral("password")), secret); !stored)
            return context.fail(stored.error());
        if (host.target.auth == ssh::AuthMethod::Auto)
            host.target.auth = ssh::AuthMethod::Password;
    }
    if (auto added = store.add(host); !added)
        return context.fail(added.error());
    if (context.json)
        context.printJson(hostJson(host));
    else
        context.out << CliText::tr("Saved %1 (%2).").arg(text::printable(host.name), text::printable(host.target.display())) << Qt::endl;
    return ExitOk;
}

int importConfig(Context &context, HostStore &store, const QStringList &args)
{
    const QString file = args.value(0, paths::userSshDir() + QStringLiteral("/config"));
    QStringList warnings;
    const QList<SavedHost> found = importSshConfig(file, &warnings);
    auto added = store.merge(found);
    if (!added)
        return context.fail(added.error());
    for (const QString &warning : std::as_const(warnings))
        context.warn(warning);
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("found"), int(found.size())}, {QStringLiteral("added"), *added},
                                      {QStringLiteral("warnings"), QJsonArray::fromStringList(warnings)}});
    else
        context.out << CliText::tr("Found %1 hosts in %2, added %3 new.").arg(found.size()).arg(file).arg(*added) << Qt::endl;
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
    if (sub == QLatin1StringView("remove")) {
        if (args.size() != 2)
            return context.usage(CliText::tr("hosts remove NAME"));
        if (auto removed = store.remove(args[1]); !removed)
            return context.fail(removed.error());
        forgetHostSecrets(*makeKeychainSecretStore(), args[1]);
        if (!context.json)
            context.out << CliText::tr("Removed %1.").arg(args[1]) << Qt::endl;
        return ExitOk;
    }
    return context.usage(CliText::tr("unknown hosts subcommand \"%1\"").arg(sub));
}

const Registrar registrar("hosts",
                          "hosts list|add NAME [user@]host[:port] [--auth M] [-i KEY] [--price PER_HOUR [--currency CODE]] [--password-env VAR]"
                          "|remove NAME|import-ssh-config [FILE]",
                          hosts);

} // namespace
} // namespace gantry::cli
