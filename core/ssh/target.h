#pragma once

#include "core/util/result.h"

#include <QString>
#include <QStringList>

namespace gantry::ssh {

enum class AuthMethod
{
    Auto,     // agent, then key files, then keyboard-interactive/password
    Agent,
    Key,
    Password, // password or keyboard-interactive (AutoDL-style `ssh -p PORT root@HOST`)
};

QString authMethodName(AuthMethod method);
AuthMethod authMethodFromName(const QString &name); // unknown → Auto

// The local account's name (getpwuid, else $USER), read once for the whole program: getpwuid()
// answers in a static buffer that another thread's call may reallocate.
QString localUserName();

// Where and as whom to log in. Secrets are never part of a Target.
struct Target
{
    QString host;
    int port = 22;
    QString user;               // empty: the local user name
    QStringList identityFiles;  // tried in order (after the agent, for Auto)
    QString proxyJump;          // [user@]host[:port], from ~/.ssh/config
    AuthMethod auth = AuthMethod::Auto;

    bool operator==(const Target &other) const = default;

    QString effectiveUser() const;
    // "user@host:port" for messages and logs.
    QString display() const;
};

// Parses "[user@]host[:port]" (IPv6 as "[addr]:port"). Returns false on a malformed string,
// including a host or user that checkHost/checkUser refuse.
bool parseTargetSpec(const QString &spec, Target *target, QString *error);

// Every part of a target ends up in ~/.ssh/config, in known_hosts and on ssh command lines, so a
// value from a user, a provider or an imported file is checked before it is saved: a newline in a
// host name would otherwise become a ProxyCommand directive. A host is a DNS name or an IP
// address (letters, digits, '.', '-', '_', ':'), not starting with '-'; a user has no control
// characters, whitespace, quotes, backslashes or a leading '-'; a key path has no control
// characters or quotes; ProxyJump is a valid [user@]host[:port].
Result<void> checkHost(const QString &host);
Result<void> checkUser(const QString &user);
Result<void> checkIdentityFile(const QString &path);
Result<void> checkTarget(const Target &target);

} // namespace gantry::ssh
