// SPDX-License-Identifier: Apache-2.0
#include "cliparser.h"

#include "clicommand.h"
#include "cliconnect.h"
#include "clihelp.h"

#include "core/providers/providerregistry.h"
#include "core/util/paths.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gantry::cli {
namespace {

std::vector<Command> &registry()
{
    static std::vector<Command> list;
    return list;
}

QString text(const char *utf8)
{
    return QString::fromUtf8(utf8);
}

bool named(const char *a, const char *b)
{
    return a && b && std::strcmp(a, b) == 0;
}

// A subcommand inherits its parent's options and groups, so `keys --provider P list` and
// `keys list --provider P` are the same.
void inherit(Command &parent)
{
    for (Command &sub : parent.subcommands) {
        sub.options.insert(sub.options.begin(), parent.options.begin(), parent.options.end());
        sub.groups |= parent.groups;
        sub.needsConfig = sub.needsConfig && parent.needsConfig;
    }
}

const Option *findOption(const std::vector<Option> &options, const QString &longName, QChar shortName)
{
    for (const Option &option : options) {
        const bool isLong = !longName.isEmpty() && longName == text(option.name);
        const bool isShort = !shortName.isNull() && option.shortName && QLatin1Char(option.shortName) == shortName;
        if (isLong || isShort)
            return &option;
    }
    return nullptr;
}

// One of names among a command's own words, not after "--" (where --help belongs to a remote command).
bool givesFlag(const QStringList &words, std::initializer_list<const char *> names)
{
    for (const QString &word : words) {
        if (word == QLatin1String("--"))
            return false;
        for (const char *name : names) {
            if (word == QLatin1String(name))
                return true;
        }
    }
    return false;
}

bool asksForHelp(const QStringList &words)
{
    return givesFlag(words, {"--help", "-h"});
}

// The help in text, or with --json (before or after the command) as JSON.
int helpFor(Context &context, const QStringList &words, const Command &command, const Command *parent)
{
    context.json = context.json || givesFlag(words, {"--json"});
    return printHelp(context, command, parent);
}

bool isOptionWord(const QString &word)
{
    // "-" alone and "-5" are arguments (standard input, a negative number).
    return word.size() > 1 && word.startsWith(QLatin1Char('-')) && !word.at(1).isDigit();
}

} // namespace

class Parser
{
public:
    explicit Parser(const Command &command)
        : m_command(command)
        , m_options(effectiveOptions(command))
    {
        m_options.insert(m_options.end(), globalOptions().begin(), globalOptions().end());
    }

    Result<Args> parse(const QStringList &words)
    {
        Args args;
        args.m_command = &m_command;
        QStringList positional;
        bool dashes = false;
        for (qsizetype i = 0; i < words.size(); ++i) {
            const QString &word = words.at(i);
            if (dashes) {
                (m_command.rest ? args.m_rest : positional).append(word);
            } else if (word == QLatin1String("--")) {
                dashes = true;
                args.m_hasRest = m_command.rest != nullptr;
            } else if (!isOptionWord(word)) {
                positional.append(word);
            } else if (Result<void> taken = takeOption(args, words, i); !taken) {
                return taken.error();
            }
        }
        if (Result<void> placed = place(args, positional); !placed)
            return placed.error();
        if (m_command.needsRest && args.m_rest.isEmpty())
            return usageError(QStringLiteral("missing -- %1").arg(text(m_command.rest)));
        return args;
    }

    // The global options found among the command's words take effect, then the groups' values
    // are checked and kept.
    static Result<void> applyShared(Context &context, Args &args, const Command &command)
    {
        if (args.has("json"))
            context.json = true;
        if (args.has("config-dir"))
            context.configDir = args.value("config-dir");
        if (command.groups & Connection) {
            Result<HostOptions> host = hostOptionsFrom(args);
            if (!host)
                return host.error();
            args.m_host = std::make_shared<HostOptions>(*host);
        }
        if (command.groups & Provider) {
            ProviderChoice choice{args.value("provider"), args.value("endpoint")};
            if (!choice.provider.isEmpty() && !providers::knownProviderIds().contains(choice.provider))
                return Error{ErrorCode::Usage, QStringLiteral("unknown provider \"%1\" (known: %2)")
                                                   .arg(choice.provider, providers::knownProviderIds().join(QStringLiteral(", ")))};
            if (!choice.endpoint.isEmpty() && choice.provider.isEmpty())
                return Error{ErrorCode::Usage, QStringLiteral("--endpoint needs --provider (which provider the URL is for)")};
            args.m_provider = choice;
        }
        return {};
    }

private:
    Error usageError(const QString &message) const { return Error{ErrorCode::Usage, message}; }

