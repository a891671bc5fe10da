#include "core/hosts/sshconfigimport.h"

#include "core/util/printable.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

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

// OpenSSH stops at 16 levels of Include; the file cap keeps a wide fan-out bounded too.
constexpr int kMaxIncludeDepth = 16;
constexpr int kMaxFiles = 256;

// A class rather than a free helper function: lupdate extracts only translations it can give a
// context (a helper taking the text hid these messages from it, so they were never translated).
class SshConfigImportText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::SshConfigImport)
};

struct ImportState
{
    QList<SavedHost> hosts;
    QSet<QString> visited; // canonical paths already read: an Include loop reads each file once
    QStringList warnings;
    int files = 0;
};

// Whether path may be read now; says why not in state.warnings (once per cause and file).
bool mayRead(const QString &path, int depth, ImportState &state)
{
    const QString canonical = QFileInfo(path).canonicalFilePath();
    if (canonical.isEmpty())
        return false;
    const QString shown = text::printable(canonical);
    QString warning;
    if (state.visited.contains(canonical))
        warning = SshConfigImportText::tr("%1 is included more than once (an Include loop?); it was read once. Remove the "
                            "repeated Include line.").arg(shown);
    else if (depth > kMaxIncludeDepth)
        warning = SshConfigImportText::tr("%1 is nested deeper than %2 Include levels and was skipped; flatten the Includes.")
                      .arg(shown).arg(kMaxIncludeDepth);
    else if (state.files >= kMaxFiles)
        warning = SshConfigImportText::tr("%1 was skipped: more than %2 files are included; include fewer files.").arg(shown).arg(kMaxFiles);
    if (warning.isEmpty()) {
        state.visited.insert(canonical);
        ++state.files;
        return true;
    }
    if (!state.warnings.contains(warning))
        state.warnings.append(warning);
    return false;
}

void parseFile(const QString &path, ImportState &state, int depth)
{
    QFile file(path);
    if (!mayRead(path, depth, state) || !file.open(QIODevice::ReadOnly))
        return;
    QList<SavedHost> &hosts = state.hosts;
    QList<qsizetype> current; // indices in hosts the current Host block applies to
    static const QRegularExpression keyValue(QStringLiteral("^\\s*(\\S+?)\\s*(?:=|\\s)\\s*(.+?)\\s*$"));
    static const QRegularExpression whitespace(QStringLiteral("\\s+")); // compiled once, not per Host line
    // The whole file, then its lines: QIODevice::readLine grows and shrinks a buffer per line,
    // which was a fifth of an import. The '\n' readLine kept was trimmed off anyway.
    const QList<QByteArray> lines = file.readAll().split('\n');
    for (const QByteArray &raw : lines) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QRegularExpressionMatch m = keyValue.match(line);
        if (!m.hasMatch())
            continue;
        const QString key = m.captured(1).toLower();
        const QString value = unquote(m.captured(2));
        if (key == QLatin1StringView("host")) {
            current.clear();
            for (const QString &pattern : value.split(whitespace, Qt::SkipEmptyParts)) {
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
                    parseFile(info.absolutePath() + QLatin1Char('/') + match, state, depth + 1);
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

QList<SavedHost> importSshConfig(const QString &configFile, QStringList *warnings)
{
    ImportState state;
    parseFile(configFile, state, 0);
    // A name may appear in several blocks; keep the first definition.
    QList<SavedHost> unique;
    QStringList seen;
    for (const SavedHost &host : std::as_const(state.hosts)) {
        if (seen.contains(host.name))
            continue;
        seen << host.name;
        // A value Gantry could not write back or pass to ssh safely: leave the host out, say why.
        if (Result<void> checked = ssh::checkTarget(host.target); !checked) {
            state.warnings << SshConfigImportText::tr("Host %1 was not imported: %2.").arg(text::printable(host.name), checked.error().message);
            continue;
        }
        SavedHost copy = host;
        if (!copy.target.identityFiles.isEmpty())
            copy.target.auth = ssh::AuthMethod::Auto;
        unique << copy;
    }
    if (warnings)
        *warnings = state.warnings;
    return unique;
}

} // namespace gantry
