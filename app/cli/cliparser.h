// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/result.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <vector>

namespace gantry::cli {

struct Context;
struct HostOptions;

// Every command is one table (Command below): its options, its arguments and its subcommands.
// Parsing, `gantry-cli COMMAND --help`, `gantry-cli help COMMAND`, the man page and the bash and zsh
// completions are all written from these tables (clihelp.cpp, clicompletion.cpp), so they cannot
// drift apart. Strings are plain ASCII/UTF-8 literals: the CLI is never translated.

// What a shell offers for a value or an argument.
enum class Complete
{
    Nothing,
    File,
    Directory,
    Host,     // a saved host name (gantry-cli hosts list --names)
    HostPath, // HOST:PATH: saved host names followed by ':'
    Command,  // a gantry-cli command name (help COMMAND)
    Provider, // a provider id (lambda, runpod, …)
};

struct Option
{
    const char *name;             // "parallel" for --parallel
    const char *value = nullptr;  // "N": takes a value (--parallel N or --parallel=N); nullptr: a flag
    const char *help = "";        // one line
    char shortName = 0;           // 'i' for -i
    bool repeatable = false;      // every value is kept (Args::values)
    Complete complete = Complete::Nothing;
    const char *choices = nullptr; // "ask|overwrite|skip": offered by the completion; the handler checks
};

struct Argument
{
    enum Arity { One, Optional, OneOrMore, ZeroOrMore };
    const char *name; // "HOST", "SRC"
    Arity arity = One;
    Complete complete = Complete::Nothing;
    const char *choices = nullptr;
};

// Options declared once and shared by the commands that name the group.
enum Group : unsigned
{
    NoGroup = 0,
    Connection = 1, // -i, --password-env, --known-hosts, …: parsed into Args::host()
    Provider = 2,   // --provider, --endpoint: parsed into Args::provider()
};

class Args;
using Handler = std::function<int(Context &, const Args &)>;

struct Command
{
    const char *name;
    const char *summary;                // one line for the command list, --help and the man page
    std::vector<Option> options = {};
    std::vector<Argument> arguments = {};
    unsigned groups = NoGroup;
    // Words after "--" reach the handler untouched (Args::rest()), e.g. the remote command of
    // exec; without it, "--" only ends the options (a name that starts with '-' goes after it).
    const char *rest = nullptr;
    bool needsRest = false;               // "-- REST" must be there
    std::vector<const char *> usage = {}; // usage lines when the arguments alone do not say it
    std::vector<const char *> notes = {}; // more lines for --help and the man page
    std::vector<Command> subcommands = {};
    const char *defaultSubcommand = nullptr; // `hosts` alone is `hosts list`
    std::vector<const char *> aliases = {};  // `job ls` is `job list`
    bool needsConfig = true;                 // false: never creates the config directory (help)
    Handler run = {};
};

// The connection and provider options, parsed and checked (parsing fills the one that the command's
// groups name).
struct ProviderChoice
{
    QString provider; // empty: the caller's default
    QString endpoint;
};

// What the parser found for one command, by the names of its table.
class Args
{
public:
    bool has(const char *option) const;       // a flag or an option given at least once
    QString value(const char *option, const QString &fallback = {}) const; // its last value
    std::optional<QString> optional(const char *option) const;
    QStringList values(const char *option) const; // every value, in order (repeatable options)
    // A whole number or a number in [lo, hi]; nullopt when the option is absent, a usage error
    // naming the option and the range when it is malformed.
    Result<std::optional<qint64>> integer(const char *option, qint64 lo, qint64 hi) const;
    Result<std::optional<double>> number(const char *option, double lo, double hi) const;

    QString arg(const char *argument) const;      // one argument by its name ("HOST")
    QStringList list(const char *argument) const; // a variadic argument's words
    QStringList positional() const { return m_positional; } // every argument, in order
    QStringList rest() const { return m_rest; }   // the words after "--" (Command::rest)
    bool hasRest() const { return m_hasRest; }

    const HostOptions &host() const;
    const ProviderChoice &provider() const { return m_provider; }
    const Command &command() const { return *m_command; } // the (sub)command that runs

private:
    friend class Parser;
    const QStringList *find(const char *option) const;

    const Command *m_command = nullptr;
    QHash<QString, QStringList> m_options;
    QHash<QString, QStringList> m_arguments;
    QStringList m_positional;
    QStringList m_rest;
    bool m_hasRest = false;
    std::shared_ptr<HostOptions> m_host;
    ProviderChoice m_provider;
};

// The options of every command (--config-dir, --json, --help) and of the groups above.
const std::vector<Option> &globalOptions();
const std::vector<Option> &groupOptions(Group group);
// One option of a group, for a command that takes it alone (hosts add takes -i and --password-env).
Option sharedOption(Group group, const char *name);
// A command's options with those of its groups, as the parser accepts them (globals apart).
std::vector<Option> effectiveOptions(const Command &command);

// Commands register themselves from their own .cpp file with a static Registrar.
struct Registrar
{
    explicit Registrar(Command command);
};

const std::vector<Command> &commands(); // sorted by name
const Command *findCommand(const QString &name);
const Command *findSubcommand(const Command &parent, const QString &name);

// Parses the words after the command name and runs the handler; prints help for --help, and
// the error with the command's usage (on stderr, exit 2) for an unknown option or a missing or
// extra argument.
int runCommand(Context &context, const Command &command, const QStringList &words);

} // namespace gantry::cli
