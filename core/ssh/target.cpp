#include "core/ssh/target.h"

#include "core/util/printable.h"

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

QString localUserName()
{
    static const QString local = [] {
        if (const passwd *pw = getpwuid(geteuid()))
            return QString::fromLocal8Bit(pw->pw_name);
        return qEnvironmentVariable("USER");
    }();
    return local;
}

QString Target::effectiveUser() const
{
    return user.isEmpty() ? localUserName() : user;
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
            *error = QCoreApplication::translate("ssh", "unclosed '[' in host \"%1\"").arg(text::printable(spec));
            return false;
        }
        t.host = rest.mid(1, close - 1);
        rest = rest.mid(close + 1);
        if (rest.startsWith(QLatin1Char(':')))
            rest = rest.mid(1);
        else if (!rest.isEmpty()) {
            *error = QCoreApplication::translate("ssh", "unexpected text after ']' in \"%1\"").arg(text::printable(spec));
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
            *error = QCoreApplication::translate("ssh", "invalid port \"%1\" in \"%2\" (expected 1–65535)").arg(text::printable(rest), text::printable(spec));
            return false;
        }
        t.port = port;
    }
    if (t.host.isEmpty()) {
        *error = QCoreApplication::translate("ssh", "no host name in \"%1\" (expected [user@]host[:port])").arg(text::printable(spec));
        return false;
    }
    Result<void> checked = checkHost(t.host);
    if (checked && !t.user.isEmpty())
        checked = checkUser(t.user);
    if (!checked) {
        *error = checked.error().message;
        return false;
    }
    *target = t;
    return true;
}

namespace {

QString firstBadCharacter(const QString &value, bool (*allowed)(QChar))
{
    for (const QChar c : value) {
        if (!allowed(c))
            return text::printable(QString(c));
    }
    return {};
}

bool allowedInHost(QChar c)
{
    return (c.unicode() < 128 && c.isLetterOrNumber()) || c == u'.' || c == u'-' || c == u'_' || c == u':';
}

bool allowedInUser(QChar c)
{
    return !c.isSpace() && text::isPrintable(QString(c)) && c != u'"' && c != u'\'' && c != u'\\' && c != u'`';
}

bool allowedInPath(QChar c)
{
    return (c == u' ' || !c.isSpace()) && text::isPrintable(QString(c)) && c != u'"' && c != u'\\';
}

} // namespace

Result<void> checkHost(const QString &host)
{
    if (host.isEmpty())
        return makeError(ErrorCode::Usage, QCoreApplication::translate("ssh", "the host name is empty; give a DNS name or an IP address"));
    const QString bad = firstBadCharacter(host, allowedInHost);
    if (!bad.isEmpty() || host.startsWith(u'-'))
        return makeError(ErrorCode::Usage,
                         QCoreApplication::translate("ssh", "\"%1\" is not a host name or IP address (it contains \"%2\"); "
                                                            "give the machine's DNS name or IP address")
                             .arg(text::printable(host), bad.isEmpty() ? QStringLiteral("-") : bad));
    return {};
}

Result<void> checkUser(const QString &user)
{
    const QString bad = firstBadCharacter(user, allowedInUser);
    if (!bad.isEmpty() || user.startsWith(u'-'))
        return makeError(ErrorCode::Usage,
                         QCoreApplication::translate("ssh", "\"%1\" is not a user name (it contains \"%2\"); give the "
                                                            "login name without spaces, quotes or control characters")
                             .arg(text::printable(user), bad.isEmpty() ? QStringLiteral("-") : bad));
    return {};
}

Result<void> checkIdentityFile(const QString &path)
{
    const QString bad = firstBadCharacter(path, allowedInPath);
    if (path.isEmpty() || !bad.isEmpty())
        return makeError(ErrorCode::Usage,
                         QCoreApplication::translate("ssh", "key file \"%1\" cannot be used: its path contains \"%2\"; "
                                                            "move or rename the key to a path without quotes, "
                                                            "backslashes or control characters")
                             .arg(text::printable(path), bad));
    return {};
}

Result<void> checkTarget(const Target &target)
{
    if (Result<void> host = checkHost(target.host); !host)
        return host;
    if (Result<void> user = checkUser(target.user); !user)
        return user;
    if (target.port <= 0 || target.port > 65535)
        return makeError(ErrorCode::Usage, QCoreApplication::translate("ssh", "invalid port %1 for %2 (expected 1–65535)")
                                               .arg(target.port).arg(target.host));
    for (const QString &file : target.identityFiles) {
        if (Result<void> key = checkIdentityFile(file); !key)
            return key;
    }
    if (!target.proxyJump.isEmpty()) {
        Target jump;
        QString error;
        if (!parseTargetSpec(target.proxyJump, &jump, &error))
            return makeError(ErrorCode::Usage, QCoreApplication::translate("ssh", "invalid ProxyJump \"%1\": %2")
                                                   .arg(text::printable(target.proxyJump), error));
    }
    return {};
}

} // namespace gantry::ssh