    Result<void> takeOption(Args &args, const QStringList &words, qsizetype &i)
    {
        const QString &word = words.at(i);
        const bool isLong = word.startsWith(QLatin1String("--"));
        const QString name = isLong ? word.mid(2).section(QLatin1Char('='), 0, 0) : QString();
        const Option *option = isLong ? findOption(m_options, name, {})
                                      : word.size() == 2 ? findOption(m_options, {}, word.at(1)) : nullptr;
        if (!option)
            return usageError(QStringLiteral("unknown option %1").arg(isLong ? QStringLiteral("--") + name : word));
        const QString shown = isLong ? QStringLiteral("--") + name : word;
        QString value;
        if (isLong && word.contains(QLatin1Char('='))) {
            if (!option->value)
                return usageError(QStringLiteral("%1 takes no value").arg(shown));
            value = word.section(QLatin1Char('='), 1);
        } else if (option->value) {
            if (i + 1 >= words.size() || words.at(i + 1) == QLatin1String("--"))
                return usageError(QStringLiteral("%1 needs a value (%2)").arg(shown, text(option->value)));
            value = words.at(++i);
        }
        QStringList &values = args.m_options[text(option->name)];
        if (!option->repeatable)
            values.clear();
        values.append(value);
        return {};
    }

    // Hands the positional words to the declared arguments, left to right; a variadic one takes
    // what the others leave.
    Result<void> place(Args &args, const QStringList &words) const
    {
        qsizetype required = 0;
        for (const Argument &argument : m_command.arguments)
            required += argument.arity == Argument::One || argument.arity == Argument::OneOrMore ? 1 : 0;
        qsizetype extra = std::max<qsizetype>(0, words.size() - required);
        qsizetype next = 0;
        for (const Argument &argument : m_command.arguments) {
            qsizetype take = 1;
            if (argument.arity == Argument::Optional) {
                take = std::min<qsizetype>(extra, 1);
                extra -= take;
            } else if (argument.arity == Argument::OneOrMore || argument.arity == Argument::ZeroOrMore) {
                take = (argument.arity == Argument::OneOrMore ? 1 : 0) + extra;
                extra = 0;
            }
            if (next + take > words.size())
                return usageError(QStringLiteral("missing %1").arg(text(argument.name)));
            args.m_arguments.insert(text(argument.name), words.mid(next, take));
            next += take;
        }
        if (next < words.size())
            return usageError(QStringLiteral("unexpected argument %1").arg(words.at(next)));
        args.m_positional = words;
        return {};
    }

    const Command &m_command;
    std::vector<Option> m_options;
};

