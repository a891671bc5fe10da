#include "core/transfer/treetransfer.h"
#include "core/transfer/transferjob.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/chunkworkers.h"
#include "core/transfer/listingstream.h"
#include "core/transfer/localwrite.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/tarbatchdownload.h"
#include "core/transfer/tarbatchwarmup.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <algorithm>

namespace gantry::transfer {

namespace {

// What the host says the folder holds, in one round trip: files (with sizes, which bound what
// each may write), folders (created even when empty) and anything else (not copied, noted).
struct RemoteListing
{
    QHash<QString, quint64> sizes;
    QStringList files; // in find's order: a folder's files together
    QStringList dirs;
    QStringList others;
};

// One find record, "TYPE\tSIZE\t./PATH" (a path may hold tabs), kept in `listing`.
void keepRecord(RemoteListing &listing, const QByteArray &rec, ListingMeter &meter)
{
    const qsizetype tab1 = rec.indexOf('\t');
    const qsizetype tab2 = tab1 < 0 ? -1 : rec.indexOf('\t', tab1 + 1);
    if (tab2 < 0 || rec.mid(tab2 + 1, 2) != "./") return; // what the login shell printed before it
    const QString rel = QString::fromUtf8(rec.constData() + tab2 + 3, rec.size() - tab2 - 3);
    if (!meter.add(keptNameCost(rec.size() - tab2 - 3))) return;
    const QByteArrayView type(rec.constData(), tab1);
    if (type == "f") {
        listing.files.append(rel);
        listing.sizes.insert(rel, QByteArrayView(rec.constData() + tab1 + 1, tab2 - tab1 - 1).toULongLong());
    } else if (type == "d") {
        listing.dirs.append(rel);
    } else {
        listing.others.append(rel);
    }
}

// The listing's command: the leading NUL keeps what the login shell printed out of the first
// record; "./NAME": a folder named "-delete" must reach find as a path, not as an option.
QString listingCommand(const QString &parent, const QString &name)
{
    return QStringLiteral("printf '\\0' && cd -- %1 && find %2 -printf '%y\\t%s\\t%p\\0'")
        .arg(ssh::shellQuote(parent), ssh::shellQuote(QStringLiteral("./") + name));
}

// Read as it arrives from `channel`, where the listing command already runs: a listing costs the
// entries kept, not its bytes again (issue 31).
// firstRecordMs: when the first entry arrived on `since` (the login shell's start-up is in it).
Result<RemoteListing> listRemoteFolder(TransferContext &ctx, ssh::Session &session, ssh::Channel &channel, const QString &remoteFolder,
                                       const QElapsedTimer &since, qint64 *firstRecordMs)
{
    RemoteListing listing;
    ListingMeter meter(session.limits(), ctx.host(), remoteFolder);
    QByteArray err;
    const auto status = execListing(session, &channel, {}, 60 * 60 * 1000, meter, [&](const QByteArray &rec) {
        if (*firstRecordMs < 0) *firstRecordMs = since.elapsed();
        keepRecord(listing, rec, meter);
        return !meter.error();
    }, &err, ctx.cancel());
    if (!status && meter.error()) return status.error();
    if (!status && status.error().code == ErrorCode::Cancelled) return Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")};
    // A link that dropped mid-listing ends the command without an exit status (sshd sends one for
    // every command that ends): worth a retry, unlike a folder the host cannot list.
    if ((!status && isTransient(status.error())) || (status && *status < 0)) {
        return Error{ErrorCode::ConnectFailed, TransferText::tr("The connection to %1 dropped while %2 was listed.").arg(ctx.host(), remoteFolder)};
    }
    if (!status || *status != 0) {
        return Error{ErrorCode::RemoteFailed, TransferText::tr("Cannot list %1 on %2: %3")
                                                  .arg(remoteFolder, ctx.host(),
                                                       status ? QString::fromUtf8(err).trimmed() : status.error().message)};
    }
    return listing;
}

// Sessions for a download on a link of rtt ms (>= 10): each channel is capped by libssh's
// receive window (about 1.2 MB) per round trip, so long links need many.
int downloadParallel(qint64 rtt)
{
    return rtt >= 30 ? 8 : 4;
}

// Batches small enough that every session gets a few, so the last ones to finish are short.
QList<QStringList> planDownloadBatches(const RemoteListing &listing, const QSet<QString> &leave, int sessions, quint64 total)
{
    const int parts = std::max(1, sessions * 3);
    const int maxFiles = sessions > 1 ? std::clamp(int(listing.files.size()) / parts, 100, 10000) : 10000;
    const quint64 maxBytes = sessions > 1 ? std::clamp<quint64>(total / quint64(parts), 4ull << 20, 256ull << 20) : 256ull << 20;
    QList<QStringList> batches;
    QStringList current;
    quint64 bytes = 0;
    for (const QString &rel : listing.files) {
        if (leave.contains(rel)) continue;
        if (!current.isEmpty() && (current.size() >= maxFiles || bytes >= maxBytes)) {
            batches.append(current);
            current.clear();
            bytes = 0;
        }
        current.append(rel);
        bytes += listing.sizes.value(rel);
    }
    if (!current.isEmpty()) batches.append(current);
    return batches;
}

// Files already here that policy leaves as they are (counted as resumed); a Conflict when policy
// forbids touching one that differs.
Result<QSet<QString>> filesToLeave(TransferContext &ctx, const RemoteListing &listing, const QString &name,
                                   const QString &localTop, ConflictPolicy policy)
{
    QSet<QString> leave;
    if (policy == ConflictPolicy::Overwrite || !QFileInfo::exists(localTop)) return leave;
    for (const QString &rel : listing.files) {
        const auto local = localPathForEntry(rel, name, localTop);
        if (!local) continue; // refused when it arrives
        const QFileInfo here(*local);
        if (!here.exists() && !here.isSymLink()) continue;
        const quint64 size = listing.sizes.value(rel);
        if (policy == ConflictPolicy::Skip || (policy == ConflictPolicy::Resume && here.isFile() && quint64(here.size()) == size)) {
            ctx.addResumed(size);
            ctx.addFilesDone(1);
            leave.insert(rel);
            continue;
        }
        return Error{ErrorCode::Conflict, TransferText::tr("%1 already exists here (and differs). Choose overwrite, skip, "
                                                           "resume or rename.").arg(*local)};
    }
    return leave;
}

// Folders of the listing (empty ones too), each only where its nearest existing ancestor lies
// inside localTop: a symlink planted here must not make a folder appear elsewhere.
Result<void> makeFolders(const RemoteListing &listing, const QString &name, const QString &localTop)
{
    QDir().mkpath(localTop);
    const QString top = QFileInfo(localTop).canonicalFilePath();
    for (const QString &rel : listing.dirs) {
        const auto local = localPathForEntry(rel, name, localTop);
        if (!local) continue;
        QString existing = *local;
        while (!QFileInfo::exists(existing) && existing.size() > localTop.size()) existing = QFileInfo(existing).absolutePath();
        const QString canonical = QFileInfo(existing).canonicalFilePath();
        if (top.isEmpty() || (canonical != top && !canonical.startsWith(top + QLatin1Char('/')))) {
            return Error{ErrorCode::PermissionDenied, TransferText::tr("%1 leads outside %2 through a symbolic link; nothing was written "
                                                                       "there. Remove the link or pick another destination and retry.")
                                                          .arg(existing, localTop)};
        }
        QDir().mkpath(*local);
    }
    return {};
}

// The verdict once every batch is in: mismatches fail, missing or unchecked files are noted.
Result<TransferOutcome> checkArrivals(TransferOutcome outcome, const DownloadTally &tally, const RemoteListing &listing)
{
    if (tally.mismatches > 0) {
        return Error{ErrorCode::RemoteFailed, TransferText::tr("Integrity check failed for %n file(s), e.g. %1 (changed on the host "
                                                               "while downloading?). Retry to fetch them again.", nullptr,
                                                               tally.mismatches)
                                                  .arg(tally.firstMismatch)};
    }
    outcome.notes += tally.notes;
    for (const QString &rel : listing.others) outcome.notes.append(TransferText::tr("Skipped %1: not a regular file.").arg(rel));
    int missing = 0;
    for (const QString &rel : listing.files) missing += tally.received.contains(rel) ? 0 : 1;
    if (missing > 0) {
        outcome.notes.append(TransferText::tr("%n file(s) listed on the host did not arrive; retry to fetch them.", nullptr, missing));
    }
    if (tally.unchecked > 0) {
        outcome.notes.append(TransferText::tr("%n file(s) arrived without a checksum from the host and are not verified.", nullptr,
                                tally.unchecked));
    }
    outcome.verified = tally.skippedEntries == 0 && listing.others.isEmpty() && tally.unchecked == 0 && missing == 0;
    return outcome;
}

} // namespace

Result<TransferOutcome> downloadTree(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                     const QString &remoteFolder, const QString &localTop, ConflictPolicy policy)
{
    QElapsedTimer timer;
    timer.start();
    TransferOutcome outcome;
    outcome.destination = localTop;
    // A clearly long link is known from the first connect, as for a file's fan-out; else measured.
    const qint64 rtt = linkRoundTrip(ctx, sftp, true);
    const QString parent = remoteParent(remoteFolder);
    const QString name = remoteBaseName(remoteFolder);
    if (!isPlainName(name)) {
        return Error{ErrorCode::Usage, TransferText::tr("%1 does not name a folder on %2 (it ends in '.', '..' or '/'). Name the folder "
                                                        "itself, e.g. /data/run1, and retry.").arg(remoteFolder, ctx.host())};
    }
    // On a long link the helper sessions connect while the folder is listed.
    const int planned = ctx.options().parallel > 0 ? ctx.options().parallel : (rtt >= 10 ? downloadParallel(rtt) : 1);
    SessionPool pool(ctx, planned - 1);
    // The listing first: sizes for progress and the space check, the batch plan. The first
    // batches' commands start with it (they wait for their names), on the helpers as they connect:
    // a slow login shell is paid beside the listing, not again after it.
    BatchWarmup warmHelpers(pool, downloadBatchCommand(parent), planned - 1, kDownloadBatchesAhead);
    QElapsedTimer listingTime;
    listingTime.start();
    auto opened = session.openExecs(QStringList{listingCommand(parent, name)}
                                    + QStringList(kDownloadBatchesAhead, downloadBatchCommand(parent)));
    if (!opened[0]) return opened[0].error();
    FirstBatches first;
    first.helpers = &warmHelpers;
    for (size_t i = 1; i < opened.size(); ++i) {
        if (opened[i]) first.primary.push_back(std::move(*opened[i]));
    }
    qint64 firstRecordMs = -1;
    const auto listing = listRemoteFolder(ctx, session, **opened[0], remoteFolder, listingTime, &firstRecordMs);
    opened[0]->reset();
    if (!listing) return listing.error();
    // The listing's first entry takes its channel's two round trips and about one more, plus
    // whatever the login shell's start-up files cost (not the walk of a large tree).
    const bool slowShell = firstRecordMs > 3 * std::max<qint64>(rtt, 0) + 250;
    quint64 total = 0;
    for (quint64 s : std::as_const(listing->sizes)) total = total + s < total ? ~quint64(0) : total + s; // a host can report any size
    ctx.addTotals(total, int(listing->sizes.size()));
    outcome.totalBytes = total;
    outcome.files = int(listing->sizes.size());

    const QString localParent = QFileInfo(localTop).absolutePath();
    if (!QDir().mkpath(localParent)) {
        return Error{ErrorCode::PermissionDenied, TransferText::tr("Cannot create the local folder %1.").arg(localParent)};
    }
    if (auto space = checkLocalSpace(localParent, total, QFileInfo(localTop).fileName()); !space) return space.error();
    auto leave = filesToLeave(ctx, *listing, name, localTop, policy);
    if (!leave) return leave.error();
    if (auto made = makeFolders(*listing, name, localTop); !made) return made.error();
    // From here on, whatever is in the folder either passed the policy above or is this
    // transfer's: a later attempt (after a dropped link) may go on there.
    ctx.setFolderWrittenInto(localTop, policy);
    // Sessions as for the upload of such a folder; batches striped over them.
    const int parallel = ctx.options().parallel > 0 ? ctx.options().parallel
                                                    : std::max(planned, treeParallel(total, int(listing->files.size()), rtt));
    const auto batches = planDownloadBatches(*listing, *leave, parallel, total);
    TreeDownloadSpec spec{remoteFolder, parent, name, localTop, listing->sizes, slowShell};
    DownloadTally tally;
    tally.received = *leave;
    const auto failure = fetchBatches(ctx, session, spec, batches, parallel, pool, tally, std::move(first));
    outcome.payloadBytes = tally.payload;
    outcome.wireBytes = tally.wire;
    if (failure) return *failure;
    auto checked = checkArrivals(std::move(outcome), tally, *listing);
    if (checked) checked->seconds = double(timer.elapsed()) / 1000.0;
    return checked;
}

} // namespace gantry::transfer
