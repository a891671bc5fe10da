#include "core/transfer/treetransfer.h"

#include "core/transfer/fileupload.h"
#include "core/transfer/localtree.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/tarbatch.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <mutex>
#include <thread>

namespace gantry::transfer {

namespace {

using BatchPlan = QList<QPair<int, int>>;

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class TransferText
{
    Q_DECLARE_TR_FUNCTIONS(Transfer)
};

// Existing files under a remote folder (relative path → size), and whether tar and sha256sum are
// there: one remote command, because each one pays for the login shell's start-up files (conda or
// pyenv init on GPU images can take seconds).
struct RemoteProbe
{
    bool shell = false;
    bool haveTar = false;
    QHash<QString, quint64> sizes;
};

QString probeCommand(const QString &folder, bool listFiles)
{
    QString command = QStringLiteral("command -v tar >/dev/null 2>&1 && command -v sha256sum >/dev/null 2>&1 && "
                                     "printf 'gantry-tar\\0'; ");
    if (listFiles) {
        command += QStringLiteral("cd -- %1 2>/dev/null && find . -type f -printf '%s\\t%P\\0'; true").arg(ssh::shellQuote(folder));
    }
    return command;
}

// Collects a probe started with openExec(probeCommand()).
RemoteProbe collectProbe(Result<std::unique_ptr<ssh::Channel>> &channel, const QString &prefix)
{
    RemoteProbe probe;
    if (!channel) return probe;
    ssh::Channel &ch = **channel;
    (void)ch.sendEof();
    QByteArray out;
    QElapsedTimer waited;
    waited.start();
    while (!ch.isEof() && waited.elapsed() < 10 * 60 * 1000) {
        auto r = ch.read(500);
        if (!r || out.size() > (1 << 20)) return probe; // a probe prints a few lines, not megabytes
        out += *r;
    }
    probe.shell = true;
    for (const QByteArray &rec : out.split('\0')) {
        if (rec.endsWith("gantry-tar")) { // start-up files may have printed before it
            probe.haveTar = true;
            continue;
        }
        const qsizetype tab = rec.indexOf('\t');
        if (tab <= 0) continue;
        probe.sizes.insert(prefix + QString::fromUtf8(rec.mid(tab + 1)), rec.left(tab).toULongLong());
    }
    return probe;
}


// No remote shell: every file over SFTP, each with its own pipelined upload.
Result<void> sftpTreeUpload(TransferContext &ctx, ssh::Session &session, SftpClient &sftp, const QString &remoteParent,
                            const LocalTree &tree, const QSet<QString> &exclude, quint64 *payload)
{
    for (const LocalEntry &e : tree.entries) {
        if (exclude.contains(e.relative)) continue;
        const QString dest = remoteJoin(remoteParent, e.relative);
        if (e.isDir) {
            if (auto m = sftp.mkdirs(dest); !m) return m;
            continue;
        }
        ctx.setCurrentFile(e.relative);
        auto r = uploadFile(ctx, session, sftp, e.absolute, dest, true);
        if (!r) return r.error();
        *payload += r->payloadBytes;
    }
    return {};
}

// Entries are named "TOP/…"; the remote side unpacks into the parent of remoteTop, so TOP
// must be remoteTop's own name.
LocalTree withTopName(const LocalTree &tree, const QString &remoteName)
{
    const QString top = tree.entries.first().relative;
    LocalTree renamed = tree;
    if (remoteName != top) {
        for (LocalEntry &e : renamed.entries) e.relative = remoteName + e.relative.mid(top.size());
    }
    return renamed;
}

// The interrupted upload's journal when the folder is unchanged since, else a fresh one.
TreeJournal resumeJournal(TransferContext &ctx, const QString &key, const LocalTree &tree, const QString &localFolder,
                          const QString &remoteTop, TransferOutcome &outcome)
{
    const auto j = ctx.journals().loadTree(key);
    if (j && j->fingerprint == tree.fingerprint) {
        outcome.resumed = !j->doneBatches.isEmpty();
        return *j;
    }
    if (j) outcome.notes.append(TransferText::tr("%1 changed since the interrupted upload; checking every file again.").arg(localFolder));
    return TreeJournal{ctx.host(), localFolder, remoteTop, tree.fingerprint, {}, j ? j->wireBytes : 0, 0, 0};
}

// The first batch's command, started while the remote probe runs (if the probe then says
// otherwise, it is dropped: tar only sees an empty stream). command is what it runs.
std::unique_ptr<ssh::Channel> startFirstBatch(TransferContext &ctx, ssh::Session &session, const QString &remoteParentDir,
                                              const LocalTree &renamed, QString *command)
{
    if (renamed.entries.isEmpty()) return {};
    const auto first = planBatches(renamed, kBatchFiles, kBatchBytes).value(0); // replanned below on long links
    QString manifest;
    bool verify = false;
    const auto batch = batchCommand(ctx, remoteParentDir, renamed, first.first, first.second, {}, &manifest, &verify);
    if (!batch) return {};
    auto ch = session.openExec(*batch);
    if (!ch) return {};
    *command = *batch;
    return std::move(*ch);
}

// Files already on the host that policy leaves as they are; a Conflict when policy forbids
// touching one that differs.
Result<QSet<QString>> filesToLeave(TransferContext &ctx, const LocalTree &renamed, const RemoteProbe &probe,
                                   ConflictPolicy policy, const QString &remoteParentDir, TransferOutcome &outcome)
{
    QSet<QString> exclude;
    if (policy == ConflictPolicy::Overwrite) return exclude;
    const auto &existing = probe.sizes;
    for (const LocalEntry &e : renamed.entries) {
        if (e.isDir) continue;
        const auto it = existing.constFind(e.relative);
        if (it == existing.constEnd()) continue;
        if (policy == ConflictPolicy::Skip || (policy == ConflictPolicy::Resume && it.value() == e.size)) {
            exclude.insert(e.relative);
        } else if (policy == ConflictPolicy::Ask || policy == ConflictPolicy::Rename
                   || policy == ConflictPolicy::Resume) {
            return Error{ErrorCode::Conflict,
                         TransferText::tr("%1 already exists on %2 (and differs). Choose overwrite, skip, resume or rename.")
                             .arg(remoteJoin(remoteParentDir, e.relative), ctx.host())};
        }
    }
    if (!exclude.isEmpty()) {
        outcome.notes.append(TransferText::tr("%n file(s) already on the host were left as they are.", nullptr, int(exclude.size())));
    }
    return exclude;
}

// Batches small enough that every session gets a few. Resuming keeps the plan the done batches
// were numbered in, whatever the link measures now.
void planBatchSizes(TreeJournal &journal, const LocalTree &tree, int parallelFor)
{
    if (journal.doneBatches.isEmpty()) {
        journal.batchBytes = parallelFor > 1 ? std::clamp<quint64>(tree.totalBytes / quint64(parallelFor * 2), 4ull << 20, kBatchBytes)
                                             : kBatchBytes;
        journal.batchFiles = parallelFor > 1 ? std::clamp(tree.fileCount / (parallelFor * 2), 500, kBatchFiles) : kBatchFiles;
    } else if (journal.batchFiles <= 0 || journal.batchBytes == 0) {
        journal.batchFiles = kBatchFiles; // journals from before plans were recorded used the defaults
        journal.batchBytes = kBatchBytes;
    }
}

// Already verified batches and files left as they are count as resumed.
void countAlreadyThere(TransferContext &ctx, const LocalTree &renamed, const BatchPlan &batches, const TreeJournal &journal,
                       const QSet<QString> &exclude)
{
    for (int b : std::as_const(journal.doneBatches)) {
        if (b < 0 || b >= batches.size()) continue;
        quint64 bytes = 0;
        int files = 0;
        for (int i = batches[b].first; i < batches[b].second; ++i) {
            if (!renamed.entries[i].isDir) {
                bytes += renamed.entries[i].size;
                files += 1;
            }
        }
        ctx.addResumed(bytes);
        ctx.addFilesDone(files);
    }
    for (const QString &rel : std::as_const(exclude)) {
        for (const LocalEntry &e : renamed.entries) {
            if (e.relative == rel) {
                ctx.addResumed(e.size);
                ctx.addFilesDone(1);
                break;
            }
        }
    }
}

// Batches are striped over several sessions on long links (one channel is capped by sshd's
// 2 MiB window per round trip): session k sends batches k, k+n, k+2n… Each starts its next
// batch's remote command while the current one streams, so the shell start-up is hidden too.
// Batches a session could not send (it failed to connect) are sent by the primary session at
// the end. Every verified batch is recorded in the journal at once.
class StripedTarUpload
{
public:
    StripedTarUpload(TransferContext &ctx, const QString &remoteParentDir, const LocalTree &renamed, const BatchPlan &batches,
                     const QSet<QString> &exclude, const QString &key, TreeJournal &journal)
        : m_ctx(ctx), m_remoteParentDir(remoteParentDir), m_tree(renamed), m_batches(batches), m_exclude(exclude), m_key(key),
          m_journal(journal)
    {
    }

