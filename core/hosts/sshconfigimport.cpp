#include "hosts/sshconfigimport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace gantry {
namespace {

QString expandTilde(const QString &path)
{
    if (path.startsWith(QStringLiteral("~/")))
        return QDir::homePath() + path.mid(1);
    return path;
}

QString unquote(QString value)
{
    if (value.size() >= 2 && value.startsWith(QLatin1Char('"')) && value.endsWith(QLatin1Char('"')))
        value = value.mid(1, value.size() - 2);
    return value;
}

void parseFile(const QString &path, QList<SavedHost> &hosts, int depth)
{
    QFile file(path);
    if (depth > 8 || !file.open(QIODevice::ReadOnly))
        return;
    QList<qsizetype> current; // indices in hosts the current Host block applies to
    static const QRegularExpression keyValue(QStringLiteral("^\\s*(\\S+?)\\s*(?:=|\\s)\\s*(.+?)\\s*$"));
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QRegularExpressionMatch m = keyValue.match(line);
        if (!m.hasMatch())
            continue;
        const QString key = m.captured(1).toLower();
        const QString value = unquote(m.captured(2));
        if (key == QLatin1StringView("host")) {
            current.clear();
            for (const QString &pattern : value.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
                if (pattern.contains(QLatin1Char('*')) || pattern.contains(QLatin1Char('?')) || pattern.startsWith(QLatin1Char('!')))
                    continue;
                SavedHost host;
                host.name = pattern;
                host.target.host = pattern;
                host.source = QStringLiteral("ssh-config");
                hosts << host;
                current << hosts.size() - 1;
            }
        } else if (key == QLatin1StringView("match")) {
            current.clear();
        } else if (key == QLatin1StringView("include")) {
            for (const QString &pattern : value.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
                QString full = expandTilde(pattern);
                if (QFileInfo(full).isRelative())
                    full = QDir::homePath() + QStringLiteral("/.ssh/") + full;
                const QFileInfo info(full);
                const QStringList matches = QDir(info.absolutePath()).entryList({info.fileName()}, QDir::Files, QDir::Name);
                for (const QString &match : matches)
                    parseFile(info.absolutePath() + QLatin1Char('/') + match, hosts, depth + 1);
            }
        } else {
            // First value wins, as in OpenSSH.
            for (qsizetype index : std::as_const(current)) {
                SavedHost &host = hosts[index];
                if (key == QLatin1StringView("hostname") && host.target.host == host.name)
                    host.target.host = value;
                else if (key == QLatin1StringView("user") && host.target.user.isEmpty())
                    host.target.user = value;
                else if (key == QLatin1StringView("port") && host.target.port == 22)
                    host.target.port = value.toInt() > 0 ? value.toInt() : 22;
                else if (key == QLatin1StringView("identityfile"))
                    host.target.identityFiles << expandTilde(value);
                else if (key == QLatin1StringView("proxyjump") && host.target.proxyJump.isEmpty()
                         && value.toLower() != QLatin1StringView("none"))
                    host.target.proxyJump = value.section(QLatin1Char(','), 0, 0);
            }
        }
    }
}

} // namespace

QList<SavedHost> importSshConfig(const QString &configFile)
{
    QList<SavedHost> hosts;
    parseFile(configFile, hosts, 0);
    // A name may appear in several blocks; keep the first definition.
    QList<SavedHost> unique;
    for (const SavedHost &host : std::as_const(hosts)) {
        const bool seen = std::any_of(unique.cbegin(), unique.cend(), [&host](const SavedHost &h) { return h.name == host.name; });
        if (!seen) {
            SavedHost copy = host;
            if (!copy.target.identityFiles.isEmpty())
                copy.target.auth = ssh::AuthMethod::Auto;
            unique << copy;
        }
    }
    return unique;
}

} // namespace gantry
