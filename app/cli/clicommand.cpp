#include "clicommand.h"

#include "core/util/printable.h"

#include <QJsonDocument>

namespace gantry::cli {
int exitCodeFor(const Error &error)
{
    switch (error.code) {
    case ErrorCode::Usage: return ExitUsage;
    case ErrorCode::ConnectFailed:
    case ErrorCode::AuthFailed:
    case ErrorCode::Timeout: return ExitConnect;
    case ErrorCode::HostKeyUnknown:
    case ErrorCode::HostKeyChanged: return ExitHostKey;
    case ErrorCode::Provider: return ExitProvider;
    default: return ExitFailure;
    }
}

int Context::fail(const Error &error) const
{
    if (json) {
        printJson(QJsonObject{{QStringLiteral("error"), error.message}});
    }
    // Messages quote provider replies and remote stderr: no terminal escapes get through.
    err << "gantry-cli: " << text::printableLines(error.message) << Qt::endl;
    return exitCodeFor(error);
}

void Context::warn(const QString &message) const
{
    err << "gantry-cli: " << text::printableLines(message) << Qt::endl;
}

int Context::usage(const QString &message) const
{
    const QString help = commandName.isEmpty() ? QStringLiteral("gantry-cli --help") : QStringLiteral("gantry-cli %1 --help").arg(commandName);
    return fail(Error{ErrorCode::Usage, QStringLiteral("%1 (see %2)").arg(message, help)});
}

void Context::printJson(const QJsonObject &object) const
{
    out << QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)) << Qt::endl;
}

} // namespace gantry::cli