    // first, when given, already runs batch 0's command on primary.
    std::optional<Error> run(ssh::Session &primary, int sessions, std::unique_ptr<ssh::Channel> first)
    {
        std::vector<std::thread> helpers;
        for (int k = 1; k < sessions; ++k) {
            helpers.emplace_back([this, k, sessions] {
                auto own = m_ctx.factory()(m_ctx.cancel());
                if (own) sendStripe(**own, k, sessions, nullptr, -1);
            });
        }
        sendStripe(primary, 0, sessions, std::move(first), 0);
        for (auto &t : helpers) t.join();
        if (!m_failure) sendStripe(primary, 0, 1, nullptr, -1); // stripes of helpers that could not connect
        return m_failure;
    }

    quint64 payload() const { return m_payload; }

private:
    std::unique_ptr<ssh::Channel> open(ssh::Session &own, int b)
    {
        QString manifest;
        bool verify = false;
        const auto command = batchCommand(m_ctx, m_remoteParentDir, m_tree, m_batches[b].first, m_batches[b].second, m_exclude,
                                          &manifest, &verify);
        if (!command) return {};
        auto ch = own.openExec(*command);
        return ch ? std::move(*ch) : nullptr;
    }

    bool pending(int b)
    {
        std::lock_guard lock(m_mutex);
        return !m_journal.doneBatches.contains(b) && !m_failure;
    }

