// SPDX-License-Identifier: Apache-2.0
#include "core/transfer/tarstage.h"

#include "core/transfer/chunkworkers.h"
#include "core/transfer/sftpclient.h"
#include "core/transfer/tarbatch.h"
#include "core/transfer/treetransfer.h"
#include "core/util/deadlineflag.h"

#include <QElapsedTimer>
#include <QScopeGuard>

#include <deque>

namespace gantry::transfer {

namespace {

constexpr quint32 kStageFlags = SftpClient::OpenWrite | SftpClient::OpenCreate | SftpClient::OpenTruncate;
// Why a batch being written stops at stop() (never shown: the batch is streamed instead).
constexpr QLatin1String kRunnersTakeOver("the runners take over");

} // namespace

// One helper's staging: every batch's writes, its close and the next batch's open stay in flight
// together (up to kMaxInflight writes), so the stream does not stop for a round trip between
// batches. A batch is staged once its last write and its close are acknowledged.
class TarStage::Writer
{
public:
    Writer(TarStage &stage, SftpClient &sftp, QString folder) : m_stage(stage), m_sftp(sftp), m_folder(std::move(folder)) {}

    ~Writer()
    {
        // What failed or was still in flight is not staged; its file is removed with the leftovers.
        for (auto it = m_paths.cbegin(); it != m_paths.cend(); ++it) m_stage.finish(it.key(), QString(), it.value());
    }

    void run()
    {
        int batch = m_stage.claim();
        auto opening = batch >= 0 ? sendOpen(batch) : Result<quint32>(0u);
        while (batch >= 0 && opening) {
            auto handle = m_sftp.openedHandle(m_sftp.waitFor(*opening), m_paths.value(batch), kStageFlags);
            if (!handle) return;
            quint64 wire = 0;
            quint64 payload = 0;
            const auto [begin, end] = m_stage.m_batches[batch];
            if (const auto failure = writeBatchTo(m_stage.m_ctx, [&](const QByteArray &data) { return write(batch, *handle, data); },
                                                  m_stage.m_tree, begin, end, &wire, &payload)) {
                // Only write()'s own stop lets the batches before this one finish: any other
                // failure (a write refused, a disk full) leaves every batch in flight unstaged.
                if (failure->message != kRunnersTakeOver) return;
                // The runners take over: this batch is streamed to one of them (at once: it is not
                // waited for); those before it are staged once their answers are in.
                m_stage.finish(batch, QString());
                if (auto closing = m_sftp.send(SftpClient::Close, sftpwire::stringBody(*handle))) m_inflight.push_back({*closing, batch, false});
                break;
            }
            const int next = m_stage.claim();
            opening = next >= 0 ? sendOpen(next) : Result<quint32>(0u);
            auto closing = m_sftp.send(SftpClient::Close, sftpwire::stringBody(*handle));
            if (!closing) return;
            m_inflight.push_back({*closing, batch, true});
            batch = next;
        }
        while (!m_inflight.empty()) {
            if (!takeOne()) return;
        }
    }

private:
    struct Request
    {
        quint32 id = 0;
        int batch = -1;
        bool close = false;
    };

    Result<quint32> sendOpen(int batch)
    {
        const QString path = m_folder + QStringLiteral("/%1-%2-%3.tar")
                                            .arg(QString::fromLatin1(m_stage.m_tree.fingerprint.left(12)), m_stage.m_ctx.attemptToken())
                                            .arg(batch);
        m_paths.insert(batch, path);
        return m_sftp.sendOpen(path, kStageFlags, 0600);
    }

    Result<void> write(int batch, const QByteArray &handle, const QByteArray &data)
    {
        if (m_stage.m_stopped) return Error{ErrorCode::Cancelled, QString(kRunnersTakeOver)};
        for (qsizetype at = 0; at < data.size();) {
            const quint32 n = quint32(std::min<qsizetype>(m_sftp.maxWrite(), data.size() - at));
            auto id = m_sftp.sendWriteOf(handle, m_offsets[batch], data.constData() + at, n);
            if (!id) return id.error();
            m_offsets[batch] += n;
            at += n;
            m_inflight.push_back({*id, batch, false});
            while (m_inflight.size() >= size_t(kMaxInflight)) {
                if (auto r = takeOne(); !r) return r;
            }
        }
        return {};
    }

