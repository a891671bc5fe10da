#include "core/transfer/chunkworkers.h"

#include "core/transfer/fileupload.h"

#include <QCoreApplication>

#include <thread>

namespace gantry::transfer {

namespace {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class TransferText
{
    Q_DECLARE_TR_FUNCTIONS(Transfer)
};

} // namespace

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
            auto session = ctx.factory()(ctx.cancel());
            if (!session) return; // the primary session carries on alone
            auto sftp = SftpClient::start((*session)->handle(), primary.label(), ctx.cancel());
            if (!sftp) return;
            worker(**sftp);
        });
    }
    worker(primary);
    for (auto &t : threads) t.join();
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
