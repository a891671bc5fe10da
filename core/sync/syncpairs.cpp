#include "core/sync/syncpairs.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace gantry::sync {

namespace {
// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class PairText
{
    Q_DECLARE_TR_FUNCTIONS(Sync)
};
} // namespace

QString normalRemoteDir(QString remoteDir)
{
    while (remoteDir.size() > 1 && remoteDir.endsWith(QLatin1Char('/'))) remoteDir.chop(1);
    if (remoteDir.startsWith(QLatin1String("~/"))) remoteDir = remoteDir.mid(2);
    if (remoteDir == QLatin1String("~") || remoteDir.isEmpty()) remoteDir = QStringLiteral(".");
    return remoteDir;
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
        return Error{ErrorCode::Io, PairText::tr("Cannot read the sync folder pairs in %1: %2. Check its permissions.")
                                        .arg(path(), f.errorString())};
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    if (!doc.isObject()) {
        return Error{ErrorCode::Parse, PairText::tr("The sync folder pairs in %1 are not valid JSON (%2). Remove the file to "
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
        return Error{ErrorCode::Io, PairText::tr("Cannot save the sync folder pairs to %1: %2. Check that the config folder "
                                                 "is writable.").arg(path(), f.errorString())};
    }
    return {};
}

} // namespace gantry::sync
