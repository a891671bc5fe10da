#include "core/transfer/chunkworkers.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/fileupload.h"
#include "core/transfer/sessionprefetch.h"

#include <QCoreApplication>

#include <thread>

namespace gantry::transfer {

Error cancelledError()
{
    return Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")};
}

void runWorkers(TransferContext &ctx, SftpClient &primary, int count,
                const std::function<void(SftpClient &)> &worker)
{
    std::vector<std::thread> threads;
    for (int i = 1; i < count; ++i) {
        threads.emplace_back([&ctx, &worker, &primary] {
            bool claimed = false;
            std::optional<ReadySession> ready;
            if (SessionPrefetch *prefetch = ctx.prefetch()) ready = prefetch->take(&claimed);
            if (claimed && !ready) return; // its connect failed: the others carry on
            if (!ready) {
                auto session = ctx.factory()(ctx.cancel());
                if (!session) return; // the primary session carries on alone
                ready = ReadySession{std::move(*session), nullptr};
            }
            if (!ready->sftp) { // connected where the attempt did not yet know it needed SFTP
                auto sftp = SftpClient::start(ready->session->handle(), primary.label(), ctx.cancel());
                if (!sftp) return;
                ready->sftp = std::move(*sftp);
            }
            worker(*ready->sftp);
        });
    }
    worker(primary);
    for (auto &t : threads) t.join();
}

qint64 linkRoundTrip(TransferContext &ctx, SftpClient &sftp, bool needed)
{
    // A connect under a loaded CPU can look long on a short link: only a clearly long one (200 ms
    // and more) is taken at its word, the rest is measured (three stats, cheap where the link is
    // short; 150 ms on the critical path of a 50 ms link, which the hint spares).
    constexpr qint64 kTrustedHintMs = 40;
    if (const SessionPrefetch *p = ctx.prefetch(); p && p->roundTripHintMs() >= kTrustedHintMs) return p->roundTripHintMs();
    if (ctx.options().parallel > 0 && !needed) return -1;
    return sftp.roundTripMs();
}

int workerCount(TransferContext &ctx, const FileJournal &journal, qint64 roundTripMs)
{
    const int missing = journal.chunkCount() - int(journal.done.count(true));
    const int wanted = ctx.options().parallel > 0 ? ctx.options().parallel : fileParallel(journal.size, roundTripMs);
    const int workers = std::clamp(wanted, 1, std::max(1, missing));
    if (SessionPrefetch *p = ctx.prefetch(); p && workers > 1) p->ensure(workers - 1);
    return workers;
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
