// SPDX-License-Identifier: Apache-2.0
// gantry-cli help [COMMAND [SUBCOMMAND]]: the help, written from the command tables.
#include "clicommand.h"
#include "clihelp.h"

#include <QJsonDocument>

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

const Registrar helpRegistrar(Command{
    .name = "help",
    .summary = "every command, or one command's usage and options (with --json: the command tables as JSON)",
    .arguments = {{"COMMAND", Argument::Optional, Complete::Command}, {"SUBCOMMAND", Argument::Optional}},
    .needsConfig = false,
    .run = helpCommand,
});

} // namespace
} // namespace gantry::cli
