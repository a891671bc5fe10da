// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "cliparser.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace gantry::cli {

// Everything written from the command tables for people and tools: --help, the man page, a JSON
// dump of the tables (`gantry-cli --json help`), and (clicompletion.cpp) the shell completions.

// "[--config-dir DIR] [--json]": what every usage line starts with after "gantry-cli".
QString globalUsage();
// One usage line per form, without "gantry-cli": "upload [OPTIONS] SRC… HOST:DEST"; `parent` set
// for a subcommand ("job run …"). A command with subcommands has a line per subcommand.
QStringList usageLines(const Command &command, const Command *parent = nullptr);
// "HOST", "[HOST]", "SRC…", "[on|off]".
QString argumentText(const Argument &argument);
// "-i, --identity KEYFILE", "--json".
QString optionText(const Option &option);
// The full help of a command or a subcommand, as `--help` prints it.
QString helpText(const Command &command, const Command *parent = nullptr);
// `gantry-cli --help`: global and connection options, exit codes, then every command.
QString mainHelp();
// Prints helpText (or, with --json, commandJson) on stdout; exit 0.
int printHelp(Context &context, const Command &command, const Command *parent);

QJsonObject commandJson(const Command &command, const Command *parent = nullptr);
QJsonObject tablesJson(); // every command, the global options, the exit codes
QString manPage();        // gantry-cli.1 (groff -man)

QString bashCompletion();
QString zshCompletion();

struct ExitCodeInfo
{
    int code;
    const char *meaning;
};
const std::vector<ExitCodeInfo> &exitCodes();

} // namespace gantry::cli
