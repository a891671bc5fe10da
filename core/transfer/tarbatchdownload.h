#pragma once

#include "core/ssh/session.h"
#include "core/transfer/tarbatchpool.h"
#include "core/transfer/transfercontext.h"

#include <QHash>
#include <QSet>
#include <QStringList>

#include <optional>
#include <vector>

// The batches of a folder download: each is a remote `tar -c` of the names it lists (passed on
// the command's stdin, NUL-separated, never through the shell), followed by the remote
// SHA-256 of the same names on stderr. Files are unpacked beside their final name as
// ".gantry-partial" and renamed only once the batch's hashes match. Batches are striped over
// several sessions, each starting its next batch while the current one streams.
namespace gantry::transfer {

// What a folder download fetches and where it goes.
struct TreeDownloadSpec
{
    QString remoteFolder; // as the user named it, for messages
    QString parent;       // remote folder holding `name`
    QString name;         // the folder's own name; entries are "name/…"
    QString localTop;     // the local folder standing for `name`
    QHash<QString, quint64> sizes; // listed size per entry: bounds what an entry may write
    // The host's login shell took a noticeable time to start the listing (conda or pyenv init):
    // batch commands then start a batch earlier (see kDownloadBatchesAhead).
    bool slowShell = false;
};

// What arrived, for the verdict at the end.
struct DownloadTally
{
    quint64 payload = 0;
    quint64 wire = 0;
    int mismatches = 0;
    int skippedEntries = 0; // not regular files: not copied, so the folder is not verified
    int unchecked = 0;      // arrived without a hash from the host
    QSet<QString> received;
    QString firstMismatch;
    QStringList notes;
};

class BatchWarmup;

// The remote command of one batch; it reads the batch's names (NUL-separated) on stdin, so it can
// be started before they are known.
QString downloadBatchCommand(const QString &parent);

// How many batch commands a session keeps started: the first ones start while the folder is
// listed, and a later one as the batch three before it ends (the one read and two ahead), or as
// it begins where the login shell is slow (three ahead), so a shell that takes a second to start
// is not waited for between batches.
constexpr int kDownloadBatchesAhead = 3;

// Batch commands started while the folder was listed (tarbatchwarmup.h): kDownloadBatchesAhead
// on the primary session, and on each helper.
struct FirstBatches
{
    std::vector<std::unique_ptr<ssh::Channel>> primary;
    BatchWarmup *helpers = nullptr;
};

// Fetches every batch (lists of entry names) over up to `sessions` sessions: primary and helpers
// from the pool, the warm ones in `first` before any other. The error that stopped it, if any;
// tally holds what arrived either way.
std::optional<Error> fetchBatches(TransferContext &ctx, ssh::Session &primary, const TreeDownloadSpec &spec,
                                  const QList<QStringList> &batches, int sessions, SessionPool &pool,
                                  DownloadTally &tally, FirstBatches first = {});

} // namespace gantry::transfer
