// SPDX-License-Identifier: Apache-2.0
#include "core/transfer/uploadworker.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/remoteops.h"

#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QMap>

#include <deque>

namespace gantry::transfer {

namespace {

// One lane's pipeline: its current chunk, the writes in flight and the chunks whose every write
// went out (their hash waits for the last acknowledgement).
struct UploadPipe
{
    struct Request
    {
        int chunk;
        quint32 length;
    };
    UploadPipe(FileJournal journal, quint32 maxWrite, qsizetype headerSize)
        : layout(std::move(journal)), header(headerSize), buffer(headerSize + qsizetype(maxWrite), Qt::Uninitialized)
    {
    }

    const FileJournal layout;
    QHash<quint32, Request> inflight;
    std::deque<quint64> sentOrder;        // the worker's send counter at each write in flight, oldest first
    QHash<int, int> outstanding;          // chunk → writes not yet acknowledged
    QMap<int, QByteArray> fullySent;      // chunk → hash, once every write of it was sent
    int current = -1;
    quint64 offset = 0;
    quint64 end = 0;
    bool chunkHashes = true;
    std::unique_ptr<Sha256> hash;
    InlineHash *whole = nullptr;
    const qsizetype header;
    QByteArray buffer; // one write packet: the header, then the data read into it
};

// One SFTP channel of the worker's session writing into the staging file.
struct UploadLane
{
    UploadLane(TransferContext &ctx, SftpClient &client, QByteArray opened, const QString &localPath, ChunkPlan &plan)
        : sftp(client), handle(std::move(opened)), file(localPath),
          pipe(plan.journal(), client.maxWrite(), SftpClient::writeHeaderSize(handle)), meter(client, ctx, plan)
    {
    }
    std::unique_ptr<SftpClient> owned; // the extra lanes' clients; the first lane's belongs to its session
    SftpClient &sftp;
    const QByteArray handle;
    QFile file;
    UploadPipe pipe;
    WireMeter meter;
};

// Sends writes until kMaxInflight are in flight or no chunk is left; with `byWindow`, also stops
// where the channel's window would make the write wait (several lanes share the thread); false
// when the worker must stop at once (a write could not be sent).
bool fillUploadWindow(TransferContext &ctx, UploadLane &lane, const QString &localPath, ChunkPlan &plan, bool byWindow,
                      quint64 *sendCounter)
{
    UploadPipe &pipe = lane.pipe;
    while (pipe.inflight.size() < kMaxInflight && !ctx.cancelled()) {
        if (pipe.current < 0) {
            pipe.current = plan.take();
            if (pipe.current < 0) break;
            pipe.offset = pipe.layout.chunkOffset(pipe.current);
            pipe.end = pipe.offset + pipe.layout.chunkLength(pipe.current);
            if (pipe.chunkHashes) pipe.hash = std::make_unique<Sha256>();
            if (!lane.file.seek(qint64(pipe.offset))) {
                plan.fail(Error{ErrorCode::Io, TransferText::tr("Cannot read the local file %1: %2.").arg(localPath, lane.file.errorString())});
                pipe.current = -1;
                break;
            }
        }
        const quint32 n = quint32(std::min<quint64>(lane.sftp.maxWrite(), pipe.end - pipe.offset));
        if (byWindow && !pipe.inflight.isEmpty() && lane.sftp.sendWindow() < quint32(pipe.header) + n) break;
        char *data = pipe.buffer.data() + pipe.header;
        const qint64 got = lane.file.read(data, n);
        if (got != qint64(n)) {
            plan.fail(Error{ErrorCode::Conflict,
                            got < 0 ? TransferText::tr("Cannot read the local file %1: %2.").arg(localPath, lane.file.errorString())
                                    : TransferText::tr("%1 became shorter while it was being uploaded. Retry to upload the "
                                                       "new version from the start.").arg(localPath)});
            pipe.current = -1;
            break;
        }
        if (pipe.hash) pipe.hash->add(data, n);
        if (pipe.whole) pipe.whole->add(pipe.offset, data, n);
        auto id = lane.sftp.sendWrite(pipe.buffer.data(), lane.handle, pipe.offset, n);
        if (!id) {
            plan.fail(id.error());
            return false;
        }
        pipe.inflight.insert(*id, UploadPipe::Request{pipe.current, n});
        pipe.sentOrder.push_back((*sendCounter)++);
        pipe.outstanding[pipe.current] += 1;
        pipe.offset += n;
        if (pipe.offset >= pipe.end) {
            // "-": no hash of its own, so a resumed upload is checked by the whole file.
            pipe.fullySent.insert(pipe.current, pipe.hash ? pipe.hash->hexDigest() : QByteArrayLiteral("-"));
            pipe.current = -1;
        }
    }
    return true;
}

// Opens the staging file on `first` and on every client of `more`, all at once (one round trip),
// unless `known` holds its handle already, and adds a lane for each that could. A failure of the
// first lane is the worker's (it goes to the plan); a later client that fails is left out.
void openLanes(TransferContext &ctx, SftpClient *first, const QHash<const SftpClient *, QByteArray> &known,
               std::vector<std::unique_ptr<SftpClient>> more, const QString &localPath, const QString &partial, ChunkPlan &plan,
               std::vector<std::unique_ptr<UploadLane>> &out)
{
    std::vector<SftpClient *> clients;
    if (first) clients.push_back(first);
    for (const auto &c : more) clients.push_back(c.get());
    const size_t offset = first ? 1 : 0;
    std::vector<Result<quint32>> opens;
    for (SftpClient *client : clients) {
        opens.push_back(known.contains(client) ? Result<quint32>(0u) : client->sendOpen(partial, SftpClient::OpenWrite));
    }
    for (size_t i = 0; i < clients.size(); ++i) {
        const bool isFirst = i < offset;
        const auto handleIt = known.constFind(clients[i]);
        Result<QByteArray> handle = !opens[i]                ? Result<QByteArray>(opens[i].error())
                                    : handleIt != known.cend() ? Result<QByteArray>(*handleIt)
                                                               : clients[i]->openedHandle(clients[i]->waitFor(*opens[i]), partial,
                                                                                          SftpClient::OpenWrite);
        if (!handle) {
            if (isFirst) plan.fail(handle.error());
            continue;
        }
        auto lane = std::make_unique<UploadLane>(ctx, *clients[i], *handle, localPath, plan);
        if (!lane->file.open(QIODevice::ReadOnly)) {
            if (isFirst) {
                plan.fail(Error{ErrorCode::Io, TransferText::tr("Cannot read the local file %1: %2.").arg(localPath, lane->file.errorString())});
            }
            (void)clients[i]->close(*handle);
            continue;
        }
        if (!isFirst) lane->owned = std::move(more[i - offset]);
        out.push_back(std::move(lane));
    }
}

// What the file still needs on the host, for a disk-full message (not one lane's position).
quint64 stillToSend(const ChunkPlan &plan, quint64 fileSize)
{
    return fileSize - std::min(fileSize, plan.journal().doneBytes());
}

// Takes one reply of a lane: the write it acknowledges, and the chunk it completes.
void takeReply(UploadLane &lane, const SftpClient::Reply &reply, const QString &partial, quint64 fileSize, ChunkPlan &plan,
               const WorkerExtras &extras)
{
    UploadPipe &pipe = lane.pipe;
    const auto it = pipe.inflight.find(reply.id);
    if (it == pipe.inflight.end()) return;
    const UploadPipe::Request req = it.value();
    pipe.inflight.erase(it);
    if (!pipe.sentOrder.empty()) pipe.sentOrder.pop_front(); // sftp-server answers a channel's writes in order
    if (auto st = lane.sftp.checkStatus(reply, TransferText::tr("Writing"), partial); !st) {
        const Error e = st.error();
        plan.fail(e.code == ErrorCode::RemoteFailed ? classifyWriteFailure(lane.sftp, e, partial, stillToSend(plan, fileSize)) : e);
        return; // the rest drains before the handles close
    }
    lane.meter.payload(req.length);
    if (--pipe.outstanding[req.chunk] == 0 && pipe.fullySent.contains(req.chunk)) {
        pipe.outstanding.remove(req.chunk);
        plan.done(req.chunk, pipe.fullySent.take(req.chunk));
        if (extras.chunkDone) extras.chunkDone();
    }
}

// Every reply that has arrived on any lane; when none has, waits for the one whose oldest write
// went out first (its answer is due next). A lane whose channel failed fails the plan and is
// dropped; the others drain, so their handles close with nothing left unread on them.
void collectReplies(std::vector<std::unique_ptr<UploadLane>> &lanes, const QString &partial, quint64 fileSize, ChunkPlan &plan,
                    const WorkerExtras &extras)
{
    bool took = false;
    UploadLane *oldest = nullptr;
    for (auto it = lanes.begin(); it != lanes.end();) {
        UploadLane &lane = **it;
        bool failed = false;
        while (lanes.size() > 1) {
            auto reply = lane.sftp.poll();
            if (!reply) {
                plan.fail(reply.error());
                failed = true;
                break;
            }
            if (!*reply) break;
            takeReply(lane, **reply, partial, fileSize, plan, extras);
            took = true;
        }
        if (failed) {
            it = lanes.erase(it);
            continue;
        }
        if (!lane.pipe.sentOrder.empty() && (!oldest || lane.pipe.sentOrder.front() < oldest->pipe.sentOrder.front())) oldest = &lane;
        ++it;
    }
    if (took || !oldest) return;
    auto reply = oldest->sftp.next();
    if (reply) {
        takeReply(*oldest, *reply, partial, fileSize, plan, extras);
        return;
    }
    plan.fail(reply.error());
    std::erase_if(lanes, [oldest](const auto &l) { return l.get() == oldest; });
}

// The staging file's handles, closed together (one round trip).
void closeLanes(std::vector<std::unique_ptr<UploadLane>> &lanes, const QString &partial, quint64 fileSize, ChunkPlan &plan)
{
    std::vector<std::optional<quint32>> ids;
    for (auto &lane : lanes) {
        QByteArray body;
        sftpwire::putString(body, lane->handle);
        auto id = lane->sftp.send(SftpClient::Close, body);
        ids.push_back(id ? std::optional<quint32>(*id) : std::nullopt);
        if (!id) plan.fail(id.error());
    }
    for (size_t i = 0; i < lanes.size(); ++i) {
        UploadLane &lane = *lanes[i];
        if (!ids[i]) continue;
        auto reply = lane.sftp.waitFor(*ids[i]);
        Result<void> closed = reply ? lane.sftp.checkStatus(*reply, TransferText::tr("Closing"), partial) : Result<void>(reply.error());
        if (!closed) {
            const Error e = closed.error();
            plan.fail(e.code == ErrorCode::RemoteFailed ? classifyWriteFailure(lane.sftp, e, partial, stillToSend(plan, fileSize)) : e);
        }
        lane.meter.payload(0);
    }
}

} // namespace

int uploadWorker(TransferContext &ctx, Lanes &lanes, const QString &localPath, const QString &partial,
                  quint64 fileSize, ChunkPlan &plan, const WorkerExtras &extras)
{
    std::vector<std::unique_ptr<UploadLane>> active;
    if (lanes.started.size() > size_t(lanes.extra)) lanes.started.resize(size_t(lanes.extra));
    QHash<const SftpClient *, QByteArray> known; // handles opened ahead, of the clients still here only
    for (const auto &client : lanes.started) {
        if (auto it = extras.lanesOpened.constFind(client.get()); it != extras.lanesOpened.cend()) known.insert(client.get(), *it);
    }
    if (extras.opened) known.insert(&lanes.first, *extras.opened);
    openLanes(ctx, &lanes.first, known, std::move(lanes.started), localPath, partial, plan, active);
    if (active.empty() || &active.front()->sftp != &lanes.first) return 0; // the plan says why
    for (auto &lane : active) lane->pipe.chunkHashes = extras.chunkHashes;
    active.front()->pipe.whole = extras.whole;
    // Channels SessionPrefetch did not open ahead (the first connect's hint was short) open once
    // the first writes are out.
    int toAdd = lanes.session ? lanes.extra - int(active.size() - 1) : 0;
    size_t used = active.size();
    quint64 sendCounter = 0;
    for (;;) {
        const bool byWindow = active.size() > 1 || toAdd > 0;
        // A lane that cannot send has a broken channel: the plan has the error, the rest drain.
        std::erase_if(active, [&](auto &lane) { return !fillUploadWindow(ctx, *lane, localPath, plan, byWindow, &sendCounter); });
        if (toAdd > 0) {
            auto more = SftpClient::startMore(*lanes.session, lanes.first.label(), std::exchange(toAdd, 0), ctx.cancel());
            const size_t before = active.size();
            openLanes(ctx, nullptr, {}, std::move(more), localPath, partial, plan, active);
            for (size_t i = before; i < active.size(); ++i) active[i]->pipe.chunkHashes = extras.chunkHashes;
            used = std::max(used, active.size());
            continue;
        }
        const bool inflight = std::any_of(active.begin(), active.end(), [](const auto &l) { return !l->pipe.inflight.isEmpty(); });
        if (!inflight) break;
        collectReplies(active, partial, fileSize, plan, extras);
    }
    if (ctx.cancelled()) {
        plan.fail(cancelledError());
        return int(used);
    }
    closeLanes(active, partial, fileSize, plan);
    return int(used);
}

} // namespace gantry::transfer
