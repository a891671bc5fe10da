#include "core/transfer/chunkworkers.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/fileupload.h"
#include "core/transfer/sessionprefetch.h"

#include <QCoreApplication>
#include <QScopeGuard>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace gantry::transfer {

Error cancelledError()
{
    return Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")};
}

void runLaneWorkers(TransferContext &ctx, ssh::Session *primarySession, SftpClient &primary, Fanout fanout,
                    const std::function<void(Lanes &)> &worker, const std::function<void()> &whileWaiting)
{
    const int extra = primarySession ? std::max(0, fanout.lanes - 1) : 0;
    std::vector<std::thread> threads;
    std::mutex doneMutex;
    std::condition_variable doneChanged;
    int done = 0;
    const auto finished = [&] {
        std::lock_guard lock(doneMutex);
        ++done;
        doneChanged.notify_all();
    };
    for (int i = 1; i < fanout.sessions; ++i) {
        threads.emplace_back([&ctx, &worker, &primary, extra, &finished] {
            const auto signal = qScopeGuard(finished);
            bool claimed = false;
            std::optional<ReadySession> ready;
            if (SessionPrefetch *prefetch = ctx.prefetch()) ready = prefetch->take(&claimed);
            if (claimed && !ready) return; // its connect failed: the others carry on
            if (!ready) {
                const ssh::OptionalConnects optional;
                auto session = ctx.factory()(ctx.cancel());
                if (!session) return; // the primary session carries on alone
                ready = ReadySession{std::move(*session), nullptr, {}, {}};
            }
            ready->running.clear(); // a folder upload's batch runner: not what a file's chunks need
            if (!ready->sftp) { // connected where the attempt did not yet know it needed SFTP
                auto sftp = SftpClient::start(ready->session->handle(), primary.label(), ctx.cancel());
                if (!sftp) return;
                ready->sftp = std::move(*sftp);
            }
            Lanes lanes{*ready->sftp, std::move(ready->lanes), extra > 0 ? ready->session.get() : nullptr, extra};
            worker(lanes);
        });
    }
    Lanes lanes{primary, {}, extra > 0 ? primarySession : nullptr, extra};
    if (SessionPrefetch *prefetch = ctx.prefetch()) {
        // Channels opened ahead for more chunks than are left (a resume) close now, not at the
        // end: the host's hash check needs a channel of the session too (MaxSessions).
        auto opened = prefetch->takePrimaryLanes();
        if (opened.size() > size_t(extra)) opened.resize(size_t(extra));
        lanes.started = std::move(opened);
    }
    worker(lanes);
    if (whileWaiting) {
        std::unique_lock lock(doneMutex);
        while (done < int(threads.size())) {
            lock.unlock();
            whileWaiting();
            lock.lock();
            doneChanged.wait_for(lock, std::chrono::milliseconds(5), [&] { return done == int(threads.size()); });
        }
    }
    for (auto &t : threads) t.join();
}

void runWorkers(TransferContext &ctx, SftpClient &primary, int count, const std::function<void(SftpClient &)> &worker)
{
    runLaneWorkers(ctx, nullptr, primary, Fanout{count, 1}, [&worker](Lanes &lanes) { worker(lanes.first); });
}

qint64 linkRoundTrip(TransferContext &ctx, SftpClient &sftp, bool needed)
{
    // A connect under a loaded CPU can look long on a short link: only a clearly long one (200 ms
    // and more) is taken at its word, the rest is measured (three stats, cheap where the link is
    // short; 150 ms on the critical path of a 50 ms link, which the hint spares).
    if (const SessionPrefetch *p = ctx.prefetch(); p && p->roundTripHintMs() >= SessionPrefetch::kTrustedHintMs) {
        return p->roundTripHintMs();
    }
    if (ctx.options().parallel > 0 && !needed) return -1;
    return sftp.roundTripMs();
}

Fanout fileFanout(TransferContext &ctx, const FileJournal &journal, qint64 roundTripMs)
{
    const int missing = journal.chunkCount() - int(journal.done.count(true));
    const Fanout fanout = fanoutFor(ctx.options(), journal.size, missing, roundTripMs);
    if (SessionPrefetch *p = ctx.prefetch(); p && fanout.sessions > 1) p->ensure(fanout.sessions - 1);
    return fanout;
}

Fanout fanoutFor(const TransferOptions &options, quint64 size, int missingChunks, qint64 roundTripMs)
{
    Fanout fanout;
    fanout.lanes = options.channels > 0 ? options.channels : fileLanes(size, roundTripMs);
    int wanted = options.parallel > 0 ? options.parallel : fileParallel(size, roundTripMs);
    // With several channels a session, four sessions: measured through the relay at 100 ms,
    // 8 sessions × 4 channels took 7.0 s for 1 GiB, 4 × 8 6.3 s and 3 × 8 6.0–6.5 s (sshd on the
    // shared cores absorbs the first windows of many connections slowly); on a real link each
    // TCP connection's send buffer (4 MiB by default) still leaves 16 MiB in flight.
    if (options.parallel <= 0 && fanout.lanes > 1) wanted = std::min(wanted, kLaneSessions);
    fanout.sessions = std::clamp(wanted, 1, std::max(1, missingChunks));
    // Every channel needs a chunk of its own to be worth its round trips.
    const int chunksPerSession = (std::max(1, missingChunks) + fanout.sessions - 1) / fanout.sessions;
    fanout.lanes = std::clamp(fanout.lanes, 1, chunksPerSession);
    return fanout;
}

int downloadWorkers(TransferContext &ctx, const FileJournal &journal, qint64 roundTripMs)
{
    const int missing = journal.chunkCount() - int(journal.done.count(true));
    const int wanted = ctx.options().parallel > 0 ? ctx.options().parallel : fileParallel(journal.size, roundTripMs);
    const int workers = std::clamp(wanted, 1, std::max(1, missing));
    if (SessionPrefetch *p = ctx.prefetch(); p && workers > 1) p->ensure(workers - 1);
    return workers;
}

int fileLanes(quint64 size, qint64 roundTripMs)
{
    // A channel keeps 1-2 MiB in flight (sshd's 2 MiB window, topped up at half): keeping about
    // 400 MB/s moving takes roundTripMs / 4 channels, over kLaneSessions sessions: 3 a session
    // at 50 ms, 7 at 100 ms, 8 (the most) from 120 ms.
    if (roundTripMs < 30 || size < 64ull * 1024 * 1024) return 1;
    return int(std::clamp<qint64>((roundTripMs / 4 + kLaneSessions - 1) / kLaneSessions, 1, kMaxLanes));
}

FileJournal freshJournal(Direction direction, const QString &host, const QString &source, const QString &destination,
                         quint64 size, qint64 mtime)
{
    FileJournal j;
    j.direction = direction;
    j.host = host;
    j.source = source;
    j.destination = destination;
    j.size = size;
    j.mtime = mtime;
    j.chunkSize = kChunkSize;
    const qsizetype chunks = qsizetype((size + kChunkSize - 1) / kChunkSize); // sizes are bounded by free space first
    j.done = QList<bool>(chunks, false);
    j.chunkHashes = QList<QByteArray>(chunks);
    return j;
}

} // namespace gantry::transfer
