#pragma once

#include "cliparser.h"

#include "core/util/result.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTextStream>

namespace gantry::cli {

enum ExitCode
{
    ExitOk = 0,
    ExitFailure = 1,
    ExitUsage = 2,
    ExitConnect = 3,  // cannot connect or authenticate
    ExitHostKey = 4,  // host key unknown (not accepted) or changed
    ExitProvider = 5, // a cloud provider refused
    ExitInterrupted = 130, // stopped by Ctrl+C, the status a shell gives a program SIGINT ended
};

// What every command gets: the global options already applied.
struct Context
{
    QString configDir; // --config-dir, GANTRY_CONFIG_DIR, or the platform default (made when a command runs)
    bool json = false;
    QTextStream &out;
    QTextStream &err;
    QString commandName = {}; // "upload", "job run": named by usage errors

    // Prints one line "gantry-cli: <message>" to stderr (or {"error": …} on stdout with --json)
    // and returns the exit code that fits the error.
    int fail(const Error &error) const;
    // A usage error (exit 2) that points at the command's --help.
    int usage(const QString &message) const;
    // Prints "gantry-cli: <message>" to stderr, control characters escaped (the message may quote
    // a provider's or a host's text); for warnings that do not end the command.
    void warn(const QString &message) const;
    void printJson(const QJsonObject &object) const; // one compact line
};

int exitCodeFor(const Error &error);

} // namespace gantry::cli
