#include "cliconnect.h"

#include "core/hosts/hoststore.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <cstdio>
#include <termios.h>
#include <unistd.h>

namespace gantry::cli {
namespace {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class CliText
{
    Q_DECLARE_TR_FUNCTIONS(cli)
};

// Reads a line from the terminal with echo off; nullopt when stdin is not a terminal.
std::optional<QString> promptHidden(const QString &prompt)
{
    if (!isatty(STDIN_FILENO))
        return std::nullopt;
    fprintf(stderr, "%s ", prompt.toLocal8Bit().constData());
    fflush(stderr);
    termios old{};
    tcgetattr(STDIN_FILENO, &old);
    termios quiet = old;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
    char buffer[1024] = {};
    const bool ok = fgets(buffer, sizeof buffer, stdin) != nullptr;
    tcsetattr(STDIN_FILENO, TCSANOW, &old);
    fprintf(stderr, "\n");
    if (!ok)
        return std::nullopt;
    QString line = QString::fromLocal8Bit(buffer);
    while (line.endsWith(QLatin1Char('\n')) || line.endsWith(QLatin1Char('\r')))
        line.chop(1);
    return line;
}

} // namespace

Result<HostOptions> takeHostOptions(QStringList &args)
{
    HostOptions options;
    QStringList rest;
    bool passthrough = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &arg = args[i];
        if (passthrough || arg == QLatin1StringView("--")) {
            passthrough = true;
            rest << arg;
            continue;
        }
        auto value = [&](const QString &name) -> std::optional<QString> {
            if (i + 1 >= args.size())
                return std::nullopt;
            Q_UNUSED(name);
            return args[++i];
        };
        if (arg == QLatin1StringView("-i")) {
            auto v = value(arg);
            if (!v)
                return makeError(ErrorCode::Usage, CliText::tr("-i needs a key file"));
            options.identityFiles << *v;
        } else if (arg == QLatin1StringView("--password-env")) {
            auto v = value(arg);
            if (!v)
                return makeError(ErrorCode::Usage, CliText::tr("--password-env needs a variable name"));
            options.passwordEnv = *v;
        } else if (arg == QLatin1StringView("--known-hosts")) {
            auto v = value(arg);
            if (!v)
                return makeError(ErrorCode::Usage, CliText::tr("--known-hosts needs a file"));
            options.knownHostsFile = *v;
        } else if (arg == QLatin1StringView("--accept-new-host-key")) {
            options.acceptNewHostKey = true;
        } else if (arg == QLatin1StringView("--connect-timeout")) {
            auto v = value(arg);
            bool ok = false;
            const int seconds = v ? v->toInt(&ok) : 0;
            if (!ok || seconds <= 0)
                return makeError(ErrorCode::Usage, CliText::tr("--connect-timeout needs a number of seconds"));
            options.connectTimeoutMs = seconds * 1000;
        } else if (arg == QLatin1StringView("--max-output-mib")) {
            auto v = value(arg);
            bool ok = false;
            const qint64 mib = v ? v->toLongLong(&ok) : 0;
            if (!ok || mib <= 0 || mib > (qint64(1) << 20))
                return makeError(ErrorCode::Usage, CliText::tr("--max-output-mib needs a number of MiB (1 to 1048576)"));
            options.limits.maxOutputBytes = mib << 20;
        } else if (arg == QLatin1StringView("--max-entries")) {
            auto v = value(arg);
            bool ok = false;
            const qint64 entries = v ? v->toLongLong(&ok) : 0;
            if (!ok || entries <= 0)
                return makeError(ErrorCode::Usage, CliText::tr("--max-entries needs a positive number of directory entries"));
            options.limits.maxListEntries = entries;
        } else {
            rest << arg;
        }
    }
    args = rest;
    return options;
}

Result<ssh::Target> resolveHost(const Context &context, const QString &nameOrSpec, const HostOptions &options)
{
    HostStore store(context.configDir);
    if (auto loaded = store.load(); !loaded)
        return loaded.error();
    ssh::Target target;
    if (const std::optional<SavedHost> saved = store.find(nameOrSpec)) {
        target = saved->target;
    } else {
        QString error;
        if (!ssh::parseTargetSpec(nameOrSpec, &target, &error))
            return makeError(ErrorCode::Usage, CliText::tr("\"%1\" is neither a saved host nor [user@]host[:port]: %2").arg(nameOrSpec, error));
    }
    if (!options.identityFiles.isEmpty()) {
        for (const QString &file : options.identityFiles) {
            if (!QFileInfo::exists(file))
                return makeError(ErrorCode::Usage, CliText::tr("key file %1 does not exist").arg(file));
        }
        target.identityFiles = options.identityFiles;
        if (target.auth == ssh::AuthMethod::Password)
            target.auth = ssh::AuthMethod::Auto;
    }
    return target;
}

Result<std::unique_ptr<ssh::Session>> connectHost(const Context &context, const QString &nameOrSpec, const HostOptions &options)
{
    auto target = resolveHost(context, nameOrSpec, options);
    if (!target)
        return target.error();
    ssh::ConnectOptions connect;
    connect.knownHostsFile = options.knownHostsFile;
    connect.acceptNewHostKey = options.acceptNewHostKey;
    connect.connectTimeoutMs = options.connectTimeoutMs;
    connect.limits = options.limits;
    const QString envName = options.passwordEnv;
    if (!envName.isEmpty() && qEnvironmentVariableIsEmpty(envName.toLocal8Bit().constData()))
        return makeError(ErrorCode::Usage, CliText::tr("--password-env %1: that environment variable is empty or not set").arg(envName));
    auto secret = [envName](const QString &prompt) -> std::optional<QString> {
        if (!envName.isEmpty())
            return qEnvironmentVariable(envName.toLocal8Bit().constData());
        return promptHidden(prompt);
    };
    connect.password = secret;
    connect.passphrase = [secret](const QString &file) { return secret(CliText::tr("Passphrase for %1:").arg(file)); };
    auto session = std::make_unique<ssh::Session>();
    if (auto connected = session->connect(*target, connect); !connected)
        return connected.error();
    return session;
}

} // namespace gantry::cli
