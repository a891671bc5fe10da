// gantry-cli settings list|get|set, diagnostics: the preferences the GUI's Settings dialog edits
// (gantry.ini and the ledger's budgets) and the bug-report file of Help → Save diagnostic report.
#include "clicommand.h"

#include "core/cost/ledger.h"
#include "core/diagnostics/cloudproviders.h"
#include "core/diagnostics/diagnosticreport.h"
#include "core/util/clock.h"
#include "core/util/secretstore.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace gantry::cli {
namespace {

class CliText
{
    Q_DECLARE_TR_FUNCTIONS(cli)
};

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
        return makeError(ErrorCode::Usage, CliText::tr("%1 must be an amount in USD such as 50 or 12.50 (empty removes it)").arg(key));
    if (Result<void> opened = ledger.open(); !opened)
        return opened;
    return ledger.setBudget(key.section(QLatin1Char('.'), 1), limit);
}

int settingsCommand(Context &context, const QStringList &args)
{
    const QString verb = args.value(0);
    const bool known = (verb == QLatin1String("list") && args.size() == 1) || (verb == QLatin1String("get") && args.size() == 2)
                       || (verb == QLatin1String("set") && (args.size() == 2 || args.size() == 3));
    if (!known)
        return context.usage(CliText::tr("settings list | get KEY | set KEY [VALUE] (no VALUE resets KEY to its default)"));
    cost::Ledger ledger(cost::Ledger::defaultPath(context.configDir), Clock::system());
    const QString key = args.value(1);
    if (verb == QLatin1String("set")) {
        const QString value = args.value(2).trimmed();
        Result<void> stored = makeError(ErrorCode::Usage, CliText::tr("unknown setting %1 (see gantry-cli settings list)").arg(key));
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
        return context.usage(CliText::tr("unknown setting %1 (see gantry-cli settings list)").arg(key));
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

int diagnosticsCommand(Context &context, const QStringList &args)
{
    if (args.size() != 2 || args.at(0) != QLatin1String("--output"))
        return context.usage(CliText::tr("diagnostics --output FILE"));
    // A keychain that cannot be read does not stop a bug report: the patterns still catch what
    // looks secret.
    std::unique_ptr<SecretStore> secrets = makeDesktopSecretStore(context.configDir);
    const QStringList known = diagnostics::collectKnownSecrets(context.configDir, secrets.get());
    const QString report = diagnostics::buildReport(context.configDir, known);
    if (Result<void> written = diagnostics::writeReport(args.at(1), report); !written)
        return context.fail(written.error());
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("path"), args.at(1)}, {QStringLiteral("bytes"), report.toUtf8().size()}});
    else
        context.out << CliText::tr("Wrote the diagnostic report (secrets removed) to %1.").arg(args.at(1)) << Qt::endl;
    return ExitOk;
}

const Registrar settingsRegistrar("settings",
    "settings list | get KEY | set KEY [VALUE]   preferences shared with the GUI's Settings dialog (idle policy, budgets, endpoints…)",
    settingsCommand);
const Registrar diagnosticsRegistrar("diagnostics", "diagnostics --output FILE   write a bug-report file with every secret removed",
    diagnosticsCommand);

} // namespace
} // namespace gantry::cli