namespace {

// Which subcommand the words name: the first word that is not an option (options before it are
// the parent's or global ones, and may take a value).
struct Selection
{
    const Command *command = nullptr;
    QStringList words;     // without the subcommand's name
    QString unknown;       // a word that names no subcommand
    bool implicit = false; // the parent's default subcommand, no word named it
};

Selection selectSubcommand(const Command &parent, const QStringList &words)
{
    std::vector<Option> options = effectiveOptions(parent);
    options.insert(options.end(), globalOptions().begin(), globalOptions().end());
    for (qsizetype i = 0; i < words.size(); ++i) {
        const QString &word = words.at(i);
        if (word == QLatin1String("--"))
            break;
        if (isOptionWord(word)) {
            const bool isLong = word.startsWith(QLatin1String("--"));
            const Option *option = isLong ? findOption(options, word.mid(2).section(QLatin1Char('='), 0, 0), {})
                                          : findOption(options, {}, word.at(1));
            if (option && option->value && !word.contains(QLatin1Char('=')))
                ++i;
            continue;
        }
        QStringList rest = words;
        rest.removeAt(i);
        if (const Command *sub = findSubcommand(parent, word))
            return Selection{sub, rest, {}};
        return Selection{nullptr, words, word};
    }
    if (parent.defaultSubcommand)
        return Selection{findSubcommand(parent, text(parent.defaultSubcommand)), words, {}, true};
    return Selection{nullptr, words, {}};
}

// An unknown option, a missing or extra argument: one line on stderr (and {"error": …} with --json)
// with the command's usage and where its options are described.
int usageFailure(Context &context, const Error &error, const Command &command, const Command *parent)
{
    const QString path = parent ? text(parent->name) + u' ' + text(command.name) : text(command.name);
    QStringList forms;
    if (!command.subcommands.empty()) {
        QStringList names;
        for (const Command &sub : command.subcommands)
            names << text(sub.name);
        forms << QStringLiteral("gantry-cli %1 %2 …").arg(path, names.join(u'|'));
    } else {
        for (const QString &line : usageLines(command, parent))
            forms << QStringLiteral("gantry-cli ") + line;
    }
    const QString stop = error.message.endsWith(QStringLiteral("…")) ? QString() : QStringLiteral(".");
    return context.fail(Error{ErrorCode::Usage, QStringLiteral("%1: %2%3 Usage: %4 (options: gantry-cli %1 --help)")
                                                    .arg(path, error.message, stop, forms.join(QStringLiteral(" | ")))});
}

} // namespace

int runCommand(Context &context, const Command &top, const QStringList &words)
{
    const Command *command = &top;
    const Command *parent = nullptr;
    QStringList own = words;
    context.commandName = text(top.name);
    if (!top.subcommands.empty()) {
        const Selection selection = selectSubcommand(top, words);
        if (!selection.command || selection.implicit) {
            // `hosts --help` is the help of hosts, not of its default subcommand.
            if (asksForHelp(words))
                return helpFor(context, words, top, nullptr);
        }
        if (!selection.command) {
            const QString message = selection.unknown.isEmpty()
                ? QStringLiteral("missing SUBCOMMAND")
                : QStringLiteral("unknown subcommand \"%1\"").arg(selection.unknown);
            return usageFailure(context, Error{ErrorCode::Usage, message}, top, nullptr);
        }
        parent = &top;
        command = selection.command;
        own = selection.words;
        context.commandName += u' ' + text(command->name);
    }
    if (asksForHelp(own))
        return helpFor(context, own, *command, parent);
    Result<Args> args = Parser(*command).parse(own);
    if (!args)
        return usageFailure(context, args.error(), *command, parent);
    if (Result<void> shared = Parser::applyShared(context, *args, *command); !shared)
        return context.fail(shared.error());
    if (command->needsConfig)
        context.configDir = paths::configDir(context.configDir);
    const int code = command->run(context, *args);
    context.out.flush();
    context.err.flush();
    return code;
}

// --- Args --------------------------------------------------------------------------------------

const QStringList *Args::find(const char *option) const
{
    const auto it = m_options.constFind(text(option));
    return it == m_options.cend() ? nullptr : &*it;
}

bool Args::has(const char *option) const
{
    return find(option) != nullptr;
}

QString Args::value(const char *option, const QString &fallback) const
{
    const QStringList *values = find(option);
    return values ? values->constLast() : fallback;
}

std::optional<QString> Args::optional(const char *option) const
{
    const QStringList *values = find(option);
    return values ? std::optional<QString>(values->constLast()) : std::nullopt;
}

QStringList Args::values(const char *option) const
{
    const QStringList *values = find(option);
    return values ? *values : QStringList();
}

Result<std::optional<qint64>> Args::integer(const char *option, qint64 lo, qint64 hi) const
{
    const std::optional<QString> given = optional(option);
    if (!given)
        return std::optional<qint64>();
    bool ok = false;
    const qint64 value = given->toLongLong(&ok);
    if (!ok || value < lo || value > hi)
        return Error{ErrorCode::Usage, QStringLiteral("--%1 takes a whole number from %2 to %3, not \"%4\"")
                                           .arg(text(option)).arg(lo).arg(hi).arg(*given)};
    return std::optional<qint64>(value);
}

