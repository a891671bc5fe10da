#include "core/sync/syncengine.h"
#include "core/sync/synctext.h"

#include "core/sync/localfiles.h"
#include "core/sync/remotetree.h"
#include "core/sync/sftpsend.h"
#include "core/sync/sftplisting.h"
#include "core/sync/syncmanifest.h"
#include "core/transfer/batchrunner.h"
#include "core/transfer/fileupload.h"
#include "core/transfer/journal.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/sftpclient.h"
#include "core/transfer/tarbatchpool.h"
#include "core/transfer/tarbatchwarmup.h"
#include "core/transfer/tarstage.h"
#include "core/transfer/transfercontext.h"
#include "core/transfer/transferjob.h"
#include "core/transfer/treetransfer.h"
#include "core/util/deadlineflag.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>

#include <chrono>
#include <thread>
#include <tuple>

#include <sys/stat.h>

namespace gantry::sync {

namespace {

// Files from this size on go over several SFTP sessions each (one tar channel is capped by the
// channel window); smaller ones are batched into tar streams.
constexpr quint64 kLargeFile = 64ull * 1024 * 1024;

// What a round will likely send in tar batches, known before the remote listing: the files an
// earlier sync of this pair did not send (all of them on a first sync).
struct Expected
{
    quint64 bytes = 0;
    int files = 0;
};

// Whether a file goes over SFTP sessions of its own rather than in a tar batch (SFTP paths are
// text: a large file whose name is not UTF-8 goes in a tar batch too).
bool sentOnItsOwn(const SyncEntry &e)
{
    return e.type == SyncEntry::File && e.size >= kLargeFile && isValidUtf8(e.path);
}

// The tar tree a round sends where the host has nothing an earlier sync did not send (a first
// sync into a new folder: everything), known before the listing: what the helpers stage.
transfer::LocalTree expectedTarTree(const QByteArray &root, const LocalScan &local, const SyncManifest &manifest)
{
    QList<SyncEntry> dirs;
    QList<SyncEntry> files;
    for (const SyncEntry &e : local.entries) {
        if (e.type == SyncEntry::Dir) {
            if (!manifest.dirs.contains(e.path)) dirs.append(e);
        } else if (!sentOnItsOwn(e) && !manifest.files.contains(e.path)) {
            files.append(e);
        }
    }
    return tarTree(root, dirs, files);
}

Expected expectedToSend(const LocalScan &local, const SyncManifest &manifest)
{
    Expected e;
    for (const SyncEntry &f : local.entries) {
        if (f.type != SyncEntry::File || f.size >= kLargeFile || manifest.files.contains(f.path)) continue;
        e.bytes += f.size;
        e.files += 1;
    }
    return e;
}

} // namespace

SyncEngine::SyncEngine(transfer::SessionFactory factory, SyncTarget target, SyncOptions options, SyncEventSink sink,
                       CancelToken cancel)
    : m_factory(std::move(factory)), m_target(std::move(target)), m_options(std::move(options)), m_sink(std::move(sink)),
      m_token(std::move(cancel)), m_cancel(m_token.flag()), m_root(nativePath(m_target.localDir))
{
    while (m_root.size() > 1 && m_root.endsWith('/')) m_root.chop(1);
}

SyncEngine::~SyncEngine()
{
    disconnect();
}

void SyncEngine::disconnect()
{
    m_runner.reset(); // the channels die before their session
    m_sftp.reset();
    m_session.reset();
}

bool SyncEngine::connected() const
{
    return m_session && m_session->isConnected();
}

std::future<SyncEngine::Connected> SyncEngine::startConnect()
{
    if (connected()) return {};
    disconnect();
    m_bannerMs = -1;
    return std::async(std::launch::async, [this] {
        QElapsedTimer t;
        t.start();
        const ssh::KeyExchangeObserver banner({}, [this](qint64 ms) { m_bannerMs = ms; });
        auto session = m_factory(m_cancel);
        return Connected{std::move(session), t.elapsed()};
    });
}

Result<void> SyncEngine::finishConnect(std::future<Connected> connecting)
{
    if (!connecting.valid()) connecting = startConnect();
    if (!connecting.valid()) return {}; // still connected
    Connected c = connecting.get();
    if (!c.session) return c.session.error();
    m_session = std::move(*c.session);
    // A first guess at the round trip until a listing measures it: a connect takes about five
    // (TCP, key exchange, authentication).
    if (m_roundTripMs < 0) m_roundTripMs = c.ms / 5;
    m_connectRoundTripMs = c.ms / 5;
    return {};
}

bool SyncEngine::longLinkWhileConnecting(const std::future<Connected> &connecting, const QElapsedTimer &elapsed) const
{
    if (!connecting.valid()) return false;
    const auto runsAfter = [&](qint64 ms) {
        return connecting.wait_for(std::chrono::milliseconds(std::max<qint64>(0, ms - elapsed.elapsed())))
               == std::future_status::timeout;
    };
    if (!runsAfter(ssh::KeyExchangeObserver::kLateBannerMs)) return false;
    if (m_bannerMs < 0) return true;
    return runsAfter(100);
}

SyncEngine::Helpers SyncEngine::prestartHelpers(const LocalScan &local, const SyncManifest &manifest) const
{
    if (m_options.dryRun) return {};
    const Expected e = expectedToSend(local, manifest);
    // Before the first connect has measured the link (it is only known to be long), they are
    // planned for 50 ms; the upload leaves any the measured link does not want unused.
    const qint64 roundTripMs = m_roundTripMs >= 0 ? m_roundTripMs : 50;
    const int sessions = m_options.parallel > 0 ? m_options.parallel : transfer::treeParallel(e.bytes, e.files, roundTripMs);
    // Only when a lot is new: a re-sync with a few edits must not wait for helper connects.
    if (sessions <= 1 || (e.files < 1000 && e.bytes < 16ull * 1024 * 1024)) return {};
    Helpers helpers;
    // Staging pays where SFTP starts before the runners' shells do: not where sshd runs it
    // through the same login shell (measured by an earlier sync), nor where it is refused.
    const qint64 sftpStartMs = trustedSftpStartMs(manifest);
    const bool sftpFirst = !manifest.sftpRefused
                           && (sftpStartMs < 0 || manifest.shellStartMs < 0 || sftpStartMs < manifest.shellStartMs / 2);
    if (sftpFirst) helpers.stage = std::make_unique<transfer::TarStage>(expectedTarTree(m_root, local, manifest), sessions, m_target.host,
                                                         m_options.verify, m_cancel, transfer::kMaxStagedBytes);
    helpers.pool = std::make_unique<transfer::SessionPool>(m_factory, m_cancel, sessions - 1);
    helpers.warm = std::make_unique<transfer::BatchWarmup>(*helpers.pool, transfer::BatchRunner::command(), sessions - 1, 1,
                                                           helpers.stage ? helpers.stage->meanwhile()
                                                                         : transfer::BatchWarmup::Meanwhile());
    return helpers;
}

void SyncEngine::discardStaged(Helpers &helpers)
{
    if (helpers.stage) {
        helpers.stage->stop();
        helpers.warm.reset(); // joins the helpers: nothing is being staged after this
        m_strayStaged += helpers.stage->leftovers();
        helpers.stage.reset();
    }
    // A round cut off by a dropped link leaves its files to the next round's (else, stale, to a
    // later sync's); a cancelled one removes them now (TarStage::remove looks past the cancel).
    if (m_strayStaged.isEmpty() || !connected()) return;
    if (auto s = sftp(true); s && transfer::TarStage::remove(**s, m_strayStaged)) m_strayStaged.clear();
}

void SyncEngine::recordSftpStart(const Helpers &helpers, SyncManifest *manifest) const
{
    // The helpers are done: how soon their SFTP started says whether staging (and listing over
    // SFTP) pays there; the latest measure wins. Where none had started when the listing's shell
    // had answered, how long they waited is a floor (sshd runs SFTP through that shell): a floor
    // under half the shell's start-up leaves the next sync to stage and measure again.
    if (!helpers.stage) return;
    if (const qint64 ms = helpers.stage->sftpStartedMs(); ms >= 0)
        setSftpStartMs(manifest, sftpStartUp(ms));
    else if (const qint64 waited = helpers.stage->sftpGaveUpAfterMs(); waited >= 0)
        setSftpStartMs(manifest, std::max(trustedSftpStartMs(*manifest), sftpStartUp(waited)));
}

qint64 SyncEngine::sftpStartUp(qint64 elapsedMs) const
{
    // Its channel, the subsystem and the handshake: three round trips.
    return std::max<qint64>(0, elapsedMs - 3 * std::max<qint64>(0, m_connectRoundTripMs));
}

Result<transfer::SftpClient *> SyncEngine::sftp(bool pastCancel)
{
    if (!m_sftp) {
        // After a cancel (to remove what was staged) its handshake has a few seconds, no more.
        std::optional<DeadlineFlag> soon;
        if (pastCancel && m_cancel->load()) soon.emplace(transfer::TarStage::kRemoveBudget);
        auto started = transfer::SftpClient::start(m_session->handle(), m_target.host, soon ? soon->flag() : m_cancel);
        if (!started) return started.error();
        m_sftp = std::move(*started);
        m_sftp->setCancel(m_cancel);
    }
    return m_sftp.get();
}

Result<void> SyncEngine::run()
{
    for (int round = 0, drops = 0;;) {
        m_roundConnected = false;
        auto r = runRound();
        // A link that dropped mid-round: connect again and compare again (what arrived verified is
        // not sent twice), as an upload retries, also where the host is not back yet; a host that
        // cannot be reached at first fails at once.
        if (!r && (m_roundConnected || drops > 0) && transfer::isTransient(r.error()) && drops < kReconnects && !m_options.dryRun) {
            if (!waitToReconnect(drops++)) return r.error();
            continue;
        }
        const bool retryable = (r && *r == Round::Again) || (!r && r.error().code == ErrorCode::Conflict);
        if (!retryable) return r ? Result<void>() : Result<void>(r.error());
        if (round++ >= 2) {
            return r ? Result<void>() : Result<void>(Error{ErrorCode::Conflict,
                                                   SyncText::tr("%1 Files kept changing while they were sent; run the sync "
                                                                "again once they settle.").arg(r.error().message)});
        }
        m_sink(SyncEvent::note(SyncText::tr("Some files changed while they were sent; sending them again.")));
    }
}

Result<void> SyncEngine::prepare()
{
    if (auto connected = finishConnect(startConnect()); !connected) return connected;
    const auto remote = listFolder();
    return remote ? Result<void>() : Result<void>(remote.error());
}

void SyncEngine::keepAlive()
{
    if (!connected()) return;
    if (!m_session->sendKeepalive()) return disconnect();
    // Reads what the host sent meanwhile, answering its keepalive requests (ClientAliveInterval):
    // an idle runner has no output for this to take from the next round.
    if (m_runner && !m_runner->pumpIdle()) disconnect();
}

bool SyncEngine::waitToReconnect(int drops)
{
    disconnect();
    const int seconds = 1 << drops;
    m_sink(SyncEvent::reconnecting(m_target.host, seconds));
    for (int waited = 0; waited < seconds * 10; ++waited) {
        if (m_cancel && *m_cancel) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return !(m_cancel && *m_cancel);
}

Result<LocalScan> SyncEngine::scan()
{
    QElapsedTimer t;
    t.start();
    auto local = scanLocal(m_root, m_options.scan);
    if (!local) return local.error();
    m_lastDirs = {QByteArray()};
    for (const SyncEntry &d : std::as_const(local->entries)) {
        if (d.type == SyncEntry::Dir) m_lastDirs.append(d.path);
    }
    SyncEvent e;
    e.kind = SyncEvent::Scan;
    e.files = local->files;
    e.bytes = local->bytes;
    e.ignored = local->ignored;
    e.seconds = double(t.elapsed()) / 1000.0;
    m_sink(e);
    for (const QString &note : std::as_const(local->notes)) m_sink(SyncEvent::note(note));
    return local;
}

Result<SyncPlan> SyncEngine::plan(const LocalScan &local, const RemoteListing &remote, const SyncManifest &manifest)
{
    PlanOptions po;
    po.deleteGone = m_options.deleteGone;
    po.checksum = m_options.checksum;
    const QByteArray root = m_root;
    po.existsLocally = [root](const QByteArray &path) {
        struct stat st{};
        return ::lstat(QByteArray(root + '/' + path).constData(), &st) == 0;
    };
    if (po.checksum) {
        const QList<QByteArray> candidates = checksumCandidates(local, remote);
        auto sums = remoteChecksums(*m_session, m_target.host, m_target.remoteDir, candidates, m_cancel);
        if (!sums) return sums.error();
        po.remoteSums = *sums;
        for (const QByteArray &p : candidates) po.localSums.insert(p, localSha256(m_root + '/' + p));
    }
    SyncPlan plan = planSync(local, remote, manifest, po);
    if (!plan.conflicts.isEmpty()) {
        return Error{ErrorCode::Conflict,
                     SyncText::tr("%1 is a folder on one side and a file on the other (%2 on %3). Rename or remove one of "
                                  "them, then sync again.")
                         .arg(displayPath(plan.conflicts.first()), m_target.remoteDir, m_target.host)};
    }
    return plan;
}

void SyncEngine::emitPlan(const SyncPlan &plan)
{
    SyncEvent e;
    e.kind = SyncEvent::Plan;
    e.newFiles = plan.newCount();
    e.changedFiles = int(plan.changed.size());
    e.unchanged = plan.unchanged;
    e.toDelete = int(plan.removeFiles.size());
    e.bytes = plan.sendBytes;
    e.dryRun = m_options.dryRun;
    m_sink(e);
    if (!m_options.dryRun) return;
    // The preview: every file that would be sent or deleted.
    for (const SyncEntry &s : plan.send) {
        m_sink(SyncEvent::file(SyncEvent::Sent, s.path, s.size, plan.changed.contains(s.path), true));
    }
    for (const QByteArray &p : plan.removeFiles) m_sink(SyncEvent::file(SyncEvent::Deleted, p, 0, false, true));
}

bool SyncEngine::changedSince(const SyncEntry &e) const
{
    struct stat st{};
    if (::lstat(QByteArray(m_root + '/' + e.path).constData(), &st) != 0) return false; // gone: the next sync deletes it
    return qint64(st.st_mtim.tv_sec) != e.mtime || qint64(st.st_mtim.tv_nsec) != e.mtimeNsec
           || (e.type == SyncEntry::File && quint64(st.st_size) != e.size);
}

Result<SyncEngine::Round> SyncEngine::runRound()
{
    QElapsedTimer timer;
    timer.start();
    // A connect is several round trips: it runs while the folder is scanned, unless the folder
    // is not there (its error should not wait for a connect).
    QElapsedTimer connectTime;
    connectTime.start();
    std::future<Connected> connecting = QFileInfo(QFile::decodeName(m_root)).isDir() ? startConnect() : std::future<Connected>();
    auto local = scan();
    if (!local) return local.error(); // after a connect in flight ends (the future waits)
    const QString manifestFile = manifestPath(m_target.configDir, m_target.host, m_target.localDir, m_target.remoteDir);
    SyncManifest manifest = loadManifest(manifestFile);
    Helpers helpers;
    // On a long link the helpers connect beside the first connect, ready when it is (at most seven:
    // one sync stays under sshd's MaxStartups of 10 logins in progress). On a short link they
    // connect once it has, while the host lists the folder.
    if (longLinkWhileConnecting(connecting, connectTime)) helpers = prestartHelpers(*local, manifest);
    const auto discard = qScopeGuard([&] { discardStaged(helpers); });
    if (auto c = finishConnect(std::move(connecting)); !c) return c.error();
    m_roundConnected = true;
    if (!helpers.pool) helpers = prestartHelpers(*local, manifest);
    const auto shellFacts = [](const SyncManifest &m) {
        return std::tuple(m.shellStartMs, m.sftpRefused, m.sftpStartMs, m.sftpMeasuredAt);
    };
    const auto shellFactsBefore = shellFacts(manifest);
    if (helpers.stage) helpers.stage->listingStarts(m_connectRoundTripMs);
    auto remote = listFolder(&manifest);
    if (!remote) return remote.error();
    if (remote->notDir) {
        return Error{ErrorCode::Conflict, SyncText::tr("%1 on %2 is a file, not a folder. Give a folder to sync into (it is created "
                                                       "when missing).").arg(m_target.remoteDir, m_target.host)};
    }
    if (helpers.stage) helpers.stage->stop(); // the runners take over from here
    auto planned = plan(*local, *remote, manifest);
    if (!planned) return planned.error();
    emitPlan(*planned);
    SyncEvent done;
    done.kind = SyncEvent::Done;
    done.dryRun = m_options.dryRun;
    if (!m_options.dryRun && !planned->isEmpty()) {
        if (!remote->haveTar && !(planned->send.isEmpty() && planned->dirs.isEmpty())) {
            return Error{ErrorCode::RemoteFailed, SyncText::tr("%1 has no tar or sha256sum, which sync needs. Install tar and coreutils "
                                                               "there, or use gantry-cli upload.").arg(m_target.host)};
        }
        QList<SyncEntry> sent;
        const auto r = send(*planned, &sent, &helpers, remote->haveRunner);
        recordSftpStart(helpers, &manifest);
        for (const SyncEntry &s : sent) manifest.files.insert(s.path);
        for (const SyncEntry &d : planned->dirs) manifest.dirs.insert(d.path);
        if (r) {
            auto deleted = deleteGone(*planned, &manifest);
            if (!deleted) return deleted.error();
            done.deleted = *deleted;
        }
        // A host that no longer runs what the last shell listing found (a machine made again
        // under the same name): the next sync lists through the shell, which looks again.
        // (Not after a cancel: that says nothing about the host.)
        if (!r && m_listedOverSftp && !transfer::isTransient(r.error()) && r.error().code != ErrorCode::Cancelled)
            manifest.shellStartMs = -1;
        // What was sent is recorded even when a later step failed: --delete may remove it later.
        if (auto m = saveManifest(manifestFile, manifest, m_target.host, m_target.localDir, m_target.remoteDir); !m) return m.error();
        if (!r) return r.error();
        done.files = int(sent.size());
        done.bytes = planned->sendBytes;
        for (const SyncEntry &s : sent) {
            if (changedSince(s)) return Round::Again;
        }
    } else if (!m_options.dryRun && shellFacts(manifest) != shellFactsBefore) {
        // Only a hint for the next sync's listing: not worth failing a sync that is done for.
        (void)saveManifest(manifestFile, manifest, m_target.host, m_target.localDir, m_target.remoteDir);
    }
    done.seconds = double(timer.elapsed()) / 1000.0;
    m_sink(done);
    return Round::Done;
}

Result<int> SyncEngine::deleteGone(const SyncPlan &plan, SyncManifest *manifest)
{
    if (plan.removeFiles.isEmpty() && plan.removeDirs.isEmpty()) return 0;
    if (auto d = removeRemote(*m_session, m_target.host, m_target.remoteDir, plan.removeFiles, plan.removeDirs); !d) return d.error();
    for (const QByteArray &p : plan.removeFiles) {
        manifest->files.remove(p);
        m_sink(SyncEvent::file(SyncEvent::Deleted, p));
    }
    for (const QByteArray &p : plan.removeDirs) manifest->dirs.remove(p);
    return int(plan.removeFiles.size());
}

Result<RemoteListing> SyncEngine::listFolder(SyncManifest *manifest)
{
    QElapsedTimer listing;
    listing.start();
    m_listedOverSftp = false;
    if (!m_runner && !m_sftp && manifest && manifest->haveTar && manifest->haveRunner && !manifest->sftpRefused
        && sftpListingPays(manifest->shellStartMs, m_connectRoundTripMs, m_lastDirs, trustedSftpStartMs(*manifest))) {
        auto remote = listFolderOverSftp(manifest);
        m_listedOverSftp = bool(remote);
        m_listedShellStartMs = manifest->shellStartMs;
        // A host without the SFTP subsystem, or a folder it cannot look at: the listing command
        // says more (and measures the shell again). A dropped link is the round's to retry.
        if (remote || !connected() || remote.error().code == ErrorCode::Cancelled) return remote;
        manifest->sftpRefused = true; // not tried again at every sync of the pair
        m_runner.reset();
        m_sftp.reset();
    }
    if (m_runner) {
        auto remote = listThroughRunner(*m_session, *m_runner, m_target.host, m_target.remoteDir);
        if (remote) {
            m_roundTripMs = listing.elapsed(); // one round trip
            return remote;
        }
        m_runner.reset();
        // A runner that ended or went quiet: a listing command starts a new one. A listing it
        // refused (too large) would be refused again.
        if (!transfer::isTransient(remote.error())) return remote.error();
        listing.restart();
    }
    std::unique_ptr<ssh::Channel> runner; // started with the listing, for what is then sent
    qint64 begunMs = -1;
    listing.restart(); // not the SFTP listing's time, where that failed
    auto remote = listRemote(*m_session, m_target.host, m_target.remoteDir, m_options.dryRun ? nullptr : &runner, &begunMs, m_cancel);
    if (!remote) return remote.error();
    if (manifest && begunMs >= 0 && m_connectRoundTripMs >= 0) {
        // What came before the first marker: the channel, the command, and the login shell.
        manifest->shellStartMs = std::max<qint64>(0, begunMs - 2 * m_connectRoundTripMs);
        manifest->haveTar = remote->haveTar;
        manifest->haveRunner = remote->haveRunner;
    }
    m_roundTripMs = listing.elapsed() / 2; // a listing takes two round trips: the channel, then the command
    if (runner && remote->haveRunner) m_runner = std::make_unique<transfer::BatchRunner>(std::move(runner));
    return remote;
}

Result<RemoteListing> SyncEngine::listFolderOverSftp(SyncManifest *manifest)
{
    // The batch runner starts beside it, as with the listing command: its shell's start-up runs
    // while the folders are read, and only a round that sends waits for it.
    std::unique_ptr<ssh::Channel> runner;
    const bool wantRunner = !m_options.dryRun;
    const QString top = m_target.remoteDir;
    QElapsedTimer starting;
    starting.start();
    auto started = transfer::SftpClient::startMany(
        *m_session, 1, m_cancel, [top](transfer::SftpClient &c) { c.askAhead(transfer::SftpClient::Stat, top); },
        wantRunner ? transfer::BatchRunner::command() : QString(), wantRunner ? &runner : nullptr);
    if (!started) return started.error();
    setSftpStartMs(manifest, sftpStartUp(starting.elapsed()));
    auto remote = listOverSftp(*started->front(), m_session->limits(), m_target.host, top);
    if (!remote) return remote.error(); // the client goes with its requests in flight
    m_sftp = std::move(started->front());
    remote->haveTar = true; // as the last listing through the login shell found
    remote->haveRunner = true;
    if (runner) m_runner = std::make_unique<transfer::BatchRunner>(std::move(runner));
    return remote;
}

Result<void> SyncEngine::send(const SyncPlan &plan, QList<SyncEntry> *sent, Helpers *helpers, bool useRunner)
{
    QList<SyncEntry> rest = plan.send; // what goes the usual way: all but what SFTP put in place
    if (m_listedOverSftp && m_sftp && sftpSendPays(plan, m_listedShellStartMs, m_connectRoundTripMs)) {
        const auto placed = [&](const SyncEntry &e) {
            sent->append(e);
            m_sink(SyncEvent::file(SyncEvent::Sent, e.path, e.size, plan.changed.contains(e.path)));
        };
        const auto over = sendOverSftp(*m_sftp, {m_root, m_target.remoteDir, m_options.verify}, &rest, placed, &m_strayStaged);
        if (!over) return over.error();
        if (rest.isEmpty()) return {};
    }
    QList<SyncEntry> small;
    QList<SyncEntry> large;
    for (const SyncEntry &e : std::as_const(rest)) {
        (sentOnItsOwn(e) ? large : small).append(e);
    }
    transfer::JournalStore journals(m_target.configDir);
    transfer::TransferOptions to;
    to.parallel = m_options.parallel;
    to.verify = m_options.verify;
    to.onConflict = transfer::ConflictPolicy::Overwrite;
    transfer::TransferContext ctx(m_factory, m_cancel, &journals, m_target.host, to);
    const transfer::LocalTree tree = tarTree(m_root, plan.dirs, small);
    if (!tree.entries.isEmpty()) {
        const int sessions = m_options.parallel > 0 ? m_options.parallel
                                                    : transfer::treeParallel(tree.totalBytes, tree.fileCount, m_roundTripMs);
        auto r = transfer::uploadEntries(ctx, *m_session, m_target.remoteDir, tree, sessions, helpers->pool.get(),
                                         useRunner, helpers->warm.get(), m_runner.get(), helpers->stage.get());
        if (!r) {
            m_runner.reset(); // it may be mid-batch: a new one starts with the next listing
            return r.error();
        }
        for (const SyncEntry &e : small) {
            sent->append(e);
            m_sink(SyncEvent::file(SyncEvent::Sent, e.path, e.size, plan.changed.contains(e.path)));
        }
    }
    if (large.isEmpty()) return {};
    auto s = sftp();
    if (!s) return s.error();
    QList<SyncEntry> done;
    for (const SyncEntry &e : large) {
        const QString dest = transfer::remoteJoin(m_target.remoteDir, QString::fromUtf8(e.path));
        auto r = transfer::uploadFile(ctx, *m_session, **s, QFile::decodeName(m_root + '/' + e.path), dest, true);
        if (!r) {
            if (r.error().code != ErrorCode::Cancelled) (void)setRemoteTimes(*m_session, m_target.host, m_target.remoteDir, done);
            return r.error();
        }
        done.append(e);
        sent->append(e);
        m_sink(SyncEvent::file(SyncEvent::Sent, e.path, e.size, plan.changed.contains(e.path)));
    }
    return setRemoteTimes(*m_session, m_target.host, m_target.remoteDir, done);
}

} // namespace gantry::sync
