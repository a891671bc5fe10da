// SPDX-License-Identifier: Apache-2.0
// --help, the man page and the JSON dump, written from the command tables (cliparser.h).
#include "clihelp.h"

#include "clicommand.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cstring>

namespace gantry::cli {
namespace {

QString text(const char *utf8)
{
    return QString::fromUtf8(utf8);
}

QString pathOf(const Command &command, const Command *parent)
{
    return parent ? text(parent->name) + u' ' + text(command.name) : text(command.name);
}

bool takesOptions(const Command &command)
{
    return !effectiveOptions(command).empty();
}

// Lines of "  LEFT   description", the descriptions in one column.
QString columns(const QList<std::pair<QString, QString>> &rows)
{
    qsizetype width = 0;
    for (const auto &[left, right] : rows)
        width = std::max(width, left.size());
    width = std::min<qsizetype>(width, 30);
    QString out;
    for (const auto &[left, right] : rows) {
        out += QStringLiteral("  ") + left;
        if (left.size() > width)
            out += QLatin1Char('\n') + QString(width + 2, QLatin1Char(' '));
        else
            out += QString(width - left.size(), QLatin1Char(' '));
        out += QStringLiteral("   ") + right + QLatin1Char('\n');
    }
    return out;
}

// "-i, --identity KEYFILE" and "    --known-hosts FILE": long names in one column.
QString optionRows(const std::vector<Option> &options)
{
    const bool anyShort = std::any_of(options.begin(), options.end(), [](const Option &option) { return option.shortName != 0; });
    QList<std::pair<QString, QString>> rows;
    for (const Option &option : options)
        rows.append({(anyShort && !option.shortName ? QStringLiteral("    ") : QString()) + optionText(option), text(option.help)});
    return columns(rows);
}

// A summary as the first sentence of a help text.
QString sentence(const char *summary)
{
    QString out = text(summary);
    if (!out.isEmpty())
        out[0] = out.at(0).toUpper();
    return out.endsWith(u'.') ? out : out + u'.';
}

// A command's options without its groups' (listed apart) and, for a subcommand, without those it
// inherits from its parent.
std::vector<Option> ownOptions(const Command &command, const Command *parent = nullptr)
{
    std::vector<Option> own;
    for (const Option &option : command.options) {
        const bool inherited = parent && std::any_of(parent->options.begin(), parent->options.end(),
                                                     [&option](const Option &p) { return std::strcmp(p.name, option.name) == 0; });
        if (!inherited)
            own.push_back(option);
    }
    return own;
}

QString groupSections(unsigned groups)
{
    QString out;
    if (groups & Provider)
        out += QStringLiteral("Provider options:\n") + optionRows(groupOptions(Provider));
    if (groups & Connection)
        out += QStringLiteral("Connection options:\n") + optionRows(groupOptions(Connection));
    return out;
}

QString notesText(const Command &command)
{
    QString out;
    for (const char *note : command.notes)
        out += text(note) + u'\n';
    return out;
}

QJsonArray optionsJson(const std::vector<Option> &options, const QString &group)
{
    QJsonArray array;
    for (const Option &option : options) {
        QJsonObject object{{QStringLiteral("name"), text(option.name)},
                           {QStringLiteral("long"), QString(QStringLiteral("--") + text(option.name))},
                           {QStringLiteral("help"), text(option.help)},
                           {QStringLiteral("repeatable"), option.repeatable}};
        if (option.shortName)
            object.insert(QStringLiteral("short"), QString(QStringLiteral("-") + QLatin1Char(option.shortName)));
        if (option.value)
            object.insert(QStringLiteral("value"), text(option.value));
        if (option.choices)
            object.insert(QStringLiteral("choices"), QJsonArray::fromStringList(text(option.choices).split(u'|')));
        if (!group.isEmpty())
            object.insert(QStringLiteral("group"), group);
        array.append(object);
    }
    return array;
}

} // namespace

const std::vector<ExitCodeInfo> &exitCodes()
{
    static const std::vector<ExitCodeInfo> codes{
        {ExitOk, "ok"},
        {ExitFailure, "failed"},
        {ExitUsage, "usage: an unknown option, a missing or extra argument, a value out of range"},
        {ExitConnect, "cannot connect or authenticate"},
        {ExitHostKey, "host key unknown (not accepted) or changed"},
        {ExitProvider, "a cloud provider refused or did not answer"},
        {ExitInterrupted, "interrupted by Ctrl+C (143: by SIGTERM)"},
    };
    return codes;
}

QString globalUsage()
{
    return QStringLiteral("[--config-dir DIR] [--json]");
}

QString argumentText(const Argument &argument)
{
    QString name = argument.choices ? text(argument.choices) : text(argument.name);
    switch (argument.arity) {
    case Argument::One: return name;
    case Argument::Optional: return u'[' + name + u']';
    case Argument::OneOrMore: return name + QStringLiteral("…");
    case Argument::ZeroOrMore: return u'[' + name + QStringLiteral("…]");
    }
    return name;
}

QString optionText(const Option &option)
{
    QString out = option.shortName ? QStringLiteral("-%1, ").arg(QLatin1Char(option.shortName)) : QString();
    out += QStringLiteral("--") + text(option.name);
    if (option.value)
        out += u' ' + text(option.value);
    return out;
}

QStringList usageLines(const Command &command, const Command *parent)
{
    const QString path = pathOf(command, parent);
    QStringList lines;
    if (!command.subcommands.empty()) {
        for (const Command &sub : command.subcommands)
            lines += usageLines(sub, &command);
        return lines;
    }
    if (!command.usage.empty()) {
        for (const char *line : command.usage)
            lines << path + u' ' + text(line);
        return lines;
    }
    QString line = path;
    if (takesOptions(command))
        line += QStringLiteral(" [OPTIONS]");
    for (const Argument &argument : command.arguments)
        line += u' ' + argumentText(argument);
    if (command.rest)
        line += command.needsRest ? QStringLiteral(" -- %1").arg(text(command.rest)) : QStringLiteral(" [-- %1]").arg(text(command.rest));
    lines << line;
    return lines;
}

QString helpText(const Command &command, const Command *parent)
{
    QString out;
    const QStringList lines = usageLines(command, parent);
    for (qsizetype i = 0; i < lines.size(); ++i)
        out += (i == 0 ? QStringLiteral("Usage: ") : QStringLiteral("       ")) + QStringLiteral("gantry-cli ") + globalUsage() + u' ' + lines.at(i) + u'\n';
    out += sentence(command.summary) + u'\n' + notesText(command);
    if (!command.subcommands.empty()) {
        QList<std::pair<QString, QString>> rows;
        for (const Command &sub : command.subcommands) {
            QString name = text(sub.name);
            for (const char *alias : sub.aliases)
                name += u'|' + text(alias);
            rows.append({name, text(sub.summary)});
        }
        out += QStringLiteral("\nSubcommands%1:\n").arg(command.defaultSubcommand ? QStringLiteral(" (default: %1)").arg(text(command.defaultSubcommand)) : QString())
            + columns(rows);
        if (!command.options.empty())
            out += QStringLiteral("Options of every subcommand:\n") + optionRows(command.options);
        for (const Command &sub : command.subcommands) {
            if (const std::vector<Option> own = ownOptions(sub, &command); !own.empty())
                out += QStringLiteral("Options of %1 %2:\n").arg(text(command.name), text(sub.name)) + optionRows(own);
        }
        unsigned groups = command.groups;
        for (const Command &sub : command.subcommands)
            groups |= sub.groups;
        out += groupSections(groups);
    } else {
        out += u'\n';
        if (!ownOptions(command).empty())
            out += QStringLiteral("Options:\n") + optionRows(ownOptions(command));
        out += groupSections(command.groups);
    }
    out += QStringLiteral("Global options:\n") + optionRows(globalOptions());
    out += QStringLiteral("Exit codes and every command: gantry-cli --help\n");
    return out;
}

QString mainHelp()
{
    QString out = QStringLiteral(
        "Usage: gantry-cli [--config-dir DIR] [--json] COMMAND [ARGS…]\n"
        "Rent, verify, use and watch cloud GPUs from scripts. HOST is a saved host name or [user@]host[:port].\n"
        "Output is always in English, whatever LANGUAGE/LANG say, so scripts can parse it (the desktop app\n"
        "`gantry` follows the language setting or the system locale).\n\n");
    std::vector<Option> global = globalOptions();
    global.push_back(Option{.name = "version", .help = "print the version and exit"});
    out += QStringLiteral("Global options (before or after COMMAND):\n") + optionRows(global);
    out += QStringLiteral("Connection options (every command that reaches a host):\n") + optionRows(groupOptions(Connection));
    out += QStringLiteral("Provider options (commands that call a cloud provider):\n") + optionRows(groupOptions(Provider));
    out += QStringLiteral("Exit codes:\n");
    QList<std::pair<QString, QString>> codes;
    for (const ExitCodeInfo &code : exitCodes())
        codes.append({QString::number(code.code), text(code.meaning)});
    out += columns(codes) + QStringLiteral("  `exec` exits with the remote command's status.\n\n");
    out += QStringLiteral(
        "`gantry-cli help COMMAND` or `gantry-cli COMMAND --help` shows one command's usage and options;\n"
        "`gantry-cli generate man|bash|zsh` writes the man page or a shell completion script (the package\n"
        "installs all three); `gantry-cli --json help` describes every command as JSON.\n\nCommands:\n");
    QList<std::pair<QString, QString>> rows;
    for (const Command &command : commands())
        rows.append({text(command.name), text(command.summary)});
    return out + columns(rows);
}

int printHelp(Context &context, const Command &command, const Command *parent)
{
    if (context.json)
        context.out << QString::fromUtf8(QJsonDocument(commandJson(command, parent)).toJson(QJsonDocument::Compact)) << '\n';
    else
        context.out << helpText(command, parent);
    context.out.flush();
    return ExitOk;
}

QJsonObject commandJson(const Command &command, const Command *parent)
{
    QJsonArray arguments;
    for (const Argument &argument : command.arguments) {
        static const char *const arity[] = {"one", "optional", "one-or-more", "zero-or-more"};
        arguments.append(QJsonObject{{QStringLiteral("name"), text(argument.name)}, {QStringLiteral("arity"), text(arity[argument.arity])}});
    }
    QJsonArray options = optionsJson(command.options, {});
    for (const QJsonValue &value : optionsJson(groupOptions(Provider), QStringLiteral("provider")))
        if (command.groups & Provider)
            options.append(value);
    for (const QJsonValue &value : optionsJson(groupOptions(Connection), QStringLiteral("connection")))
        if (command.groups & Connection)
            options.append(value);
    QJsonArray subcommands;
    for (const Command &sub : command.subcommands)
        subcommands.append(commandJson(sub, &command));
    QJsonArray aliases;
    for (const char *alias : command.aliases)
        aliases.append(text(alias));
    return QJsonObject{{QStringLiteral("name"), text(command.name)},
                       {QStringLiteral("path"), pathOf(command, parent)},
                       {QStringLiteral("summary"), text(command.summary)},
                       {QStringLiteral("usage"), QJsonArray::fromStringList(usageLines(command, parent))},
                       {QStringLiteral("options"), options},
                       {QStringLiteral("arguments"), arguments},
                       {QStringLiteral("rest"), command.rest ? QJsonValue(text(command.rest)) : QJsonValue()},
                       {QStringLiteral("subcommands"), subcommands},
                       {QStringLiteral("aliases"), aliases}};
}

QJsonObject tablesJson()
{
    QJsonArray list;
    for (const Command &command : commands())
        list.append(commandJson(command));
    QJsonArray codes;
    for (const ExitCodeInfo &code : exitCodes())
        codes.append(QJsonObject{{QStringLiteral("code"), code.code}, {QStringLiteral("meaning"), text(code.meaning)}});
    return QJsonObject{{QStringLiteral("global_options"), optionsJson(globalOptions(), QStringLiteral("global"))},
                       {QStringLiteral("commands"), list},
                       {QStringLiteral("exit_codes"), codes}};
}

} // namespace gantry::cli
