// SPDX-License-Identifier: Apache-2.0
// gantry-cli help [COMMAND [SUBCOMMAND]] and gantry-cli generate man|bash|zsh: the help, the man
// page and the shell completions, all written from the command tables.
#include "clicommand.h"
#include "clihelp.h"

#include <QJsonDocument>
#include <QSaveFile>

namespace gantry::cli {
namespace {

int helpCommand(Context &context, const Args &args)
{
    const QString name = args.arg("COMMAND");
    if (name.isEmpty()) {
        if (context.json)
            context.out << QString::fromUtf8(QJsonDocument(tablesJson()).toJson(QJsonDocument::Compact)) << '\n';
        else
            context.out << mainHelp();
        context.out.flush();
        return ExitOk;
    }
    const Command *command = findCommand(name);
    if (!command)
        return context.usage(QStringLiteral("unknown command \"%1\"").arg(name));
    const QString subName = args.arg("SUBCOMMAND");
    if (subName.isEmpty())
        return printHelp(context, *command, nullptr);
    const Command *sub = findSubcommand(*command, subName);
    if (!sub)
        return context.usage(QStringLiteral("%1 has no subcommand \"%2\"").arg(name, subName));
    return printHelp(context, *sub, command);
}

int generateCommand(Context &context, const Args &args)
{
    const QString format = args.arg("FORMAT");
    QString text;
    if (format == QLatin1String("man"))
        text = manPage();
    else if (format == QLatin1String("bash"))
        text = bashCompletion();
    else if (format == QLatin1String("zsh"))
        text = zshCompletion();
    else
        return context.usage(QStringLiteral("generate writes man, bash or zsh, not \"%1\"").arg(format));
    const std::optional<QString> output = args.optional("output");
    if (!output) {
        context.out << text;
        context.out.flush();
        return ExitOk;
    }
    QSaveFile file(*output);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit())
        return context.fail(Error{ErrorCode::Io, QStringLiteral("Cannot write %1: %2").arg(*output, file.errorString())});
    return ExitOk;
}

const Registrar helpRegistrar(Command{
    .name = "help",
    .summary = "every command, or one command's usage and options (with --json: the command tables as JSON)",
    .arguments = {{"COMMAND", Argument::Optional, Complete::Command}, {"SUBCOMMAND", Argument::Optional}},
    .needsConfig = false,
    .run = helpCommand,
});

const Registrar generateRegistrar(Command{
    .name = "generate",
    .summary = "write the man page (man) or a shell completion script (bash, zsh), as the package installs them",
    .options = {{.name = "output", .value = "FILE", .help = "write to FILE instead of stdout", .shortName = 'o', .complete = Complete::File}},
    .arguments = {{"FORMAT", Argument::One, Complete::Nothing, "man|bash|zsh"}},
    .notes = {"bash: source it, or install it as share/bash-completion/completions/gantry-cli; zsh: install it as _gantry-cli "
              "in a directory of $fpath (the package uses share/zsh/vendor-completions)."},
    .needsConfig = false,
    .run = generateCommand,
});

} // namespace
} // namespace gantry::cli