    // Records a sent batch; false when the stripe must stop.
    bool record(int b, quint64 batchWire, quint64 batchPayload, const Result<void> &sent)
    {
        std::lock_guard lock(m_mutex);
        m_journal.wireBytes += batchWire;
        m_payload += batchPayload;
        if (sent) m_journal.doneBatches.append(b);
        (void)m_ctx.journals().save(m_key, m_journal);
        if (sent) return true;
        if (!m_failure) m_failure = sent.error();
        return false;
    }

    void sendStripe(ssh::Session &own, int stripe, int stride, std::unique_ptr<ssh::Channel> first, int firstFor)
    {
        std::unique_ptr<ssh::Channel> next = std::move(first);
        int nextFor = firstFor;
        for (int b = stripe; b < m_batches.size(); b += stride) {
            if (!pending(b)) continue;
            if (m_ctx.cancelled()) {
                std::lock_guard lock(m_mutex);
                if (!m_failure) m_failure = Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")};
                return;
            }
            std::unique_ptr<ssh::Channel> current = nextFor == b ? std::move(next) : nullptr;
            next.reset();
            nextFor = -1;
            for (int n = b + stride; n < m_batches.size(); n += stride) {
                if (!pending(n)) continue;
                next = open(own, n);
                nextFor = n;
                break;
            }
            quint64 batchWire = 0;
            quint64 batchPayload = 0;
            auto r = sendBatch(m_ctx, own, m_remoteParentDir, m_tree, m_batches[b].first, m_batches[b].second, m_exclude,
                               &batchWire, &batchPayload, std::move(current));
            if (!record(b, batchWire, batchPayload, r)) return;
        }
    }

