#include "core/ssh/sessionoptions.h"

#include "core/ssh/knownhosts.h"

#include <QCoreApplication>
#include <QFile>

namespace gantry::ssh {
// Every option is checked: a refused option (an old libssh, a value it cannot parse) must stop
// the connection, not leave it with defaults (no known_hosts file, another user, no ProxyJump).
Result<void> applyOptions(ssh_session session, const Target &target, const ConnectOptions &options)
{
    // libssh ≤ 0.10.5 pastes %h unquoted into the ProxyCommand shell line (CVE-2023-6004), and a
    // hosts.json from before these checks may hold anything: refuse such a host here too.
    if (Result<void> host = checkHost(target.host); !host)
        return host;
    Result<void> result;
    auto set = [&](ssh_options_e option, const void *value) {
        if (result && ssh_options_set(session, option, value) != SSH_OK)
            result = makeError(ErrorCode::Generic, QCoreApplication::translate("ssh", "libssh refused SSH option %1 for %2 (%3); check the host, user and "
                                                      "key settings, or update libssh (0.10.6 or newer)")
                                                       .arg(int(option)).arg(target.display(), QString::fromUtf8(ssh_get_error(session))));
    };
    const QByteArray host = target.host.toUtf8();
    const QByteArray user = target.effectiveUser().toUtf8();
    const QString knownHosts = options.knownHostsFile.isEmpty() ? defaultKnownHostsFile() : options.knownHostsFile;
    const QByteArray knownHostsBytes = QFile::encodeName(knownHosts);
    const unsigned int port = static_cast<unsigned int>(target.port);
    const int nodelay = 1;
    const int verbosity = SSH_LOG_NOLOG;
    const int processConfig = 0; // ~/.ssh/config is imported explicitly, never applied behind our back
    const long timeoutS = qMax(1, options.connectTimeoutMs / 1000);
    set(SSH_OPTIONS_HOST, host.constData());
    set(SSH_OPTIONS_PORT, &port);
    set(SSH_OPTIONS_USER, user.constData());
    set(SSH_OPTIONS_NODELAY, &nodelay);
    set(SSH_OPTIONS_LOG_VERBOSITY, &verbosity);
    set(SSH_OPTIONS_PROCESS_CONFIG, &processConfig);
    set(SSH_OPTIONS_KNOWNHOSTS, knownHostsBytes.constData());
    set(SSH_OPTIONS_TIMEOUT, &timeoutS);
    // AES-GCM runs on AES-NI and is several times cheaper than chacha20-poly1305 (OpenSSH's first
    // choice) on the 2-vCPU machines transfers and the remote hash share; the rest stay as fallbacks.
    static const char ciphers[] = "aes128-gcm@openssh.com,aes256-gcm@openssh.com,chacha20-poly1305@openssh.com,"
                                  "aes128-ctr,aes192-ctr,aes256-ctr";
    set(SSH_OPTIONS_CIPHERS_C_S, ciphers);
    set(SSH_OPTIONS_CIPHERS_S_C, ciphers);
    if (!options.knownHostsFile.isEmpty())
        set(SSH_OPTIONS_GLOBAL_KNOWNHOSTS, "/dev/null");
    if (!target.proxyJump.isEmpty()) {
        // libssh 0.10 has no native ProxyJump; OpenSSH's client does the hop for us.
        Target jump;
        QString error;
        if (!parseTargetSpec(target.proxyJump, &jump, &error))
            return makeError(ErrorCode::Usage, QCoreApplication::translate("ssh", "invalid ProxyJump \"%1\": %2").arg(target.proxyJump, error));
        const QString command = QStringLiteral("ssh -W '[%h]:%p' -p %1 %2@%3")
                                    .arg(jump.port).arg(shellQuote(jump.effectiveUser()), shellQuote(jump.host));
        const QByteArray commandBytes = command.toUtf8();
        set(SSH_OPTIONS_PROXYCOMMAND, commandBytes.constData());
    }
    return result;
}

} // namespace gantry::ssh