    Result<void> takeOne()
    {
        const Request done = m_inflight.front();
        m_inflight.pop_front();
        auto reply = m_sftp.waitFor(done.id);
        if (!reply) return reply.error();
        if (auto ok = m_sftp.checkStatus(*reply, QStringLiteral("Staging"), m_paths.value(done.batch)); !ok) return ok;
        if (done.close) { // a channel's answers come in order: this batch's writes are in
            m_stage.finish(done.batch, m_paths.take(done.batch));
        }
        return {};
    }

    TarStage &m_stage;
    SftpClient &m_sftp;
    const QString m_folder;
    std::deque<Request> m_inflight;
    QHash<int, QString> m_paths; // batches opened and not yet staged
    QHash<int, quint64> m_offsets;
};

TarStage::TarStage(LocalTree tree, int sessions, QString host, bool verify, const std::atomic_bool *cancel, quint64 maxBytes)
    : m_tree(std::move(tree))
    , m_ctx(SessionFactory(), cancel, nullptr, std::move(host),
            [verify] {
                TransferOptions o;
                o.verify = verify;
                return o;
            }())
    , m_maxBytes(maxBytes)
{
    const auto limits = freshBatchLimits(m_tree, sessions);
    m_batchFiles = limits.first;
    m_batchBytes = limits.second;
    m_batches = planBatches(m_tree, m_batchFiles, m_batchBytes);
}

TarStage::~TarStage() = default;

void TarStage::run(ssh::Session &session, const QString &command, int count, std::vector<std::unique_ptr<ssh::Channel>> &channels)
{
    if (m_stopped) {
        BatchWarmup::topUp(session, command, count, channels); // the plan came first: nothing to stage for
        return;
    }
    // The SFTP channel and the runner open in the same round trips; the home folder's path
    // comes with the handshake.
    std::unique_ptr<ssh::Channel> runner;
    const bool withRunner = count > int(channels.size());
    QElapsedTimer starting;
    starting.start();
    // A stop gives up a start still waiting: where sshd runs sftp-server through the login shell,
    // the helper's runner is ready as soon, and the helper is then wanted for the upload.
    auto started = SftpClient::startMany(session, 1, &m_stopped,
                                         [](SftpClient &c) { c.askAhead(SftpClient::Realpath, QStringLiteral(".")); },
                                         withRunner ? command : QString(), withRunner ? &runner : nullptr);
    if (runner) channels.push_back(std::move(runner));
    BatchWarmup::topUp(session, command, count, channels);
    if (!started) {
        std::lock_guard lock(m_mutex);
        if (m_stopped && !m_ctx.cancelled()) m_sftpGaveUpAfterMs = std::max(m_sftpGaveUpAfterMs, starting.elapsed());
        return;
    }
    {
        std::lock_guard lock(m_mutex);
        if (m_sftpStartedMs < 0 || starting.elapsed() < m_sftpStartedMs) m_sftpStartedMs = starting.elapsed();
        if (m_stopped) return; // the runners are ready as soon (sshd runs SFTP through the login shell)
    }
    SftpClient &sftp = *started->front();
    sftp.setCancel(m_ctx.cancel()); // a stop now lets the batches being written finish
    const auto home = sftp.realpath(QStringLiteral("."));
    if (!home || !home->startsWith(QLatin1Char('/'))) return;
    const QString parent = (*home == QLatin1String("/") ? QString() : *home) + QStringLiteral("/.cache");
    const QString folder = parent + QStringLiteral("/gantry-stage");
    // Both folders in one round trip, only the owner's (the staged files hold the user's data);
    // either may exist already (the first open says if it is not a folder this user can write in).
    const auto a = sftp.sendMkdir(parent, 0700);
    const auto b = sftp.sendMkdir(folder, 0700);
    if (!a || !b || !sftp.waitFor(*a) || !sftp.waitFor(*b)) return;
    if (!waitForSlowListing()) return;
    Writer(*this, sftp, folder).run();
}

void TarStage::listingStarts(qint64 roundTripMs)
{
    {
        std::lock_guard lock(m_mutex);
        // A listing through a shell that starts at once takes two or three round trips.
        m_slowListingMs = std::max<qint64>(200, 4 * std::max<qint64>(0, roundTripMs) + 100);
        m_listing.start();
    }
    m_wake.notify_all();
}

bool TarStage::waitForSlowListing()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        if (m_stopped || m_ctx.cancelled()) return false;
        if (m_listing.isValid() && m_listing.elapsed() >= m_slowListingMs) return true;
        const qint64 wait = m_listing.isValid() ? m_slowListingMs - m_listing.elapsed() : 50;
        m_wake.wait_for(lock, std::chrono::milliseconds(std::max<qint64>(1, wait)));
    }
}

