#include "ssh/target.h"

#include <QCoreApplication>

#include <pwd.h>
#include <unistd.h>

namespace gantry::ssh {

QString authMethodName(AuthMethod method)
{
    switch (method) {
    case AuthMethod::Agent: return QStringLiteral("agent");
    case AuthMethod::Key: return QStringLiteral("key");
    case AuthMethod::Password: return QStringLiteral("password");
    case AuthMethod::Auto: break;
    }
    return QStringLiteral("auto");
}

AuthMethod authMethodFromName(const QString &name)
{
    if (name == QLatin1StringView("agent"))
        return AuthMethod::Agent;
    if (name == QLatin1StringView("key"))
        return AuthMethod::Key;
    if (name == QLatin1StringView("password"))
        return AuthMethod::Password;
    return AuthMethod::Auto;
}

QString Target::effectiveUser() const
{
    if (!user.isEmpty())
        return user;
    if (const passwd *pw = getpwuid(geteuid()))
        return QString::fromLocal8Bit(pw->pw_name);
    return qEnvironmentVariable("USER");
}

QString Target::display() const
{
    const QString h = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return effectiveUser() + QLatin1Char('@') + h + QLatin1Char(':') + QString::number(port);
}

bool parseTargetSpec(const QString &spec, Target *target, QString *error)
{
    QString rest = spec.trimmed();
    Target t;
    const qsizetype at = rest.lastIndexOf(QLatin1Char('@'));
    if (at >= 0) {
        t.user = rest.left(at);
        rest = rest.mid(at + 1);
    }
    if (rest.startsWith(QLatin1Char('['))) {
        const qsizetype close = rest.indexOf(QLatin1Char(']'));
        if (close < 0) {
            *error = QCoreApplication::translate("ssh", "unclosed '[' in host \"%1\"").arg(spec);
            return false;
        }
        t.host = rest.mid(1, close - 1);
        rest = rest.mid(close + 1);
        if (rest.startsWith(QLatin1Char(':')))
            rest = rest.mid(1);
        else if (!rest.isEmpty()) {
            *error = QCoreApplication::translate("ssh", "unexpected text after ']' in \"%1\"").arg(spec);
            return false;
        }
    } else {
        const qsizetype colon = rest.indexOf(QLatin1Char(':'));
        if (colon >= 0 && rest.indexOf(QLatin1Char(':'), colon + 1) < 0) {
            t.host = rest.left(colon);
            rest = rest.mid(colon + 1);
        } else {
            t.host = rest;
            rest.clear();
        }
    }
    if (!rest.isEmpty()) {
        bool ok = false;
        const int port = rest.toInt(&ok);
        if (!ok || port <= 0 || port > 65535) {
            *error = QCoreApplication::translate("ssh", "invalid port \"%1\" in \"%2\" (expected 1–65535)").arg(rest, spec);
            return false;
        }
        t.port = port;
    }
    if (t.host.isEmpty()) {
        *error = QCoreApplication::translate("ssh", "no host name in \"%1\" (expected [user@]host[:port])").arg(spec);
        return false;
    }
    *target = t;
    return true;
}

} // namespace gantry::ssh
