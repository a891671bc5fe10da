#include "core/sshconfig/managedblock.h"
#include "core/sshconfig/sshconfigtext.h"

#include "core/ssh/target.h"
#include "core/util/printable.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace gantry::sshconfig {
namespace {

struct Span
{
    qsizetype begin = -1; // first byte of the begin marker line
    qsizetype end = -1;   // one past the end marker line's newline
};

Span findBlock(const QByteArray &config)
{
    Span span;
    qsizetype lineStart = 0;
    while (lineStart < config.size()) {
        qsizetype lineEnd = config.indexOf('\n', lineStart);
        const qsizetype next = lineEnd < 0 ? config.size() : lineEnd + 1;
        const QByteArray line = config.mid(lineStart, (lineEnd < 0 ? config.size() : lineEnd) - lineStart).trimmed();
        if (span.begin < 0 && line == kBlockBegin) {
            span.begin = lineStart;
        } else if (span.begin >= 0 && line == kBlockEnd) {
            span.end = next;
            return span;
        }
        lineStart = next;
    }
    // A begin marker without an end (hand-edited): treat as no block rather than eat the file.
    return Span{};
}

// Only called for values checkEntry accepted: no control characters, quotes or backslashes, so
// the quotes always close on the same line.
QByteArray quoteValue(const QString &value)
{
    QByteArray v = value.toUtf8();
    if (v.contains(' '))
        return '"' + v + '"';
    return v;
}

// IdentityFile expands %d, %u, … tokens; a literal '%' in a path is written as "%%".
QByteArray quotePath(const QString &path)
{
    QString escaped = path;
    escaped.replace(QLatin1Char('%'), QStringLiteral("%%"));
    return quoteValue(escaped);
}

} // namespace

QString aliasFor(const QString &hostName)
{
    // Compiled once: building a QRegularExpression JIT-compiles it, dearer than the replace itself.
    static const QRegularExpression disallowed(QStringLiteral("[^A-Za-z0-9._@-]+"));
    static const QRegularExpression edges(QStringLiteral("^[-.]+|-+$"));
    QString alias = hostName.trimmed();
    alias.replace(disallowed, QStringLiteral("-"));
    alias.remove(edges);
    return alias.isEmpty() ? QStringLiteral("gantry-host") : alias;
}

Result<void> checkEntry(const HostEntry &entry)
{
    static const QRegularExpression aliasPattern(QStringLiteral("^[A-Za-z0-9_@][A-Za-z0-9._@-]*$"));
    Result<void> checked;
    if (!aliasPattern.match(entry.alias).hasMatch())
        checked = makeError(ErrorCode::Usage, SshconfigText::tr("\"%1\" cannot be a Host alias").arg(text::printable(entry.alias)));
    if (checked)
        checked = ssh::checkHost(entry.hostName);
    // ssh_config expands %-tokens in User on newer OpenSSH and not on older ones: no way to write '%'.
    if (checked && entry.user.contains(QLatin1Char('%')))
        checked = makeError(ErrorCode::Usage, SshconfigText::tr("user \"%1\" contains '%'").arg(text::printable(entry.user)));
    if (checked && entry.proxyJump.contains(QLatin1Char(',')))
        checked = makeError(ErrorCode::Usage, SshconfigText::tr("ProxyJump \"%1\" lists several hops").arg(text::printable(entry.proxyJump)));
    if (checked) {
        ssh::Target target;
        target.host = entry.hostName;
        target.port = entry.port;
        target.user = entry.user;
        target.identityFiles = entry.identityFiles;
        target.proxyJump = entry.proxyJump;
        checked = ssh::checkTarget(target);
    }
    if (!checked)
        return makeError(ErrorCode::Usage,
                         SshconfigText::tr("Gantry will not write host \"%1\" into an ssh config: %2. Fix or remove that host "
                                   "(gantry-cli hosts remove NAME), then sync again.")
                             .arg(text::printable(entry.alias), checked.error().message));
    return {};
}

QByteArray renderBlock(const QList<HostEntry> &entries)
{
    if (entries.isEmpty())
        return {};
    QByteArray out;
    out += kBlockBegin;
    out += "\n# Written by Gantry for its machines; edits here are replaced. Turn it off in Gantry or run\n"
           "# `gantry-cli ssh-config remove`.\n";
    for (const HostEntry &e : entries) {
        // Defence in depth: SshConfigFile::sync refuses such entries before it gets here.
        if (!checkEntry(e))
            continue;
        out += "Host " + e.alias.toUtf8() + '\n';
        out += "    HostName " + quoteValue(e.hostName) + '\n';
        if (e.port != 22)
            out += "    Port " + QByteArray::number(e.port) + '\n';
        if (!e.user.isEmpty())
            out += "    User " + quoteValue(e.user) + '\n';
        for (const QString &key : e.identityFiles)
            out += "    IdentityFile " + quotePath(key) + '\n';
        if (!e.proxyJump.isEmpty())
            out += "    ProxyJump " + quoteValue(e.proxyJump) + '\n';
    }
    // Back to "all hosts" so whatever follows the block means what it meant before.
    out += "Host *\n";
    out += kBlockEnd;
    out += '\n';
    return out;
}

bool hasBlock(const QByteArray &config)
{
    return findBlock(config).begin >= 0;
}

QByteArray applyBlock(const QByteArray &config, const QList<HostEntry> &entries)
{
    const QByteArray block = renderBlock(entries);
    const Span span = findBlock(config);
    if (span.begin >= 0)
        return config.left(span.begin) + block + config.mid(span.end);
    if (block.isEmpty())
        return config;
    return block + config;
}

QStringList managedAliases(const QByteArray &config)
{
    const Span span = findBlock(config);
    QStringList aliases;
    if (span.begin < 0)
        return aliases;
    const QList<QByteArray> lines = config.mid(span.begin, span.end - span.begin).split('\n');
    for (const QByteArray &raw : lines) {
        const QByteArray line = raw.trimmed();
        if (line.startsWith("Host ") && line != "Host *")
            aliases.append(QString::fromUtf8(line.mid(5).trimmed()));
    }
    return aliases;
}

} // namespace gantry::sshconfig
