#include "core/jobs/results.h"
#include "core/jobs/jobstext.h"

#include "core/ssh/session.h"
#include "core/util/schemaversion.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QSaveFile>

namespace gantry::jobs {
namespace {
constexpr int kResultsSchema = 1; // results.json's format; 1: every file so far
} // namespace

ResultPathStore::ResultPathStore(QString configDir) : m_configDir(std::move(configDir)) {}

QString ResultPathStore::filePath() const
{
    return QDir(m_configDir).filePath(QStringLiteral("results.json"));
}

QHash<QString, QStringList> ResultPathStore::load() const
{
    QHash<QString, QStringList> all;
    QFile file(filePath());
    if (!file.open(QIODevice::ReadOnly))
        return all;
    // A newer Gantry's file is read as far as this build understands it; save() will not replace it.
    const QJsonObject stored = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonObject hosts = schema::upgrade(stored, kResultsSchema, filePath()).valueOr(stored).value(QStringLiteral("hosts")).toObject();
    for (auto it = hosts.constBegin(); it != hosts.constEnd(); ++it) {
        QStringList list;
        const QJsonArray array = it.value().toArray();
        for (const QJsonValue &v : array)
            list << v.toString();
        all.insert(it.key(), list);
    }
    return all;
}

Result<void> ResultPathStore::save(const QHash<QString, QStringList> &all) const
{
    QJsonObject hosts;
    for (auto it = all.constBegin(); it != all.constEnd(); ++it)
        hosts.insert(it.key(), QJsonArray::fromStringList(it.value()));
    if (Result<void> replaceable = schema::checkReplaceable(filePath(), kResultsSchema); !replaceable)
        return replaceable;
    QDir().mkpath(m_configDir);
    QSaveFile file(filePath());
    if (!file.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, JobsText::tr("Cannot write %1: %2.").arg(filePath(), file.errorString()));
    file.write(QJsonDocument(schema::stamped(QJsonObject{{QStringLiteral("hosts"), hosts}}, kResultsSchema)).toJson());
    if (!file.commit())
        return makeError(ErrorCode::Io, JobsText::tr("Cannot write %1: %2.").arg(filePath(), file.errorString()));
    return {};
}

QStringList ResultPathStore::patterns(const QString &hostName) const
{
    return load().value(hostName);
}

Result<void> ResultPathStore::setPatterns(const QString &hostName, const QStringList &patterns)
{
    QStringList clean;
    for (const QString &p : patterns) {
        const QString t = p.trimmed();
        if (!t.isEmpty() && !clean.contains(t))
            clean << t;
    }
    auto all = load();
    if (clean.isEmpty())
        all.remove(hostName);
    else
        all.insert(hostName, clean);
    return save(all);
}

Result<void> ResultPathStore::removeHost(const QString &hostName)
{
    auto all = load();
    all.remove(hostName);
    return save(all);
}

namespace scripts {
namespace {
// Quotes everything except the glob characters, so "runs/*.pth" globs but "a b;c" stays a name.
QString globWord(const QString &pattern)
{
    QString p = pattern;
    QString out;
    if (p == u"~" || p.startsWith(u"~/")) {
        out = QStringLiteral("\"$HOME\"");
        p = p.mid(1);
    }
    QString literal;
    auto flush = [&] {
        if (!literal.isEmpty())
            out += ssh::shellQuote(literal);
        literal.clear();
    };
    for (const QChar c : p) {
        if (c == u'*' || c == u'?' || c == u'[' || c == u']') {
            flush();
            out += c;
        } else {
            literal += c;
        }
    }
    flush();
    return out;
}
} // namespace

QString expandResults(const QStringList &patterns, const QString &baseDir)
{
    QString s = QStringLiteral("shopt -s nullglob dotglob globstar 2>/dev/null\n");
    if (baseDir.isEmpty())
        s += QStringLiteral("cd \"$HOME\" || exit 1\n");
    else
        s += QStringLiteral("cd -- ") + globWord(baseDir) + QStringLiteral(" || { echo \"@@nodir\"; exit 25; }\n");
    s += QStringLiteral(R"sh(emit() {
  local m=${1%/} a
  case "$m" in /*) a=$m ;; *) a=$PWD/$m ;; esac
  if [ -d "$m" ]; then printf 'd\t0\t%s\t%s\n' "$m" "$a"
  elif [ -e "$m" ]; then printf 'f\t%s\t%s\t%s\n' "$(stat -c %s -- "$m" 2>/dev/null || echo -1)" "$m" "$a"; fi
}
)sh");
    for (const QString &pattern : patterns) {
        const QString t = pattern.trimmed();
        if (t.isEmpty())
            continue;
        s += QStringLiteral("for m in ") + globWord(t) + QStringLiteral("; do emit \"$m\"; done\n");
    }
    s += QStringLiteral("exit 0\n");
    return s;
}
} // namespace scripts

QList<ResultDownload> parseResultExpansion(const QByteArray &output)
{
    QList<ResultDownload> list;
    const QList<QByteArray> lines = output.split('\n');
    for (const QByteArray &line : lines) {
        const QList<QByteArray> f = line.split('\t');
        if (f.size() != 4 || (f[0] != "d" && f[0] != "f"))
            continue;
        ResultDownload d;
        d.isDirectory = f[0] == "d";
        d.sizeBytes = d.isDirectory ? -1 : f[1].toLongLong();
        d.remotePath = QString::fromUtf8(f[3]);
        QString rel = QString::fromUtf8(f[2]);
        if (rel.startsWith(u'/'))
            rel = rel.section(u'/', -1);
        d.localRelative = rel;
        // A file inside a directory that is already listed comes with it.
        bool covered = false;
        for (const ResultDownload &known : std::as_const(list)) {
            if (known.remotePath == d.remotePath
                || (known.isDirectory && d.remotePath.startsWith(known.remotePath + u'/')))
                covered = true;
        }
        if (!covered)
            list.append(d);
    }
    return list;
}

Result<QList<ResultDownload>> expandResults(ssh::Session &session, const QStringList &patterns, const QString &baseDir)
{
    auto out = session.run(QStringLiteral("bash -c ") + ssh::shellQuote(scripts::expandResults(patterns, baseDir)), 60000);
    if (!out)
        return out.error();
    if (out->exitStatus == 25)
        return makeError(ErrorCode::NotFound, JobsText::tr("The results folder %1 does not exist on %2.").arg(baseDir, session.target().host));
    if (out->exitStatus != 0)
        return makeError(ErrorCode::RemoteFailed,
                         JobsText::tr("Listing the result paths on %1 failed: %2").arg(session.target().host, QString::fromUtf8(out->err.trimmed())));
    return parseResultExpansion(out->out);
}

void TerminateGuard::setState(const QString &hostName, ResultsDownloadState state, const QString &detail)
{
    m_entries.insert(hostName, Entry{state, detail});
}

ResultsDownloadState TerminateGuard::state(const QString &hostName) const
{
    return m_entries.value(hostName).state;
}

Result<void> TerminateGuard::canTerminate(const QString &hostName) const
{
    const Entry e = m_entries.value(hostName);
    if (e.state == ResultsDownloadState::Running)
        return makeError(ErrorCode::Conflict,
                         JobsText::tr("The results of %1 are still downloading; wait for the download to finish (or cancel "
                                     "it) before terminating, or they are lost with the instance.")
                             .arg(hostName));
    if (e.state == ResultsDownloadState::Failed)
        return makeError(ErrorCode::Conflict,
                         JobsText::tr("Downloading the results of %1 failed%2. Retry the download, or confirm that you want "
                                     "to terminate without them.")
                             .arg(hostName, e.detail.isEmpty() ? QString() : QStringLiteral(": ") + e.detail));
    return {};
}

bool TerminateGuard::shouldOfferDownload(const QString &hostName, const QStringList &patterns) const
{
    return !patterns.isEmpty() && state(hostName) != ResultsDownloadState::Done;
}

} // namespace gantry::jobs
