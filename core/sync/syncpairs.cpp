#include "core/sync/syncpairs.h"
#include "core/sync/synctext.h"

#include "core/sync/syncmanifest.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace gantry::sync {

QString normalRemoteDir(QString remoteDir)
{
    while (remoteDir.size() > 1 && remoteDir.endsWith(QLatin1Char('/'))) remoteDir.chop(1);
    if (remoteDir.startsWith(QLatin1String("~/"))) remoteDir = remoteDir.mid(2);
    if (remoteDir == QLatin1String("~") || remoteDir.isEmpty()) remoteDir = QStringLiteral(".");
    return remoteDir;
}

QList<SyncPair> pairsOf(const QList<SyncPair> &pairs, const QString &host)
{
    QList<SyncPair> out;
    for (const SyncPair &p : pairs) {
        if (host.isEmpty() || p.host == host) out.append(p);
    }
    return out;
}

QJsonObject pairToJson(const SyncPair &pair, const QString &configDir)
{
    const QFileInfo manifest(manifestPath(configDir, pair.host, pair.localDir, pair.remoteDir));
    return QJsonObject{{QStringLiteral("host"), pair.host},
                       {QStringLiteral("local"), pair.localDir},
                       {QStringLiteral("remote"), pair.remoteDir},
                       {QStringLiteral("delete"), pair.deleteGone},
                       {QStringLiteral("keepInSync"), pair.keepInSync},
                       {QStringLiteral("lastSynced"), manifest.exists() ? QJsonValue(manifest.lastModified().toUTC().toString(Qt::ISODate))
                                                                        : QJsonValue(QJsonValue::Null)}};
}

SyncPairStore::SyncPairStore(QString configDir) : m_configDir(std::move(configDir)) {}

QString SyncPairStore::path() const
{
    return m_configDir + QStringLiteral("/sync/pairs.json");
}

Result<QList<SyncPair>> SyncPairStore::load() const
{
    QFile f(path());
    if (!f.exists()) return QList<SyncPair>{};
    if (!f.open(QIODevice::ReadOnly)) {
        return Error{ErrorCode::Io, SyncText::tr("Cannot read the sync folder pairs in %1: %2. Check its permissions.")
                                        .arg(path(), f.errorString())};
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    if (!doc.isObject()) {
        return Error{ErrorCode::Parse, SyncText::tr("The sync folder pairs in %1 are not valid JSON (%2). Remove the file to "
                                                    "start over.").arg(path(), parseError.errorString())};
    }
    QList<SyncPair> pairs;
    for (const auto &v : doc.object().value(QStringLiteral("pairs")).toArray()) {
        const QJsonObject o = v.toObject();
        SyncPair p{o.value(QStringLiteral("host")).toString(), o.value(QStringLiteral("local")).toString(),
                   o.value(QStringLiteral("remote")).toString(), o.value(QStringLiteral("delete")).toBool(),
                   o.value(QStringLiteral("keepInSync")).toBool()};
        if (!p.host.isEmpty() && !p.localDir.isEmpty() && !p.remoteDir.isEmpty()) pairs.append(p);
    }
    return pairs;
}

Result<void> SyncPairStore::save(const QList<SyncPair> &pairs) const
{
    QJsonArray list;
    for (const SyncPair &p : pairs) {
        list.append(QJsonObject{{QStringLiteral("host"), p.host}, {QStringLiteral("local"), p.localDir},
                                {QStringLiteral("remote"), p.remoteDir}, {QStringLiteral("delete"), p.deleteGone},
                                {QStringLiteral("keepInSync"), p.keepInSync}});
    }
    QDir().mkpath(m_configDir + QStringLiteral("/sync"));
    QSaveFile f(path());
    if (!f.open(QIODevice::WriteOnly)
        || f.write(QJsonDocument(QJsonObject{{QStringLiteral("version"), 1}, {QStringLiteral("pairs"), list}}).toJson()) < 0
        || !f.commit()) {
        return Error{ErrorCode::Io, SyncText::tr("Cannot save the sync folder pairs to %1: %2. Check that the config folder "
                                                 "is writable.").arg(path(), f.errorString())};
    }
    return {};
}

Result<void> SyncPairStore::forget(const SyncPair &pair) const
{
    auto pairs = load();
    if (!pairs) return pairs.error();
    if (pairs->removeIf([&](const SyncPair &p) { return p.sameAs(pair); }) == 0) {
        return Error{ErrorCode::NotFound, SyncText::tr("No remembered sync pair %1 → %2:%3. The Files tab of %2 lists them (gantry-cli sync --list %2).")
                                              .arg(pair.localDir, pair.host, pair.remoteDir)};
    }
    return save(*pairs);
}

} // namespace gantry::sync
