#pragma once

#include "clicommand.h"
#include "core/ssh/session.h"
#include "core/transfer/transfertypes.h"

#include <atomic>
#include <functional>
#include <memory>

namespace gantry::cli {

// The connection options every host-taking command accepts (the Connection group of cliparser.h).
struct HostOptions
{
    QStringList identityFiles;  // -i/--identity KEYFILE (repeatable)
    QString passwordEnv;        // --password-env VAR: password (or key passphrase) from $VAR
    QString knownHostsFile;     // --known-hosts FILE
    bool acceptNewHostKey = false; // --accept-new-host-key
    int connectTimeoutMs = 15000;  // --connect-timeout SECONDS
    ssh::OutputLimits limits;      // --max-output-mib MIB, --max-entries N
};

// The options above from a command's parsed arguments, checked (a usage error names the option).
Result<HostOptions> hostOptionsFrom(const Args &args);

// A saved host name (from `hosts add` or imported from ~/.ssh/config) or "[user@]host[:port]".
Result<ssh::Target> resolveHost(const Context &context, const QString &nameOrSpec, const HostOptions &options);

// For a saved host whose provider vouches for its host key (the sandbox's own sshd): a check that
// trusts exactly that key when it is new, without --accept-new-host-key. Empty otherwise.
std::function<bool(const ssh::HostKeyInfo &)> vouchedKeyCheck(const Context &context, const QString &nameOrSpec);

// Resolves and connects; failures come back with the exit code's category (3 connect/auth,
// 4 host key) and a one-line message naming the cause and the fix.
Result<std::unique_ptr<ssh::Session>> connectHost(const Context &context, const QString &nameOrSpec,
                                                  const HostOptions &options);

// A factory for as many sessions as the transfer engine wants (defined with upload/download);
// a typed password is asked once and reused. typed (when given) is set once one was typed.
Result<transfer::SessionFactory> makeCliFactory(const Context &context, const QString &hostSpec, const HostOptions &options,
                                                std::shared_ptr<std::atomic_bool> typed = {});

} // namespace gantry::cli
