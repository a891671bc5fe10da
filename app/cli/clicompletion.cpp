// SPDX-License-Identifier: Apache-2.0
// The bash and zsh completions, written from the command tables (`gantry-cli generate bash|zsh`):
// command and subcommand names, each one's options, option values with fixed choices, files, and
// saved host names (`gantry-cli hosts list --names`, with the --config-dir of the line) where a
// HOST or a HOST:PATH is expected.
#include "clihelp.h"

#include "core/providers/providerregistry.h"

#include <QMap>

namespace gantry::cli {
namespace {

QString text(const char *utf8)
{
    return QString::fromUtf8(utf8);
}

// A (sub)command with the key the scripts know it by: "upload", "job run".
struct Entry
{
    QString key;
    const Command *command;
    const Command *parent;
};

QList<Entry> entries()
{
    QList<Entry> list;
    for (const Command &command : commands()) {
        list.append({text(command.name), &command, nullptr});
        for (const Command &sub : command.subcommands)
            list.append({text(command.name) + u' ' + text(sub.name), &sub, &command});
    }
    return list;
}

QStringList choicesOf(Complete complete, const char *choices)
{
    if (complete == Complete::Provider)
        return providers::knownProviderIds();
    if (complete == Complete::Command) {
        QStringList names;
        for (const Command &command : commands())
            names << text(command.name);
        return names;
    }
    return choices ? text(choices).split(u'|') : QStringList();
}

// --- bash --------------------------------------------------------------------------------------

// The bash word for a kind of completion; "choice:a b c" for fixed words.
QString bashKind(Complete complete, const char *choices)
{
    const QStringList words = choicesOf(complete, choices);
    if (!words.isEmpty())
        return QStringLiteral("choice:") + words.join(u',');
    switch (complete) {
    case Complete::File: return QStringLiteral("file");
    case Complete::Directory: return QStringLiteral("dir");
    case Complete::Host: return QStringLiteral("host");
    case Complete::HostPath: return QStringLiteral("hostpath");
    default: return QStringLiteral("none");
    }
}

QStringList optionWords(const Option &option)
{
    QStringList words{QStringLiteral("--") + text(option.name)};
    if (option.shortName)
        words << QStringLiteral("-") + QLatin1Char(option.shortName);
    return words;
}

// `case` branches: each pattern list (joined with |) runs its body.
QString caseBranches(const QMap<QString, QStringList> &patternsByBody, const QString &indent)
{
    QString out;
    for (auto it = patternsByBody.cbegin(); it != patternsByBody.cend(); ++it)
        out += indent + it.value().join(u'|') + QStringLiteral(") ") + it.key() + QStringLiteral(" ;;\n");
    return out;
}

QString quoted(const QString &word)
{
    return u'"' + word + u'"';
}

QString bashTables()
{
    QMap<QString, QStringList> options;    // body → keys
    QMap<QString, QStringList> values;     // kind → "key option" patterns
    QMap<QString, QStringList> arguments;  // kinds → keys
    QMap<QString, QStringList> subcommands;
    QMap<QString, QStringList> canonical;
    QStringList rest;
    std::vector<Option> globals = globalOptions();
    QStringList top{QStringLiteral("--version")};
    for (const Option &option : globals)
        top += optionWords(option);
    options[QStringLiteral("echo '%1'").arg(top.join(u' '))] << QStringLiteral("\"\"");
    for (const Entry &entry : entries()) {
        QStringList words;
        std::vector<Option> all = effectiveOptions(*entry.command);
        all.insert(all.end(), globals.begin(), globals.end());
        for (const Option &option : all) {
            words += optionWords(option);
            if (!option.value)
                continue;
            for (const QString &word : optionWords(option))
                values[bashKind(option.complete, option.choices)] << quoted(entry.key + u' ' + word);
        }
        options[QStringLiteral("echo '%1'").arg(words.join(u' '))] << quoted(entry.key);
        QStringList kinds;
        for (const Argument &argument : entry.command->arguments) {
            const bool variadic = argument.arity == Argument::OneOrMore || argument.arity == Argument::ZeroOrMore;
            kinds << bashKind(argument.complete, argument.choices) + (variadic ? QStringLiteral("*") : QString());
        }
        arguments[QStringLiteral("echo '%1'").arg(kinds.join(u' '))] << quoted(entry.key);
        if (entry.command->rest)
            rest << quoted(entry.key);
        QStringList subs;
        for (const Command &sub : entry.command->subcommands) {
            subs << text(sub.name);
            for (const char *alias : sub.aliases) {
                subs << text(alias);
                canonical[QStringLiteral("echo '%1'").arg(text(sub.name))] << quoted(entry.key + u' ' + text(alias));
            }
        }
        if (!subs.isEmpty())
            subcommands[QStringLiteral("echo '%1'").arg(subs.join(u' '))] << quoted(entry.key);
    }
    QString out;
    out += QStringLiteral("# Every option of a (sub)command, the global ones included.\n_gantry_cli_options()\n{\n    case $1 in\n")
        + caseBranches(options, QStringLiteral("        ")) + QStringLiteral("    esac\n}\n\n");
    out += QStringLiteral("# How an option's value completes (\"$key $option\"); no match: the option takes no value.\n"
                          "_gantry_cli_value_kind()\n{\n    case $1 in\n");
    QMap<QString, QStringList> valueBodies;
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        valueBodies[QStringLiteral("echo '%1'").arg(it.key())] = it.value();
    out += caseBranches(valueBodies, QStringLiteral("        "))
        + QStringLiteral("        *\" --config-dir\") echo dir ;;\n        *) return 1 ;;\n    esac\n}\n\n");
    out += QStringLiteral("# The arguments' kinds, in order; a trailing * marks one that takes several words.\n"
                          "_gantry_cli_arguments()\n{\n    case $1 in\n")
        + caseBranches(arguments, QStringLiteral("        ")) + QStringLiteral("    esac\n}\n\n");
    out += QStringLiteral("_gantry_cli_subcommands()\n{\n    case $1 in\n") + caseBranches(subcommands, QStringLiteral("        "))
        + QStringLiteral("        *) return 1 ;;\n    esac\n}\n\n");
    out += QStringLiteral("_gantry_cli_canonical()\n{\n    case \"$1 $2\" in\n") + caseBranches(canonical, QStringLiteral("        "))
        + QStringLiteral("        *) echo \"$2\" ;;\n    esac\n}\n\n");
    out += QStringLiteral("# Commands whose words after \"--\" are passed on (a remote command).\n_gantry_cli_has_rest()\n{\n    case $1 in\n        ")
        + rest.join(u'|') + QStringLiteral(") return 0 ;;\n    esac\n    return 1\n}\n\n");
    return out;
}

const char *const kBashEngine = R"BASH(_gantry_cli_hosts()
{
    local config=() i
    for ((i = 1; i < ${#words[@]}; i++)); do
        case ${words[i]} in
            --config-dir) config=(--config-dir "${words[i + 1]}") ;;
            --config-dir=*) config=("${words[i]}") ;;
        esac
    done
    "${words[0]}" "${config[@]}" hosts list --names 2>/dev/null
}

_gantry_cli_complete_kind()
{
    local kind=$1 prefix
    case $kind in
        choice:*)
            local list=${kind#choice:}
            COMPREPLY+=($(compgen -W "${list//,/ }" -- "$cur"))
            ;;
        file) compopt -o filenames 2>/dev/null; COMPREPLY+=($(compgen -f -- "$cur")) ;;
        dir) compopt -o filenames 2>/dev/null; COMPREPLY+=($(compgen -d -- "$cur")) ;;
        host) COMPREPLY+=($(compgen -W "$(_gantry_cli_hosts)" -- "$cur")) ;;
        hostpath)
            [[ $cur == *:* ]] && return
            compopt -o nospace 2>/dev/null
            COMPREPLY+=($(compgen -S : -W "$(_gantry_cli_hosts)" -- "$cur"))
            ;;
    esac
}

