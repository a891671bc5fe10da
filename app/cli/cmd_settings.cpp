// gantry-cli settings list|get|set, diagnostics: the preferences the GUI's Settings dialog edits
// (gantry.ini and the ledger's budgets) and the bug-report file of Help → Save diagnostic report.
#include "clicommand.h"

#include "core/cost/ledger.h"
#include "core/diagnostics/cloudproviders.h"
#include "core/diagnostics/diagnosticreport.h"
#include "core/util/clock.h"
#include "core/util/secretstore.h"

#include <QJsonArray>

namespace gantry::cli {
namespace {

const QStringList kBudgetKeys{QStringLiteral("budget.daily"), QStringLiteral("budget.monthly")};

struct Row
{
    QString key;
    QString value;
    QString defaultValue;
    QString description;
};

Result<QList<Row>> allRows(const QString &configDir, cost::Ledger &ledger)
{
    QList<Row> rows;
    for (const appsettings::SettingInfo &setting : diagnostics::knownSettings())
        rows.append({setting.key, appsettings::value(configDir, setting.key), setting.defaultValue, setting.description});
    if (Result<void> opened = ledger.open(); !opened)
        return opened.error();
    for (const QString &key : kBudgetKeys) {
        const double limit = ledger.budget(key.section(QLatin1Char('.'), 1)).valueOr(0);
        rows.append({key, limit > 0 ? QString::number(limit, 'f', 2) : QString(), QString(),
                     QStringLiteral("%1 budget in USD (alerts at 50/80/100 %); empty: none").arg(key.section(QLatin1Char('.'), 1))});
    }
    return rows;
}

QJsonObject rowJson(const Row &row)
{
    return QJsonObject{{QStringLiteral("key"), row.key}, {QStringLiteral("value"), row.value},
                       {QStringLiteral("default"), row.defaultValue}, {QStringLiteral("description"), row.description}};
}

Result<void> setBudget(cost::Ledger &ledger, const QString &key, const QString &value)
{
    bool ok = true;
    const double limit = value.isEmpty() ? 0 : value.toDouble(&ok);
    if (!ok || limit < 0)
        return makeError(ErrorCode::Usage, QStringLiteral("%1 must be an amount in USD such as 50 or 12.50 (empty removes it)").arg(key));
    if (Result<void> opened = ledger.open(); !opened)
        return opened;
    return ledger.setBudget(key.section(QLatin1Char('.'), 1), limit);
}

int settingsCommand(Context &context, const Args &args)
{
    const QString verb = QString::fromUtf8(args.command().name);
    cost::Ledger ledger(cost::Ledger::defaultPath(context.configDir), Clock::system());
    const QString key = args.arg("KEY");
    if (verb == QLatin1String("set")) {
        const QString value = args.arg("VALUE").trimmed();
        Result<void> stored = makeError(ErrorCode::Usage, QStringLiteral("unknown setting %1 (see gantry-cli settings list)").arg(key));
        if (kBudgetKeys.contains(key))
            stored = setBudget(ledger, key, value);
        else if (auto setting = appsettings::findSetting(key, providers::cloudProviderIds()))
            stored = appsettings::setValue(context.configDir, *setting, value);
        if (!stored)
            return context.fail(stored.error());
    }
    Result<QList<Row>> rows = allRows(context.configDir, ledger);
    if (!rows)
        return context.fail(rows.error());
    QList<Row> shown;
    for (const Row &row : std::as_const(*rows)) {
        if (verb == QLatin1String("list") || row.key == key)
            shown << row;
    }
    if (shown.isEmpty())
        return context.usage(QStringLiteral("unknown setting %1 (see gantry-cli settings list)").arg(key));
    if (context.json) {
        QJsonArray array;
        for (const Row &row : std::as_const(shown))
            array.append(rowJson(row));
        context.printJson(verb == QLatin1String("list") ? QJsonObject{{QStringLiteral("settings"), array}} : array.first().toObject());
        return ExitOk;
    }
    for (const Row &row : std::as_const(shown)) {
        if (verb == QLatin1String("list"))
            context.out << row.key.leftJustified(24) << ' ' << (row.value.isEmpty() ? QStringLiteral("-") : row.value).leftJustified(28)
                        << ' ' << row.description << '\n';
        else
            context.out << row.value << '\n';
    }
    context.out.flush();
    return ExitOk;
}

int diagnosticsCommand(Context &context, const Args &args)
{
    const QString output = args.value("output");
    if (output.isEmpty())
        return context.usage(QStringLiteral("diagnostics needs --output FILE"));
    // A keychain that cannot be read does not stop a bug report: the patterns still catch what
    // looks secret.
    std::unique_ptr<SecretStore> secrets = makeDesktopSecretStore(context.configDir);
    const QStringList known = diagnostics::collectKnownSecrets(context.configDir, secrets.get());
    const QString report = diagnostics::buildReport(context.configDir, known);
    if (Result<void> written = diagnostics::writeReport(output, report); !written)
        return context.fail(written.error());
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("path"), output}, {QStringLiteral("bytes"), report.toUtf8().size()}});
    else
        context.out << QStringLiteral("Wrote the diagnostic report (secrets removed) to %1.").arg(output) << Qt::endl;
    return ExitOk;
}

const Registrar settingsRegistrar(Command{
    .name = "settings",
    .summary = "preferences shared with the GUI's Settings dialog (idle policy, budgets, endpoints…)",
    .subcommands = {
        {.name = "list", .summary = "every setting with its value and what it does", .run = settingsCommand},
        {.name = "get", .summary = "one setting's value", .arguments = {{"KEY"}}, .run = settingsCommand},
        {.name = "set", .summary = "set KEY to VALUE (no VALUE resets it to its default)", .arguments = {{"KEY"}, {"VALUE", Argument::Optional}},
         .run = settingsCommand},
    },
});
const Registrar diagnosticsRegistrar(Command{
    .name = "diagnostics",
    .summary = "write a bug-report file with every secret removed (as Help → Save diagnostic report)",
    .options = {{.name = "output", .value = "FILE", .help = "where to write the report (required)", .shortName = 'o', .complete = Complete::File}},
    .run = diagnosticsCommand,
});

} // namespace
} // namespace gantry::cli