Result<std::optional<double>> Args::number(const char *option, double lo, double hi) const
{
    const std::optional<QString> given = optional(option);
    if (!given)
        return std::optional<double>();
    bool ok = false;
    const double value = given->toDouble(&ok);
    if (!ok || !std::isfinite(value) || value < lo || value > hi)
        return Error{ErrorCode::Usage, QStringLiteral("--%1 takes a number from %2 to %3, not \"%4\"")
                                           .arg(text(option)).arg(lo).arg(hi).arg(*given)};
    return std::optional<double>(value);
}

QString Args::arg(const char *argument) const
{
    return m_arguments.value(text(argument)).value(0);
}

QStringList Args::list(const char *argument) const
{
    return m_arguments.value(text(argument));
}

const HostOptions &Args::host() const
{
    static const HostOptions none;
    return m_host ? *m_host : none;
}

// --- the tables --------------------------------------------------------------------------------

const std::vector<Option> &globalOptions()
{
    static const std::vector<Option> options{
        {.name = "config-dir", .value = "DIR", .help = "configuration directory (default $GANTRY_CONFIG_DIR, else ~/.config/gantry)",
         .complete = Complete::Directory},
        {.name = "json", .help = "machine-readable output: one JSON object per line"},
        {.name = "help", .help = "show this help and exit", .shortName = 'h'},
    };
    return options;
}

const std::vector<Option> &groupOptions(Group group)
{
    static const std::vector<Option> connection{
        {.name = "identity", .value = "KEYFILE", .help = "private key to log in with (repeatable)", .shortName = 'i',
         .repeatable = true, .complete = Complete::File},
        {.name = "password-env", .value = "VAR", .help = "read the password (or the key's passphrase) from the environment variable VAR"},
        {.name = "known-hosts", .value = "FILE", .help = "known_hosts file to check host keys against (default ~/.ssh/known_hosts)",
         .complete = Complete::File},
        {.name = "accept-new-host-key", .help = "trust and remember a host key seen for the first time (a changed key is still refused)"},
        {.name = "connect-timeout", .value = "SECONDS", .help = "give up connecting after SECONDS (default 15)"},
        {.name = "max-output-mib", .value = "MIB", .help = "output a remote command may send, 1 to 1048576 MiB (default 64)"},
        {.name = "max-entries", .value = "N", .help = "names one remote folder may list (default 2000000)"},
    };
    static const std::vector<Option> provider{
        {.name = "provider", .value = "P", .help = "the cloud provider (default: the one set in settings, else the first with a key)",
         .complete = Complete::Provider},
        {.name = "endpoint", .value = "URL", .help = "the provider's API base URL (a proxy, an emulator); needs --provider"},
    };
    static const std::vector<Option> none;
    return group == Connection ? connection : group == Provider ? provider : none;
}

Option sharedOption(Group group, const char *name)
{
    for (const Option &option : groupOptions(group)) {
        if (named(option.name, name))
            return option;
    }
    qFatal("no shared option %s", name);
}

std::vector<Option> effectiveOptions(const Command &command)
{
    std::vector<Option> options = command.options;
    for (const Group group : {Provider, Connection}) {
        if (command.groups & group)
            options.insert(options.end(), groupOptions(group).begin(), groupOptions(group).end());
    }
    return options;
}

Registrar::Registrar(Command command)
{
    inherit(command);
    registry().push_back(std::move(command));
}

const std::vector<Command> &commands()
{
    std::vector<Command> &list = registry();
    std::sort(list.begin(), list.end(), [](const Command &a, const Command &b) { return std::strcmp(a.name, b.name) < 0; });
    return list;
}

const Command *findCommand(const QString &name)
{
    for (const Command &command : commands()) {
        if (name == text(command.name))
            return &command;
    }
    return nullptr;
}

const Command *findSubcommand(const Command &parent, const QString &name)
{
    for (const Command &sub : parent.subcommands) {
        if (name == text(sub.name))
            return &sub;
        for (const char *alias : sub.aliases) {
            if (name == text(alias))
                return &sub;
        }
    }
    return nullptr;
}

} // namespace gantry::cli
