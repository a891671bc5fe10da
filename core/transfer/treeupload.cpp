#include "core/transfer/treetransfer.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/batchrunner.h"
#include "core/transfer/chunkworkers.h"
#include "core/transfer/fileupload.h"
#include "core/transfer/localtree.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/sessionprefetch.h"
#include "core/transfer/tarbatch.h"
#include "core/transfer/tarbatchpool.h"
#include "core/transfer/tarbatchwarmup.h"
#include "core/transfer/tarstage.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <atomic>
#include <mutex>
#include <thread>

namespace gantry::transfer {

namespace {

std::atomic<BatchJournaledHook> g_batchJournaled{nullptr};

using BatchPlan = QList<QPair<int, int>>;

// Existing files under a remote folder (relative path → size), and whether tar and sha256sum are
// there: one remote command, because each one pays for the login shell's start-up files (conda or
// pyenv init on GPU images can take seconds).
struct RemoteProbe
{
    bool shell = false;
    bool haveTar = false;
    bool haveRunner = false;
    QHash<QString, quint64> sizes;
};

QString probeCommand(const QString &folder, bool listFiles)
{
    QString command = QStringLiteral("command -v tar >/dev/null 2>&1 && command -v sha256sum >/dev/null 2>&1 && "
                                     "printf 'gantry-tar\\0'; ");
    command += BatchRunner::probeSnippet();
    if (listFiles) {
        command += QStringLiteral("cd -- %1 2>/dev/null && find . -type f -printf '%s\\t%P\\0'; true").arg(ssh::shellQuote(folder));
    }
    return command;
}

// Collects a probe started with openExec(probeCommand()); stops at once when `cancel` is set.
RemoteProbe collectProbe(Result<std::unique_ptr<ssh::Channel>> &channel, const QString &prefix, const std::atomic_bool *cancel)
{
    RemoteProbe probe;
    if (!channel) return probe;
    ssh::Channel &ch = **channel;
    (void)ch.sendEof();
    QByteArray out;
    QElapsedTimer waited;
    waited.start();
    while (!ch.isEof() && waited.elapsed() < 10 * 60 * 1000) {
        if (cancel && cancel->load()) return probe; // its login shell may take seconds to start
        auto r = ch.read(100);
        if (!r || out.size() > (1 << 20)) return probe; // a probe prints a few lines, not megabytes
        out += *r;
    }
    probe.shell = true;
    for (const QByteArray &rec : out.split('\0')) {
        if (rec.endsWith("gantry-tar")) { // start-up files may have printed before it
            probe.haveTar = true;
            continue;
        }
        if (rec == BatchRunner::probeToken) {
            probe.haveRunner = true;
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

// Files already on the host that policy leaves as they are; a Conflict when policy forbids
// touching one that differs. Files of the batches an earlier attempt verified (`ours`) are this
// upload's own: a retry after a dropped link does not ask about them, nor about a file of the
// size sent, which a batch cut off after it was linked into place left (it is sent again).
Result<QSet<QString>> filesToLeave(TransferContext &ctx, const LocalTree &renamed, const RemoteProbe &probe,
                                   ConflictPolicy policy, const QString &remoteParentDir, const QSet<QString> &ours,
                                   TransferOutcome &outcome)
{
    QSet<QString> exclude;
    if (policy == ConflictPolicy::Overwrite) return exclude;
    const auto &existing = probe.sizes;
    for (const LocalEntry &e : renamed.entries) {
        if (e.isDir || ours.contains(e.relative)) continue;
        const auto it = existing.constFind(e.relative);
        if (it == existing.constEnd()) continue;
        if (policy == ConflictPolicy::Skip || (policy == ConflictPolicy::Resume && it.value() == e.size)) {
            exclude.insert(e.relative);
        } else if (policy == ConflictPolicy::Ask || policy == ConflictPolicy::Rename
                   || policy == ConflictPolicy::Resume) {
            if (!ours.isEmpty() && it.value() == e.size) continue; // a resumed upload's own, sent again
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
        std::tie(journal.batchFiles, journal.batchBytes) = freshBatchLimits(tree, parallelFor);
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

// Removes on the host what a folder upload's helpers staged and no runner took, on the primary
// session's SFTP client, whichever way the upload ends: declared before the warm-up, so that its
// helpers are done (joined) by then.
// Removes what an attempt staged and no runner took, with what an earlier attempt cut off by a
// dropped link could not remove; kept for the next attempt where this one's link is gone too.
struct StageCleanup
{
    TransferContext &ctx;
    TarStage *stage = nullptr;
    SftpClient *sftp = nullptr;
    ~StageCleanup()
    {
        QStringList left = ctx.strayStaged();
        if (stage) left += stage->leftovers();
        if (!left.isEmpty() && !TarStage::remove(*sftp, left)) ctx.setStrayStaged(left);
        else ctx.setStrayStaged({});
    }
};

// Batches go over several sessions on long links (one channel is capped by sshd's 2 MiB window
// per round trip); each session claims the next batch not yet sent, so one that runs slow (a
// batch of large files) does not leave the others idle at the end. A session streams its next
// batch while the host still checks and links the one before, and opens that next batch's
// channel meanwhile. Every verified batch is recorded in the journal at once.
class StripedTarUpload
{
public:
    // With useRunner each session sends all its batches to one BatchRunner; else each batch
    // runs its own command on a channel of its own.
    StripedTarUpload(TransferContext &ctx, const QString &remoteParentDir, const LocalTree &renamed, const BatchPlan &batches,
                     const QSet<QString> &exclude, const QString &key, TreeJournal &journal, bool useRunner)
        : m_ctx(ctx), m_remoteParentDir(remoteParentDir), m_tree(renamed), m_batches(batches), m_exclude(exclude), m_key(key),
          m_journal(journal), m_useRunner(useRunner)
    {
    }

    // first, when given, already runs the runner's command on primary. Helper sessions come from
    // warm when given (each with its runner started while the probe ran), else from pool when
    // given (connected in the background), else they connect here.
    // lent, when given, is primary's runner, kept by the caller across uploads (first is unused).
    std::optional<Error> run(ssh::Session &primary, int sessions, std::unique_ptr<ssh::Channel> first, SessionPool *pool,
                             BatchWarmup *warm = nullptr, BatchRunner *lent = nullptr)
    {
        const int own = claim(); // before the helpers start: batch 0 may already run on primary
        std::vector<std::thread> helpers;
        if (warm) {
            // Helpers warmed before the link was measured may be more than it needs: those left
            // over send nothing (their runners exit on EOF).
            warm->start([this, sessions](WarmSession &w) {
                if (m_helpersStarted.fetch_add(1) >= sessions - 1) {
                    w.channels.clear();
                    return;
                }
                std::unique_ptr<ssh::Channel> runner;
                if (m_useRunner && !w.channels.empty()) runner = std::move(w.channels.front());
                w.channels.clear(); // a runner this upload does not use exits on EOF now
                sendClaimed(*w.session, claim(), std::move(runner));
            });
        }
        for (int k = 1; !warm && k < sessions; ++k) {
            helpers.emplace_back([this, k, pool] {
                const ssh::OptionalConnects optional;
                auto session = pool ? pool->take(k - 1) : m_ctx.factory()(m_ctx.cancel());
                if (session) sendClaimed(**session, claim(), nullptr);
            });
        }
        sendClaimed(primary, own, std::move(first), lent);
        for (auto &t : helpers) t.join();
        if (warm) warm->join();
        return m_failure;
    }

    quint64 payload() const { return m_payload; }
    // Batches staged on the host while the runners started: runners unpack those files.
    void useStage(TarStage *stage) { m_stage = stage; }

private:
    std::unique_ptr<ssh::Channel> open(ssh::Session &session, int b)
    {
        QString manifest;
        bool verify = false;
        const auto command = batchCommand(m_ctx, m_remoteParentDir, m_tree, m_batches[b].first, m_batches[b].second, m_exclude,
                                          &manifest, &verify);
        if (!command) return {};
        auto ch = session.openExec(*command);
        return ch ? std::move(*ch) : nullptr;
    }

    // The next batch to send; -1 when none is left or the upload stopped.
    int claim()
    {
        std::lock_guard lock(m_mutex);
        while (m_next < m_batches.size() && m_journal.doneBatches.contains(int(m_next))) ++m_next;
        if (m_failure || m_next >= m_batches.size()) return -1;
        return int(m_next++);
    }

    // Records a sent batch; false when the session must stop.
    bool record(int b, quint64 batchWire, quint64 batchPayload, const Result<void> &sent)
    {
        std::lock_guard lock(m_mutex);
        m_journal.wireBytes += batchWire;
        m_payload += batchPayload;
        if (sent) m_journal.doneBatches.append(b);
        (void)m_ctx.journals().save(m_key, m_journal);
        if (const BatchJournaledHook hook = g_batchJournaled.load(); hook && sent) hook(); // tests only, under the lock
        if (sent) return true;
        if (!m_failure) m_failure = sent.error();
        return false;
    }

    bool finish(ssh::Session &session, int b, StreamedBatch &batch)
    {
        const auto verdict = finishBatch(m_ctx, session, m_remoteParentDir, m_tree, batch);
        if (m_stage && verdict) m_stage->reported(b); // (a failed one's file is removed again, to be sure)
        return record(b, batch.wire, batch.payload, verdict);
    }

    // The session's runner (over opened when that already runs one); null on failure, recorded.
    std::unique_ptr<BatchRunner> startRunner(ssh::Session &session, int b, std::unique_ptr<ssh::Channel> opened)
    {
        if (!opened) {
            auto ch = session.openExec(BatchRunner::command());
            if (!ch) {
                (void)record(b, 0, 0, ch.error());
                return nullptr;
            }
            opened = std::move(*ch);
        }
        return std::make_unique<BatchRunner>(std::move(opened));
    }

    StreamedBatch stream(ssh::Session &session, BatchRunner *runner, int b, std::unique_ptr<ssh::Channel> opened)
    {
        if (runner && m_stage) {
            if (const auto staged = m_stage->take(b)) {
                return unpackStagedBatch(m_ctx, *runner, b, m_remoteParentDir, m_tree, m_batches[b].first, m_batches[b].second, *staged);
            }
        }
        if (runner) return streamBatch(m_ctx, *runner, b, m_remoteParentDir, m_tree, m_batches[b].first, m_batches[b].second, m_exclude);
        return streamBatch(m_ctx, session, m_remoteParentDir, m_tree, m_batches[b].first, m_batches[b].second, m_exclude,
                           std::move(opened));
    }

    // Sends batch b, then the batches it claims, over session; opened already runs the runner,
    // or lent is the session's runner (the caller's, which stays running).
    void sendClaimed(ssh::Session &session, int b, std::unique_ptr<ssh::Channel> opened, BatchRunner *lent = nullptr)
    {
        if (b < 0) return;
        std::unique_ptr<BatchRunner> own;
        BatchRunner *runner = m_useRunner ? lent : nullptr;
        if (m_useRunner && !runner) {
            own = startRunner(session, b, std::move(opened));
            if (!own) return;
            runner = own.get();
        }
        StreamedBatch checking; // streamed, its verdict not collected yet
        int checkingFor = -1;
        while (b >= 0) {
            if (m_ctx.cancelled()) {
                std::lock_guard lock(m_mutex);
                if (!m_failure) m_failure = Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")};
                break;
            }
            StreamedBatch streamed = stream(session, runner, b, std::move(opened));
            if (checkingFor >= 0 && !finish(session, checkingFor, checking)) checkingFor = -2;
            checking = std::move(streamed);
            if (checkingFor == -2 || checking.failure) {
                (void)finish(session, b, checking);
                return;
            }
            checkingFor = b;
            b = claim();
            opened = b >= 0 && !runner ? open(session, b) : nullptr;
        }
        if (checkingFor >= 0) (void)finish(session, checkingFor, checking);
    }

    TransferContext &m_ctx;
    const QString &m_remoteParentDir;
    const LocalTree &m_tree;
    const BatchPlan &m_batches;
    const QSet<QString> &m_exclude;
    const QString &m_key;
    TreeJournal &m_journal;
    std::mutex m_mutex;
    std::atomic_int m_helpersStarted = 0;
    qsizetype m_next = 0;
    std::optional<Error> m_failure;
    quint64 m_payload = 0;
    bool m_useRunner = false;
    TarStage *m_stage = nullptr;
};

} // namespace

void setBatchJournaledHook(BatchJournaledHook hook)
{
    g_batchJournaled.store(hook);
}

std::pair<int, quint64> freshBatchLimits(const LocalTree &tree, int sessions)
{
    // Two batches per session: sessions claim them as they go, so the last to finish is short;
    // each batch costs the host a score of processes and the end a round trip for its verdict
    // (three a session measured 4-10 % slower at 50 ms and on the direct link, 2 cores).
    const int parts = sessions * 2;
    if (sessions <= 1) return {kBatchFiles, kBatchBytes};
    return {std::clamp(tree.fileCount / parts, 100, kBatchFiles),
            std::clamp<quint64>(tree.totalBytes / quint64(parts), 4ull << 20, kBatchBytes)};
}

int treeParallel(quint64 bytes, int files, qint64 roundTripMs)
{
    // From 30 ms a session's 2 MiB window per round trip is what limits a tar stream (40 MiB/s at
    // 50 ms), not this computer's cores, and helper sessions connect and start their shells while
    // the host lists the folder: one per ~8 MiB pays, up to eight. At 50 ms on two cores: 1 000
    // files / 39 MB 1.6 s on one session, 0.90 s on four, 0.84 s on eight; 5 000 files / 335 MiB
    // 3.0-3.2 s on four, 2.5-2.6 s on eight (rsync -a 2.0 s and 9.9 s).
    if (roundTripMs >= 30) return std::clamp(int(std::min<quint64>(bytes / (8ull << 20), 64)), 1, kLongLinkTreeSessions);
    // On a short link the CPUs limit: with less than ~32 MiB each, the extra sessions cost more
    // than their windows bring (their connects, login shells, and sshd and tar on the host).
    const int bySize = autoParallel(bytes, roundTripMs);
    const int wanted = files >= 1000 ? std::min(std::max(bySize, 4), sessionCap()) : bySize;
    return std::clamp(int(std::min<quint64>(bytes / (32ull << 20), 64)), 1, std::max(1, wanted));
}

Result<quint64> uploadEntries(TransferContext &ctx, ssh::Session &session, const QString &remoteDir, const LocalTree &tree,
                              int sessions, SessionPool *pool, bool useRunner, BatchWarmup *warm, BatchRunner *lentRunner,
                              TarStage *stage)
{
    if (tree.entries.isEmpty()) return quint64(0);
    // The journal only serves the striping here: a sync that is interrupted compares again.
    const QString key = JournalStore::key(Direction::Upload, ctx.host(), QStringLiteral("sync:") + QString::fromLatin1(tree.fingerprint),
                                          remoteDir);
    TreeJournal journal{ctx.host(), QString(), remoteDir, tree.fingerprint, {}, 0, 0, 0};
    if (stage && (!useRunner || !stage->matches(tree))) stage = nullptr;
    if (stage) {
        journal.batchFiles = stage->batchFiles(); // the staged files are these batches
        journal.batchBytes = stage->batchBytes();
    } else {
        planBatchSizes(journal, tree, sessions);
    }
    const BatchPlan batches = planBatches(tree, journal.batchFiles, journal.batchBytes);
    const QSet<QString> none;
    StripedTarUpload upload(ctx, remoteDir, tree, batches, none, key, journal, useRunner);
    upload.useStage(stage);
    const auto failure = upload.run(session, int(std::max<qsizetype>(1, std::min<qsizetype>(sessions, batches.size()))),
                                    nullptr, pool, warm, lentRunner);
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
    // The remote probe (tar there? which files exist?) runs while the local folder is scanned,
    // and the primary session's runner starts with it (the two channels open together, in two
    // round trips); the runner is dropped (it exits on EOF) when the host cannot run one.
    const QString remoteName = remoteBaseName(remoteTop);
    auto opened = session.openExecs({probeCommand(remoteTop, policy != ConflictPolicy::Overwrite), BatchRunner::command()});
    auto &probeChannel = opened[0];
    auto &speculative = opened[1];
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
    // Sessions for the tar batches, as for one file of the folder's size; the plan comes before the
    // probe's answer, so the helpers connect (and the runner starts) while it is awaited.
    const qint64 roundTripMs = linkRoundTrip(ctx, sftp, false); // -1 where the user chose the sessions
    const int parallelFor = ctx.options().parallel > 0 ? ctx.options().parallel : treeParallel(tree.totalBytes, tree.fileCount, roundTripMs);
    planBatchSizes(journal, tree, parallelFor);
    const BatchPlan batches = planBatches(renamed, journal.batchFiles, journal.batchBytes);
    const int sessions = int(std::max<qsizetype>(1, std::min<qsizetype>(parallelFor, batches.size())));
    SessionPool pool(ctx, sessions - 1);
    // Each helper starts its batch runner as soon as it is connected: its login shell starts while
    // the probe's does, not after it (one shell start-up on the critical path, #33). A fresh
    // upload's helpers also stage its first batches over SFTP while those shells start.
    std::optional<TarStage> stage;
    if (journal.doneBatches.isEmpty() && sessions > 1) {
        stage.emplace(renamed, parallelFor, ctx.host(), ctx.options().verify, ctx.cancel(), kMaxStagedBytes);
    }
    StageCleanup cleanup{ctx, stage ? &*stage : nullptr, &sftp};
    BatchWarmup warm(pool, BatchRunner::command(), sessions - 1, 1, stage ? stage->meanwhile() : BatchWarmup::Meanwhile());
    if (stage) stage->listingStarts(roundTripMs);
    const RemoteProbe probe = collectProbe(probeChannel, remoteName + QLatin1Char('/'), ctx.cancel());
    if (stage) stage->stop(); // before any return: the warm-up's helpers stop staging
    if (ctx.cancelled()) return Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")};
    QSet<QString> ours;
    for (const int b : std::as_const(journal.doneBatches)) {
        if (b < 0 || b >= batches.size()) continue;
        for (int i = batches[b].first; i < batches[b].second; ++i) ours.insert(renamed.entries[i].relative);
    }
    const auto exclude = filesToLeave(ctx, renamed, probe, policy, remoteParentDir, ours, outcome);
    if (!exclude) return exclude.error();
    countAlreadyThere(ctx, renamed, batches, journal, *exclude);
    std::unique_ptr<ssh::Channel> first = probe.haveRunner && speculative ? std::move(*speculative) : nullptr;
    speculative = std::unique_ptr<ssh::Channel>(); // an unused runner exits now, not with the upload

    if (!probe.haveTar) {
        if (SessionPrefetch *p = ctx.prefetch()) p->setRunOnConnect({}); // helpers sending files start no runner
        outcome.notes.append(TransferText::tr("%1 runs no tar; files were sent one by one over SFTP.").arg(ctx.host()));
        quint64 payload = 0;
        auto r = sftpTreeUpload(ctx, session, sftp, remoteParentDir, renamed, *exclude, &payload);
        outcome.payloadBytes = payload;
        if (!r) return r.error();
    } else {
        StripedTarUpload upload(ctx, remoteParentDir, renamed, batches, *exclude, key, journal, probe.haveRunner);
        if (stage && exclude->isEmpty() && probe.haveRunner) upload.useStage(&*stage); // else its batches are not these
        const auto failure = upload.run(session, sessions, std::move(first), &pool, &warm);
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
