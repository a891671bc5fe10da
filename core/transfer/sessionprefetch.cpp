#include "core/transfer/sessionprefetch.h"
#include "core/transfer/treetransfer.h"

#include "core/transfer/chunkworkers.h"
#include "core/transfer/fileupload.h"
#include "core/transfer/transfercontext.h"

#include <QElapsedTimer>

#include <limits>

namespace gantry::transfer {

namespace {
// A connect is about five round trips: banners, key exchange (two), the auth service, and a
// login that signs at once (measured through a 50 ms relay: 240 ms).
constexpr qint64 kRoundTripsPerConnect = 5;
// Still connecting after this long, the link's round trip is at least the paired value: 100 ms
// of connecting is ~15 ms of round trip, 200 ms ~30 ms (fileParallel's steps are 10 and 30 ms).
constexpr struct
{
    int afterMs;
    qint64 roundTripMs;
} kMarks[] = {{100, 15}, {200, 30}};
} // namespace

SessionPrefetch::SessionPrefetch(TransferContext &ctx, Helpers helpers, Lanes lanes)
    : m_ctx(ctx)
    , m_helpers(ctx.options().parallel == 1 ? Helpers() : std::move(helpers))
    , m_lanes(std::move(lanes))
{
    m_ctx.setPrefetch(this);
    if (wanted(std::numeric_limits<qint64>::max()) > 0) m_watcher = std::thread([this] { watchFirstConnect(); });
}

SessionPrefetch::Helpers SessionPrefetch::forOneUpload(const TransferContext &ctx, quint64 size)
{
    if (size == 0) return {};
    return [&ctx, size](qint64 roundTripMs) {
        const int chunks = int((size + kChunkSize - 1) / kChunkSize);
        return fanoutFor(ctx.options(), size, chunks, roundTripMs).sessions - 1;
    };
}

SessionPrefetch::Lanes SessionPrefetch::lanesForOneUpload(const TransferContext &ctx, quint64 size)
{
    if (size == 0) return {};
    return [&ctx, size](qint64 roundTripMs) {
        const int chunks = int((size + kChunkSize - 1) / kChunkSize);
        return fanoutFor(ctx.options(), size, chunks, roundTripMs).lanes - 1;
    };
}

int SessionPrefetch::extraLanes() const
{
    const qint64 hint = roundTripHintMs();
    return m_lanes && hint >= kTrustedHintMs ? std::max(0, m_lanes(hint)) : 0;
}

void SessionPrefetch::setPrimaryLanes(std::vector<std::unique_ptr<SftpClient>> lanes)
{
    std::lock_guard lock(m_mutex);
    m_primaryLanes = std::move(lanes);
}

std::vector<std::unique_ptr<SftpClient>> SessionPrefetch::takePrimaryLanes()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_primaryLanes, {});
}

std::vector<SftpClient *> SessionPrefetch::primaryLanes() const
{
    std::lock_guard lock(m_mutex);
    std::vector<SftpClient *> lanes;
    for (const auto &lane : m_primaryLanes) lanes.push_back(lane.get());
    return lanes;
}

SessionPrefetch::Helpers SessionPrefetch::forDownload()
{
    // downloadParallel's fan-out: 8 sessions from 30 ms, 4 from 10 ms. A small file wastes these
    // connects, but on such a link they end about when its download does.
    return [](qint64 roundTripMs) { return std::min(roundTripMs >= 30 ? 7 : roundTripMs >= 10 ? 3 : 0, sessionCap() - 1); };
}

SessionPrefetch::Helpers SessionPrefetch::forFolderUpload()
{
    // treeParallel's sessions for a folder of 64 MiB or more from 30 ms (a smaller one leaves some
    // unused, connected while its files are sent), its floor for many files from 10 ms.
    return [](qint64 roundTripMs) {
        return roundTripMs >= 30 ? kLongLinkTreeSessions - 1 : std::min(roundTripMs >= 10 ? 1 : 0, sessionCap() - 1);
    };
}

SessionPrefetch::~SessionPrefetch()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        m_firstDone = true;
    }
    m_changed.notify_all();
    if (m_watcher.joinable()) m_watcher.join();
    std::vector<std::thread> threads;
    {
        std::lock_guard lock(m_mutex); // ensure() starts no more: the list is final
        threads.swap(m_threads);
    }
    for (auto &t : threads) t.join();
    m_ctx.setPrefetch(nullptr);
}

int SessionPrefetch::wanted(qint64 roundTripMs) const
{
    if (!m_helpers) return 0;
    const int helpers = m_helpers(roundTripMs);
    return m_ctx.options().parallel > 0 ? std::min(helpers, m_ctx.options().parallel - 1) : helpers;
}

