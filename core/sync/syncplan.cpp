#include "core/sync/syncplan.h"

namespace gantry::sync {

namespace {

QHash<QByteArray, const SyncEntry *> byPath(const QList<SyncEntry> &entries)
{
    QHash<QByteArray, const SyncEntry *> index;
    index.reserve(entries.size());
    for (const SyncEntry &e : entries) index.insert(e.path, &e);
    return index;
}

} // namespace

bool differs(const SyncEntry &local, const SyncEntry &remote, const PlanOptions &options)
{
    if (local.type != remote.type) return true;
    if (local.type == SyncEntry::Link) return local.linkTarget != remote.linkTarget;
    if (local.size != remote.size) return true;
    if (local.mode != remote.mode) return true;
    if (options.checksum) {
        const QByteArray mine = options.localSums.value(local.path);
        return mine.isEmpty() || mine != options.remoteSums.value(local.path);
    }
    return local.mtime != remote.mtime;
}

QList<QByteArray> checksumCandidates(const LocalScan &local, const RemoteListing &remote)
{
    const auto theirs = byPath(remote.entries);
    QList<QByteArray> paths;
    for (const SyncEntry &e : local.entries) {
        if (e.type != SyncEntry::File) continue;
        const SyncEntry *r = theirs.value(e.path);
        if (r && r->type == SyncEntry::File && r->size == e.size) paths.append(e.path);
    }
    return paths;
}

SyncPlan planSync(const LocalScan &local, const RemoteListing &remote, const SyncManifest &manifest, const PlanOptions &options)
{
    SyncPlan plan;
    const auto theirs = byPath(remote.entries);
    QSet<QByteArray> mine;
    mine.reserve(local.entries.size());
    for (const SyncEntry &e : local.entries) {
        mine.insert(e.path);
        const SyncEntry *r = theirs.value(e.path);
        if (e.type == SyncEntry::Dir) {
            if (!r) {
                plan.dirs.append(e);
            } else if (r->type != SyncEntry::Dir) {
                plan.conflicts.append(e.path);
            }
            continue;
        }
        if (r && r->type == SyncEntry::Dir) {
            plan.conflicts.append(e.path);
            continue;
        }
        if (r && !differs(e, *r, options)) {
            plan.unchanged += 1;
            continue;
        }
        if (r) plan.changed.insert(e.path);
        plan.send.append(e);
        plan.sendBytes += e.size;
    }
    if (!options.deleteGone) return plan;
    const auto gone = [&](const QByteArray &path) {
        return !mine.contains(path) && theirs.contains(path) && !(options.existsLocally && options.existsLocally(path));
    };
    for (const QByteArray &path : manifest.files) {
        const SyncEntry *r = theirs.value(path);
        if (gone(path) && r->type != SyncEntry::Dir) plan.removeFiles.append(path);
    }
    for (const QByteArray &path : manifest.dirs) {
        const SyncEntry *r = theirs.value(path);
        if (gone(path) && r->type == SyncEntry::Dir) plan.removeDirs.append(path);
    }
    std::sort(plan.removeFiles.begin(), plan.removeFiles.end());
    std::sort(plan.removeDirs.begin(), plan.removeDirs.end());
    return plan;
}

} // namespace gantry::sync