    TransferContext &m_ctx;
    const QString &m_remoteParentDir;
    const LocalTree &m_tree;
    const BatchPlan &m_batches;
    const QSet<QString> &m_exclude;
    const QString &m_key;
    TreeJournal &m_journal;
    std::mutex m_mutex;
    std::optional<Error> m_failure;
    quint64 m_payload = 0;
};

// A dropped speculative command still runs on the host, in batch 0's staging folder (the same
// name: both start at entry 0); closing the channel does not wait for it. It is let finish (tar
// sees an empty stream) so it cannot remove or recreate that folder under the real batch 0.
void finishDroppedBatch(std::unique_ptr<ssh::Channel> channel)
{
    (void)channel->sendEof();
    QElapsedTimer waited;
    waited.start();
    while (!channel->isEof() && waited.elapsed() < 120000) {
        if (!channel->read(200)) return;
    }
}

// The speculative first channel, when it runs exactly the command batch 0 needs now.
std::unique_ptr<ssh::Channel> reuseFirstBatch(TransferContext &ctx, std::unique_ptr<ssh::Channel> speculative,
                                              const QString &speculativeCommand, const QString &remoteParentDir,
                                              const LocalTree &renamed, const BatchPlan &batches, const TreeJournal &journal,
                                              const QSet<QString> &exclude)
{
    if (!speculative || batches.isEmpty() || journal.doneBatches.contains(0)) return {};
    QString manifest;
    bool verify = false;
    if (batchCommand(ctx, remoteParentDir, renamed, batches[0].first, batches[0].second, exclude, &manifest, &verify)
        != std::optional<QString>(speculativeCommand)) {
        finishDroppedBatch(std::move(speculative));
        return {};
    }
    return speculative;
}

} // namespace

int treeParallel(quint64 bytes, int files, qint64 roundTripMs)
{
    const int bySize = autoParallel(bytes, roundTripMs);
    return files >= 1000 ? std::max(bySize, 4) : bySize;
}

Result<quint64> uploadEntries(TransferContext &ctx, ssh::Session &session, const QString &remoteDir, const LocalTree &tree,
                              int sessions)
{
    if (tree.entries.isEmpty()) return quint64(0);
    // The journal only serves the striping here: a sync that is interrupted compares again.
    const QString key = JournalStore::key(Direction::Upload, ctx.host(), QStringLiteral("sync:") + QString::fromLatin1(tree.fingerprint),
                                          remoteDir);
    TreeJournal journal{ctx.host(), QString(), remoteDir, tree.fingerprint, {}, 0, 0, 0};
    planBatchSizes(journal, tree, sessions);
    const BatchPlan batches = planBatches(tree, journal.batchFiles, journal.batchBytes);
    const QSet<QString> none;
    StripedTarUpload upload(ctx, remoteDir, tree, batches, none, key, journal);
    const auto failure = upload.run(session, int(std::max<qsizetype>(1, std::min<qsizetype>(sessions, batches.size()))), nullptr);
    ctx.journals().remove(key);
    if (failure) return *failure;
    return upload.payload();
}

Result<TransferOutcome> uploadTree(TransferContext &ctx, ssh::Session &session, SftpClient &sftp,
                                   const QString &localFolder, const QString &remoteTop, ConflictPolicy policy)
{
    QElapsedTimer timer;
    timer.start();
    TransferOutcome outcome;
    outcome.destination = remoteTop;
    // The remote probe (tar there? which files exist?) runs while the local folder is scanned.
    const QString remoteName = remoteBaseName(remoteTop);
    auto probeChannel = session.openExec(probeCommand(remoteTop, policy != ConflictPolicy::Overwrite));
    auto scanned = scanLocalTree(localFolder, ctx.options().followSymlinks);
    if (!scanned) return scanned.error();
    const LocalTree &tree = *scanned;
    outcome.notes = tree.notes;
    outcome.totalBytes = tree.totalBytes;
    outcome.files = tree.fileCount;
    ctx.addTotals(tree.totalBytes, tree.fileCount);

    const QString remoteParentDir = remoteParent(remoteTop);
    const LocalTree renamed = withTopName(tree, remoteName);
    const QString key = JournalStore::key(Direction::Upload, ctx.host(), QFileInfo(localFolder).absoluteFilePath(), remoteTop);
    if (auto replaceable = ctx.journals().checkReplaceable(key); !replaceable) return replaceable.error();
    TreeJournal journal = resumeJournal(ctx, key, tree, localFolder, remoteTop, outcome);
    QString speculativeCommand;
    std::unique_ptr<ssh::Channel> speculative = startFirstBatch(ctx, session, remoteParentDir, renamed, &speculativeCommand);
    const RemoteProbe probe = collectProbe(probeChannel, remoteName + QLatin1Char('/'));
    const auto exclude = filesToLeave(ctx, renamed, probe, policy, remoteParentDir, outcome);
    if (!exclude) return exclude.error();

    // Sessions for the tar batches, as for one file of the folder's size.
    const int parallelFor = ctx.options().parallel > 0 ? ctx.options().parallel
                                                        : treeParallel(tree.totalBytes, tree.fileCount, sftp.roundTripMs());
    planBatchSizes(journal, tree, parallelFor);
    const BatchPlan batches = planBatches(renamed, journal.batchFiles, journal.batchBytes);
    countAlreadyThere(ctx, renamed, batches, journal, *exclude);

    if (!probe.haveTar) {
        outcome.notes.append(TransferText::tr("%1 runs no tar; files were sent one by one over SFTP.").arg(ctx.host()));
        quint64 payload = 0;
        auto r = sftpTreeUpload(ctx, session, sftp, remoteParentDir, renamed, *exclude, &payload);
        outcome.payloadBytes = payload;
        if (!r) return r.error();
    } else {
        auto first = reuseFirstBatch(ctx, std::move(speculative), speculativeCommand, remoteParentDir, renamed, batches, journal,
                                     *exclude);
        StripedTarUpload upload(ctx, remoteParentDir, renamed, batches, *exclude, key, journal);
        const int sessions = int(std::max<qsizetype>(1, std::min<qsizetype>(parallelFor, batches.size())));
        const auto failure = upload.run(session, sessions, std::move(first));
        outcome.payloadBytes = upload.payload();
        if (failure) return *failure;
    }
    ctx.journals().remove(key);
    outcome.wireBytes = journal.wireBytes;
    outcome.verified = probe.haveTar && ctx.options().verify;
    outcome.seconds = double(timer.elapsed()) / 1000.0;
    return outcome;
}

} // namespace gantry::transfer