void SessionPrefetch::watchFirstConnect()
{
    QElapsedTimer since;
    since.start();
    bool bannerLate = false;
    {
        // A late banner: a link of about kMarks[0]'s round trip or more.
        std::unique_lock lock(m_mutex);
        m_changed.wait_for(lock, std::chrono::milliseconds(ssh::KeyExchangeObserver::kLateBannerMs),
                           [this] { return m_firstDone || m_bannerCame; });
        if (m_firstDone) return;
        bannerLate = !m_bannerCame;
    }
    if (bannerLate) ensure(wanted(kMarks[0].roundTripMs));
    for (const auto &mark : kMarks) {
        {
            std::unique_lock lock(m_mutex);
            const auto left = std::chrono::milliseconds(std::max<qint64>(0, mark.afterMs - since.elapsed()));
            if (m_changed.wait_for(lock, left, [this] { return m_firstDone; })) return;
        }
        ensure(wanted(mark.roundTripMs));
    }
}

void SessionPrefetch::firstKeyExchange(qint64 keyExchangeMs)
{
    // A key exchange is one round trip and the host's crypto (a slow DH group, a busy CPU), up to
    // 1.3 where its KEXINIT comes after the banner (through the test relay): taken as 1.3, with
    // the trusted floor (the marks and the first connect's end still start what a shorter link wants).
    const qint64 roundTripMs = keyExchangeMs * 10 / 13;
    if (roundTripMs >= kTrustedHintMs) ensure(wanted(roundTripMs));
}

void SessionPrefetch::firstBanner(qint64 /*ms*/)
{
    {
        std::lock_guard lock(m_mutex);
        m_bannerCame = true;
    }
    m_changed.notify_all();
}

void SessionPrefetch::firstConnected(qint64 connectMs)
{
    {
        std::lock_guard lock(m_mutex);
        m_roundTripHintMs = connectMs < 0 ? -1 : connectMs / kRoundTripsPerConnect;
        m_firstDone = true;
    }
    m_changed.notify_all();
    // A fast connect says a short link, where the marks started nothing: one session is best.
    if (m_roundTripHintMs >= kMarks[0].roundTripMs) ensure(wanted(m_roundTripHintMs));
}

qint64 SessionPrefetch::roundTripHintMs() const
{
    std::lock_guard lock(m_mutex);
    return m_roundTripHintMs;
}

void SessionPrefetch::ensure(int total)
{
    std::lock_guard lock(m_mutex);
    if (m_stop) return;
    for (; m_started < total; ++m_started) m_threads.emplace_back([this] { connectOne(); });
}

void SessionPrefetch::setRunOnConnect(const QString &command)
{
    std::lock_guard lock(m_mutex);
    m_runOnConnect = command;
}

void SessionPrefetch::limitRunOnConnect(int count)
{
    std::lock_guard lock(m_mutex);
    m_runLimit = count;
    // The connects that ended and were not taken: idle, so closing their channels here is safe.
    int kept = 0;
    for (std::optional<ReadySession> &ready : m_finished) {
        if (!ready || ready->running.empty()) continue;
        if (++kept > count) ready->running.clear();
    }
}

void SessionPrefetch::connectOne()
{
    std::optional<ReadySession> ready;
    // The factory's cancel is our stop flag (set when the attempt ends), the client's the user's.
    const ssh::OptionalConnects optional;
    if (auto session = m_ctx.factory()(&m_stop); session && !m_ctx.cancelled()) {
        if (!m_sftpWanted) {
            ready = ReadySession{std::move(*session), nullptr, {}, {}};
            const QString command = [this] {
                std::lock_guard lock(m_mutex);
                return m_runsStarted < m_runLimit ? (++m_runsStarted, m_runOnConnect) : QString();
            }();
            if (!command.isEmpty()) {
                if (auto running = ready->session->openExec(command)) ready->running.push_back(std::move(*running));
            }
        } else if (auto clients = SftpClient::startMany(**session, 1 + extraLanes(), m_ctx.cancel())) {
            std::unique_ptr<SftpClient> first = std::move(clients->front());
            clients->erase(clients->begin());
            ready = ReadySession{std::move(*session), std::move(first), std::move(*clients), {}};
        }
    }
    std::lock_guard lock(m_mutex);
    m_finished.push_back(std::move(ready));
    m_changed.notify_all();
}

std::optional<ReadySession> SessionPrefetch::take(bool *claimed)
{
    std::unique_lock lock(m_mutex);
    *claimed = m_claimed < m_started;
    if (!*claimed) return std::nullopt;
    ++m_claimed;
    // Whichever connect ends first; each claim has a connect of its own still to end.
    m_changed.wait(lock, [this] { return !m_finished.empty(); });
    std::optional<ReadySession> ready = std::move(m_finished.front());
    m_finished.pop_front();
    return ready;
}

} // namespace gantry::transfer
