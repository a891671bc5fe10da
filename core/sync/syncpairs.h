#pragma once

#include "core/util/result.h"

#include <QJsonObject>
#include <QList>
#include <QString>

// The folder pairs a user syncs, per machine, remembered in the config dir (sync/pairs.json) so
// that "Keep in sync" resumes after a restart. Written atomically (QSaveFile): a crash mid-write
// leaves the previous list, never a torn one.
namespace gantry::sync {

struct SyncPair
{
    QString host;
    QString localDir;  // absolute, canonical
    QString remoteDir; // as SyncTarget wants it (no trailing '/', home-relative without "~/")
    bool deleteGone = false;
    bool keepInSync = false;

    bool sameAs(const SyncPair &other) const
    {
        return host == other.host && localDir == other.localDir && remoteDir == other.remoteDir;
    }
};

// "~/x" → "x", "~" → ".", trailing slashes dropped: remote commands start in the home folder, as
// `gantry-cli sync` reads a REMOTE_DIR.
QString normalRemoteDir(QString remoteDir);

// The pairs of one machine (all of them when host is empty), in the order they were added.
QList<SyncPair> pairsOf(const QList<SyncPair> &pairs, const QString &host);

// {"host", "local", "remote", "delete", "keepInSync", "lastSynced"}: lastSynced is when the
// pair's sync manifest under configDir was last written (ISO 8601, UTC), null before a first sync.
QJsonObject pairToJson(const SyncPair &pair, const QString &configDir);

class SyncPairStore
{
public:
    explicit SyncPairStore(QString configDir);

    // A missing file is an empty list; an unreadable one is an error naming the file.
    Result<QList<SyncPair>> load() const;
    Result<void> save(const QList<SyncPair> &pairs) const;
    QString path() const;
    // Removes the pair (host, local folder, remote folder) from the list; NotFound when it is not
    // there. Files on either side and the sync manifest stay as they are.
    Result<void> forget(const SyncPair &pair) const;

private:
    QString m_configDir;
};

} // namespace gantry::sync
