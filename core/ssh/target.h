#pragma once

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

// Parses "[user@]host[:port]" (IPv6 as "[addr]:port"). Returns false on a malformed string.
bool parseTargetSpec(const QString &spec, Target *target, QString *error);

} // namespace gantry::ssh