_gantry_cli()
{
    local cur prev words cword
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion -n =: || return
    else
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
        cur=${words[cword]}
        prev=${words[cword - 1]}
    fi
    COMPREPLY=()

    # The (sub)command named so far and how many of its arguments come before the word completed.
    local key="" count=0 dashes=0 i word
    for ((i = 1; i < cword; i++)); do
        word=${words[i]}
        if ((dashes)); then
            ((count++))
        elif [[ $word == -- ]]; then
            dashes=1
        elif [[ $word == -?* ]]; then
            [[ $word != *=* ]] && _gantry_cli_value_kind "$key $word" >/dev/null && ((i++))
        elif [[ -z $key ]]; then
            key=$word
        elif [[ $key != *' '* ]] && _gantry_cli_subcommands "$key" >/dev/null; then
            key="$key $(_gantry_cli_canonical "$key" "$word")"
        else
            ((count++))
        fi
    done

    if ((dashes)) && _gantry_cli_has_rest "$key"; then
        compopt -o default 2>/dev/null
        return
    fi
    local kind
    if ((!dashes)) && [[ $prev == -?* && $prev != *=* ]] && kind=$(_gantry_cli_value_kind "$key $prev"); then
        _gantry_cli_complete_kind "$kind"
    elif ((!dashes)) && [[ $cur == --*=* ]] && kind=$(_gantry_cli_value_kind "$key ${cur%%=*}"); then
        local option=${cur%%=*}
        cur=${cur#*=}
        _gantry_cli_complete_kind "$kind"
        [[ $COMP_WORDBREAKS == *=* ]] || COMPREPLY=("${COMPREPLY[@]/#/$option=}")
    elif ((!dashes)) && [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_gantry_cli_options "$key")" -- "$cur"))
    elif [[ -z $key ]]; then
        COMPREPLY=($(compgen -W "$(_gantry_cli_options '') $_gantry_cli_commands" -- "$cur"))
    elif [[ $key != *' '* ]] && _gantry_cli_subcommands "$key" >/dev/null; then
        COMPREPLY=($(compgen -W "$(_gantry_cli_subcommands "$key")" -- "$cur"))
    else
        # The argument at this position; from a variadic one on, it or any that follows.
        local kinds=($(_gantry_cli_arguments "$key")) n
        for ((n = 0; n < ${#kinds[@]}; n++)); do
            if [[ ${kinds[n]} == *'*' ]] && ((count >= n)); then
                for kind in "${kinds[@]:n}"; do
                    _gantry_cli_complete_kind "${kind%'*'}"
                done
                return
            fi
            if ((n == count)); then
                _gantry_cli_complete_kind "${kinds[n]}"
                return
            fi
        done
    fi
}

complete -F _gantry_cli gantry-cli
)BASH";

// --- zsh ---------------------------------------------------------------------------------------

// Text inside a single-quoted zsh word, and inside _arguments' [description] or :message:.
QString zshQuote(const QString &plain)
{
    QString out = plain;
    out.replace(u'\\', QStringLiteral("\\\\")).replace(u'[', QStringLiteral("\\[")).replace(u']', QStringLiteral("\\]"))
        .replace(u':', QStringLiteral("\\:")).replace(u'\'', QStringLiteral("'\\''"));
    return out;
}

QString zshFunction(const QString &key)
{
    QString name = key;
    return QStringLiteral("_gantry_cli_") + name.replace(u' ', u'_').replace(u'-', u'_');
}

QString zshAction(Complete complete, const char *choices)
{
    const QStringList words = choicesOf(complete, choices);
    if (!words.isEmpty())
        return u'(' + words.join(u' ') + u')';
    switch (complete) {
    case Complete::File: return QStringLiteral("_files");
    case Complete::Directory: return QStringLiteral("_files -/");
    case Complete::Host: return QStringLiteral("_gantry_cli_saved_hosts");
    case Complete::HostPath: return QStringLiteral("_gantry_cli_saved_host_paths");
    default: return QStringLiteral(" ");
    }
}

QString zshOptionSpecs(const std::vector<Option> &options)
{
    QString out;
    for (const Option &option : options) {
        const QString help = QStringLiteral("[%1]").arg(zshQuote(text(option.help)));
        const QString value = option.value ? QStringLiteral(":%1:%2").arg(zshQuote(text(option.value)), zshAction(option.complete, option.choices))
                                           : QString();
        const QString star = option.repeatable ? QStringLiteral("*") : QString();
        const QString longName = QStringLiteral("--") + text(option.name) + (option.value ? QStringLiteral("=") : QString());
        if (option.shortName) {
            const QString exclusive = option.repeatable ? QString() : QStringLiteral("(-%1 --%2)").arg(QLatin1Char(option.shortName)).arg(text(option.name));
            out += QStringLiteral("    '%1%2'{-%3,%4}'%5%6' \\\n").arg(exclusive, star).arg(QLatin1Char(option.shortName)).arg(longName, help, value);
        } else {
            out += QStringLiteral("    '%1%2%3%4' \\\n").arg(star, longName, help, value);
        }
    }
    return out;
}

QString zshLeaf(const Entry &entry)
{
    std::vector<Option> all = effectiveOptions(*entry.command);
    all.insert(all.end(), globalOptions().begin(), globalOptions().end());
    QString out = zshFunction(entry.key) + QStringLiteral("()\n{\n    _arguments -S \\\n") + zshOptionSpecs(all);
    int position = 1;
    bool variadic = false;
    for (const Argument &argument : entry.command->arguments) {
        const QString message = zshQuote(text(argument.name));
        const QString action = zshAction(argument.complete, argument.choices);
        if (variadic)
            break; // the words after a variadic argument are taken by it
        if (argument.arity == Argument::OneOrMore || argument.arity == Argument::ZeroOrMore) {
            const bool hostsFollow = &argument != &entry.command->arguments.back();
            out += QStringLiteral("    '*:%1:%2' \\\n").arg(message, hostsFollow ? QStringLiteral("_gantry_cli_files_or_host_paths") : action);
            variadic = true;
        } else {
            out += QStringLiteral("    '%1:%2%3:%4' \\\n").arg(position).arg(argument.arity == Argument::Optional ? QStringLiteral(":") : QString(), message, action);
            ++position;
        }
    }
    if (entry.command->rest && !variadic)
        out += QStringLiteral("    '*::%1:_normal' \\\n").arg(zshQuote(text(entry.command->rest)));
    return out + QStringLiteral("    && return 0\n    return 1\n}\n\n");
}

QString zshDispatcher(const QString &function, const QString &what, const std::vector<Option> &options,
                      const QList<std::pair<QString, QString>> &names, const QMap<QString, QStringList> &targets)
{
    QString out = function + QStringLiteral("()\n{\n    local curcontext=\"$curcontext\" state line ret=1\n    _arguments -C \\\n")
        + zshOptionSpecs(options)
        + QStringLiteral("    '1:%1:->name' \\\n    '*::argument:->argument' && ret=0\n    case $state in\n"
                         "        name)\n            local -a names\n            names=(\n").arg(what);
    for (const auto &[name, summary] : names)
        out += QStringLiteral("                '%1:%2'\n").arg(zshQuote(name), zshQuote(summary));
    out += QStringLiteral("            )\n            _describe -t names '%1' names && ret=0\n            ;;\n"
                          "        argument)\n            curcontext=\"${curcontext%:*:*}:gantry-cli-$words[1]:\"\n"
                          "            case $words[1] in\n").arg(what);
    for (auto it = targets.cbegin(); it != targets.cend(); ++it)
        out += QStringLiteral("                %1) %2 && ret=0 ;;\n").arg(it.value().join(u'|'), it.key());
    return out + QStringLiteral("            esac\n            ;;\n    esac\n    return ret\n}\n\n");
}

const char *const kZshHelpers = R"ZSH(# Saved host names, from the configuration directory the command line names.
_gantry_cli_host_names()
{
    local -a config
    local i
    for (( i = 2; i <= $#_gantry_cli_words; i++ )); do
        case $_gantry_cli_words[i] in
            --config-dir) config=(--config-dir "$_gantry_cli_words[i+1]") ;;
            --config-dir=*) config=("$_gantry_cli_words[i]") ;;
        esac
    done
    "$_gantry_cli_words[1]" "${config[@]}" hosts list --names 2>/dev/null
}

_gantry_cli_saved_hosts()
{
    local -a hosts
    hosts=(${(f)"$(_gantry_cli_host_names)"})
    _describe -t hosts 'saved host' hosts
}

_gantry_cli_saved_host_paths()
{
    [[ $PREFIX == *:* ]] && return 1
    local -a hosts
    hosts=(${(f)"$(_gantry_cli_host_names)"})
    compadd -S : -q -a hosts
}

_gantry_cli_files_or_host_paths()
{
    _alternative 'files:file:_files' 'hosts:saved host:_gantry_cli_saved_host_paths'
}

)ZSH";

} // namespace

QString bashCompletion()
{
    QStringList names;
    for (const Command &command : commands())
        names << text(command.name);
    return QStringLiteral("# bash completion for gantry-cli                                  -*- shell-script -*-\n"
                          "# Generated by `gantry-cli generate bash` from the command tables; do not edit.\n\n"
                          "_gantry_cli_commands='%1'\n\n").arg(names.join(u' '))
        + bashTables() + QString::fromUtf8(kBashEngine);
}

QString zshCompletion()
{
    QString out = QStringLiteral("#compdef gantry-cli\n"
                                 "# zsh completion for gantry-cli\n"
                                 "# Generated by `gantry-cli generate zsh` from the command tables; do not edit.\n\n")
        + QString::fromUtf8(kZshHelpers);
    QList<std::pair<QString, QString>> names;
    QMap<QString, QStringList> targets;
    for (const Entry &entry : entries()) {
        if (!entry.command->subcommands.empty()) {
            QList<std::pair<QString, QString>> subs;
            QMap<QString, QStringList> subTargets;
            for (const Command &sub : entry.command->subcommands) {
                const QString function = zshFunction(entry.key + u' ' + text(sub.name));
                subs.append({text(sub.name), text(sub.summary)});
                subTargets[function] << text(sub.name);
                for (const char *alias : sub.aliases) {
                    subs.append({text(alias), text(sub.summary)});
                    subTargets[function] << text(alias);
                }
            }
            std::vector<Option> options = entry.command->options;
            options.insert(options.end(), globalOptions().begin(), globalOptions().end());
            out += zshDispatcher(zshFunction(entry.key), entry.key + QStringLiteral(" subcommand"), options, subs, subTargets);
        } else {
            out += zshLeaf(entry);
        }
        if (!entry.parent) {
            names.append({entry.key, text(entry.command->summary)});
            targets[zshFunction(entry.key)] << entry.key;
        }
    }
    std::vector<Option> top = globalOptions();
    top.push_back(Option{.name = "version", .help = "print the version and exit"});
    out += zshDispatcher(QStringLiteral("_gantry_cli_main"), QStringLiteral("gantry-cli command"), top, names, targets);
    out += QStringLiteral("_gantry-cli()\n{\n    local -a _gantry_cli_words\n    _gantry_cli_words=(\"${words[@]}\")\n"
                          "    _gantry_cli_main \"$@\"\n}\n\n"
                          "# Autoloaded from fpath: complete now; sourced: register.\n"
                          "if [[ $funcstack[1] == _gantry-cli ]]; then\n    _gantry-cli \"$@\"\nelse\n"
                          "    compdef _gantry-cli gantry-cli\nfi\n");
    return out;
}

} // namespace gantry::cli