int TarStage::claim()
{
    std::lock_guard lock(m_mutex);
    if (m_stopped || m_next >= m_batches.size() || m_claimedBytes >= m_maxBytes || m_ctx.cancelled()) return -1;
    const auto [begin, end] = m_batches[m_next];
    for (int i = begin; i < end; ++i) m_claimedBytes += m_tree.entries[i].size;
    m_writing.insert(m_next);
    return m_next++;
}

void TarStage::finish(int batch, const QString &path, const QString &discarded)
{
    {
        std::lock_guard lock(m_mutex);
        m_writing.remove(batch);
        if (!path.isEmpty()) m_staged.insert(batch, path);
        if (!discarded.isEmpty() && !m_discarded.contains(discarded)) m_discarded.append(discarded);
    }
    m_wake.notify_all();
}

void TarStage::stop()
{
    m_stopped = true;
    m_wake.notify_all();
}

bool TarStage::matches(const LocalTree &tree) const
{
    if (tree.fingerprint != m_tree.fingerprint || tree.entries.size() != m_tree.entries.size()) return false;
    for (qsizetype i = 0; i < tree.entries.size(); ++i) {
        const LocalEntry &a = tree.entries[i];
        const LocalEntry &b = m_tree.entries[i];
        if (a.relative != b.relative || a.nativeRelative != b.nativeRelative || a.size != b.size || a.mtimeMs != b.mtimeMs
            || a.mode != b.mode || a.isDir != b.isDir || a.isLink != b.isLink || a.linkTarget != b.linkTarget) {
            return false;
        }
    }
    return true;
}

std::optional<QString> TarStage::take(int batch)
{
    std::unique_lock lock(m_mutex);
    m_wake.wait(lock, [&] { return !m_writing.contains(batch); });
    const auto it = m_staged.find(batch);
    if (it == m_staged.end()) return std::nullopt;
    const QString path = it.value();
    m_staged.erase(it);
    m_taken.insert(batch, path);
    return path;
}

void TarStage::reported(int batch)
{
    std::lock_guard lock(m_mutex);
    m_taken.remove(batch);
}

QStringList TarStage::leftovers() const
{
    std::lock_guard lock(m_mutex);
    return m_staged.values() + m_discarded + m_taken.values();
}

qint64 TarStage::sftpStartedMs() const
{
    std::lock_guard lock(m_mutex);
    return m_sftpStartedMs;
}

qint64 TarStage::sftpGaveUpAfterMs() const
{
    std::lock_guard lock(m_mutex);
    return m_sftpStartedMs < 0 ? m_sftpGaveUpAfterMs : -1;
}

bool TarStage::remove(SftpClient &sftp, const QStringList &paths)
{
    // Also after a cancel: what was staged (up to kMaxStagedBytes of the host's disk) goes now, in
    // a round trip, not half a day later. The removal has a cancel of its own, set a few seconds
    // on, and is not tried where the channel's window cannot take the requests (a stalled link):
    // a way out that hangs on a dead link would be worse than files left for later.
    qsizetype bytes = 0;
    for (const QString &p : paths) bytes += 64 + p.toUtf8().size();
    if (sftp.sendWindow() < quint32(std::min<qsizetype>(bytes, 1 << 20))) return false;
    const std::atomic_bool *cancel = sftp.cancelFlag();
    const DeadlineFlag soon(kRemoveBudget);
    sftp.setCancel(soon.flag());
    const auto restore = qScopeGuard([&] { sftp.setCancel(cancel); });
    std::vector<quint32> ids;
    bool sent = true;
    for (const QString &p : paths) {
        auto id = sftp.sendRemove(p);
        if (!id) {
            sent = false;
            break;
        }
        ids.push_back(*id);
    }
    for (size_t i = 0; i < ids.size(); ++i) {
        if (sftp.waitFor(ids[i])) continue; // a file already gone answers with a status
        // No answer in time (the link is gone or stalled): later answers are left to no one.
        for (size_t j = i; j < ids.size(); ++j) sftp.forget(ids[j]);
        return false;
    }
    return sent;
}

} // namespace gantry::transfer
