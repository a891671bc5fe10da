#include "cliconnect.h"

#include "interruptscope.h"

#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"

#include <QFileInfo>

#include <limits>

namespace gantry::cli {

Result<HostOptions> hostOptionsFrom(const Args &args)
{
    HostOptions options;
    options.identityFiles = args.values("identity");
    options.passwordEnv = args.value("password-env");
    options.knownHostsFile = args.value("known-hosts");
    options.acceptNewHostKey = args.has("accept-new-host-key");
    const Result<std::optional<qint64>> timeout = args.integer("connect-timeout", 1, 24 * 3600);
    if (!timeout)
        return makeError(ErrorCode::Usage, QStringLiteral("--connect-timeout needs a number of seconds"));
    if (*timeout)
        options.connectTimeoutMs = int(**timeout * 1000);
    const Result<std::optional<qint64>> mib = args.integer("max-output-mib", 1, qint64(1) << 20);
    if (!mib)
        return makeError(ErrorCode::Usage, QStringLiteral("--max-output-mib needs a number of MiB (1 to 1048576)"));
    if (*mib)
        options.limits.maxOutputBytes = **mib << 20;
    const Result<std::optional<qint64>> entries = args.integer("max-entries", 1, std::numeric_limits<qint64>::max());
    if (!entries)
        return makeError(ErrorCode::Usage, QStringLiteral("--max-entries needs a positive number of directory entries"));
    if (*entries)
        options.limits.maxListEntries = **entries;
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
            return makeError(ErrorCode::Usage, QStringLiteral("\"%1\" is neither a saved host nor [user@]host[:port]: %2").arg(nameOrSpec, error));
    }
    if (!options.identityFiles.isEmpty()) {
        for (const QString &file : options.identityFiles) {
            if (!QFileInfo::exists(file))
                return makeError(ErrorCode::Usage, QStringLiteral("key file %1 does not exist").arg(file));
        }
        target.identityFiles = options.identityFiles;
        if (target.auth == ssh::AuthMethod::Password)
            target.auth = ssh::AuthMethod::Auto;
    }
    return target;
}

std::function<bool(const ssh::HostKeyInfo &)> vouchedKeyCheck(const Context &context, const QString &nameOrSpec)
{
    HostStore store(context.configDir);
    if (!store.load()) return {};
    const std::optional<SavedHost> saved = store.find(nameOrSpec);
    if (!saved || saved->hostKeyFingerprint.isEmpty()) return {};
    return [host = *saved](const ssh::HostKeyInfo &key) { return vouchedHostKey(host, key); };
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
    connect.confirmNewHostKey = vouchedKeyCheck(context, nameOrSpec);
    const QString envName = options.passwordEnv;
    if (!envName.isEmpty() && qEnvironmentVariableIsEmpty(envName.toLocal8Bit().constData()))
        return makeError(ErrorCode::Usage, QStringLiteral("--password-env %1: that environment variable is empty or not set").arg(envName));
    auto secret = [envName](const QString &prompt) -> std::optional<QString> {
        if (!envName.isEmpty())
            return qEnvironmentVariable(envName.toLocal8Bit().constData());
        return promptHidden(prompt);
    };
    connect.password = secret;
    connect.passphrase = [secret](const QString &file) { return secret(QStringLiteral("Passphrase for %1:").arg(file)); };
    auto session = std::make_unique<ssh::Session>();
    if (auto connected = session->connect(*target, connect); !connected)
        return connected.error();
    return session;
}

} // namespace gantry::cli
