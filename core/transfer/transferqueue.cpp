#include "core/transfer/transferqueue.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/sessionfactory.h"
#include "core/transfer/transfercontext.h"
#include "core/transfer/partialcleanup.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/transferjob.h"
#include "core/util/schemaversion.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QThread>

#include <condition_variable>
#include <mutex>
#include <optional>

namespace gantry::transfer {
namespace {
// queue.json's format. 1: a bare array of items (read as {"items": [...]}); 2: {"schema", "items"}.
constexpr int kQueueSchema = 2;
const schema::Migration kQueueMigrations[] = {
    [](QJsonObject root) { return root; }, // 1 -> 2: only the wrapping object, added when read
};
} // namespace

QString itemStateName(ItemState state)
{
    switch (state) {
    case ItemState::Queued: return TransferText::tr("Queued");
    case ItemState::Running: return TransferText::tr("Running");
    case ItemState::Paused: return TransferText::tr("Paused");
    case ItemState::Done: return TransferText::tr("Done");
    case ItemState::Failed: return TransferText::tr("Failed");
    case ItemState::Cancelled: return TransferText::tr("Cancelled");
    case ItemState::Skipped: return TransferText::tr("Skipped");
    }
    return {};
}

QString QueueItem::displayName() const
{
    const QString path = request.direction == Direction::Upload ? request.localPath : request.remotePath;
    QString p = path;
    while (p.size() > 1 && p.endsWith(QLatin1Char('/'))) p.chop(1);
    return p.mid(p.lastIndexOf(QLatin1Char('/')) + 1);
}

QString QueueItem::destinationPath() const
{
    QString path = !progress.destination.isEmpty() ? progress.destination : outcome.destination;
    if (!path.isEmpty()) return path;
    const bool upload = request.direction == Direction::Upload;
    path = upload ? request.remotePath : request.localPath;
    if (request.destinationIsDir || path.endsWith(QLatin1Char('/'))) {
        const QString dir = path.endsWith(QLatin1Char('/')) ? path.chopped(1) : path;
        path = upload ? remoteJoin(dir, displayName()) : dir + QLatin1Char('/') + displayName();
    }
    return path;
}

QString QueueItem::remoteFolder() const
{
    return remoteParent(request.direction == Direction::Upload ? destinationPath() : request.remotePath);
}

QString QueueItem::localFolder() const
{
    if (request.direction == Direction::Upload) return QFileInfo(request.localPath).absolutePath();
    return QFileInfo(destinationPath()).absolutePath();
}

struct TransferQueue::Worker
{
    QElapsedTimer clock; // since the item started
    std::atomic_bool cancel{false};
    std::atomic_bool pauseRequested{false};
    std::mutex mutex;
    TransferProgress progress;
    QThread *thread = nullptr;
    // A conflict question the worker waits on: answered by the GUI thread, or by the queue's
    // destructor (so it can join without running the event loop).
    std::condition_variable answered;
    std::optional<ConflictPolicy> answer; // under mutex
    bool asking = false;                   // under mutex

    void give(ConflictPolicy policy)
    {
        std::lock_guard lock(mutex);
        if (!asking) return;
        answer = policy;
        answered.notify_all();
    }
};

TransferQueue::TransferQueue(QString configDir, FactoryProvider provider, QObject *parent)
    : QObject(parent)
    , m_configDir(std::move(configDir))
    , m_provider(std::move(provider))
    , m_journals(m_configDir)
{
    qRegisterMetaType<gantry::transfer::ItemState>();
    m_ticker.setInterval(250);
    connect(&m_ticker, &QTimer::timeout, this, &TransferQueue::tick);
}

TransferQueue::~TransferQueue()
{
    m_shuttingDown = true;
    m_asker = nullptr;
    save(); // running items are saved as queued: they resume on the next start
    for (const auto &w : std::as_const(m_workers)) {
        w->pauseRequested = true;
        w->cancel = true;
        w->give(ConflictPolicy::Ask); // a worker waiting on a conflict question goes on, cancelled
    }
    for (const auto &w : std::as_const(m_workers)) {
        if (w->thread) w->thread->wait();
        delete w->thread;
        w->thread = nullptr;
    }
    for (QThread *thread : std::as_const(m_discards)) {
        thread->wait();
        delete thread;
    }
}

TransferQueue::FactoryProvider TransferQueue::savedHostProvider(HostStore *hosts, SecretStore *secrets,
                                                                const QString &knownHostsFile)
{
    return [hosts, secrets, knownHostsFile](const QString &host) -> Result<SessionFactory> {
        const auto saved = hosts->find(host);
        if (!saved) {
            return Error{ErrorCode::NotFound,
                         TransferText::tr("No saved host named %1; add it again to continue.").arg(host)};
        }
        return makeHostSessionFactory(*saved, secrets, knownHostsFile);
    };
}

QString TransferQueue::storePath() const
{
    return QDir(m_journals.directory()).filePath(QStringLiteral("queue.json"));
}

quint64 TransferQueue::enqueue(const TransferRequest &request)
{
    QueueItem item;
    item.id = m_nextId++;
    item.request = request;
    const int row = int(m_items.size());
    emit itemAboutToBeAdded(row);
    m_items.append(item);
    emit itemAdded(row);
    save();
    schedule();
    emit totalsChanged();
    return item.id;
}

int TransferQueue::rowOf(quint64 id) const
{
    for (int i = 0; i < m_items.size(); ++i) {
        if (m_items[i].id == id) return i;
    }
    return -1;
}

const QueueItem *TransferQueue::item(quint64 id) const
{
    const int row = rowOf(id);
    return row < 0 ? nullptr : &m_items[row];
}

void TransferQueue::changed(int row)
{
    emit itemsChanged(row, row);
    emit totalsChanged();
}

void TransferQueue::pause(quint64 id)
{
    const int row = rowOf(id);
    if (row < 0) return;
    QueueItem &it = m_items[row];
    if (it.state == ItemState::Running) {
        if (auto w = m_workers.value(id)) {
            w->pauseRequested = true;
            w->cancel = true;
        }
    } else if (it.state == ItemState::Queued) {
        it.state = ItemState::Paused;
        changed(row);
        save();
    }
}

void TransferQueue::resume(quint64 id)
{
    const int row = rowOf(id);
    if (row < 0 || m_items[row].state != ItemState::Paused) return;
    m_items[row].state = ItemState::Queued;
    changed(row);
    save();
    schedule();
}

void TransferQueue::cancel(quint64 id)
{
    const int row = rowOf(id);
    if (row < 0) return;
    QueueItem &it = m_items[row];
    if (it.state == ItemState::Running) {
        if (auto w = m_workers.value(id)) w->cancel = true;
        return;
    }
    if (it.isPending() || it.state == ItemState::Failed) {
        if (it.state == ItemState::Paused || it.state == ItemState::Failed) discardLeftovers(it);
        it.state = ItemState::Cancelled;
        it.message = TransferText::tr("Cancelled.");
        changed(row);
        save();
        emit itemFinished(id, it.state);
    }
}

// A paused or failed file transfer cancelled for good: its .partial goes, on a thread of its own
// (the host may be slow or gone). A folder's files stay as they are.
void TransferQueue::discardLeftovers(const QueueItem &item)
{
    const QString dest = item.progress.destination;
    if (dest.isEmpty() || item.progress.filesTotal > 1) return; // it never reached a file, or was a folder
    const TransferRequest request = item.request;
    const Result<SessionFactory> sessions = request.direction == Direction::Upload && QFileInfo(request.localPath).isFile() && m_provider
                                                ? m_provider(request.host)
                                                : Result<SessionFactory>(Error{ErrorCode::Generic, {}});
    if (request.direction == Direction::Upload && !sessions) return;
    const JournalStore *journals = &m_journals;
    QThread *thread = QThread::create([request, dest, journals, factory = sessions ? *sessions : SessionFactory{}] {
        if (request.direction == Direction::Upload)
            discardUploadPartial(factory, *journals, request.host, request.localPath, dest);
        else if (QDir::isAbsolutePath(request.remotePath))
            discardDownloadPartial(*journals, request.host, request.remotePath, dest);
        else
            discardDownloadPartial(*journals, request.host, {}, dest); // the journal names the resolved path
    });
    m_discards.append(thread);
    connect(thread, &QThread::finished, this, [this, thread] {
        if (m_discards.removeOne(thread)) thread->deleteLater();
    });
    thread->start();
}

void TransferQueue::retry(quint64 id)
{
    const int row = rowOf(id);
    if (row < 0) return;
    QueueItem &it = m_items[row];
    if (it.state != ItemState::Failed && it.state != ItemState::Cancelled) return;
    it.state = ItemState::Queued;
    it.message.clear();
    changed(row);
    save();
    schedule();
}

void TransferQueue::removeFinished()
{
    for (int row = int(m_items.size()) - 1; row >= 0; --row) {
        if (!m_items[row].isFinished()) continue;
        emit itemAboutToBeRemoved(row);
        m_meters.remove(m_items[row].id);
        m_items.removeAt(row);
        emit itemRemoved(row);
    }
    emit totalsChanged();
}

void TransferQueue::remove(quint64 id)
{
    const int row = rowOf(id);
    if (row < 0 || (!m_items[row].isFinished() && m_items[row].state != ItemState::Failed)) return;
    emit itemAboutToBeRemoved(row);
    m_meters.remove(id);
    m_items.removeAt(row);
    emit itemRemoved(row);
    save();
    emit totalsChanged();
}

void TransferQueue::setMaxConcurrent(int count)
{
    m_maxConcurrent = std::max(1, count);
    schedule();
}

bool TransferQueue::hasPendingTransfers(const QString &host) const
{
    for (const QueueItem &it : m_items) {
        if (it.isPending() && (host.isEmpty() || it.request.host == host)) return true;
    }
    return false;
}

TransferProgress TransferQueue::totals() const
{
    TransferProgress t;
    for (const QueueItem &it : m_items) {
        if (!it.isPending()) continue;
        t.bytesDone += it.progress.bytesDone;
        t.bytesTotal += it.progress.bytesTotal;
        t.filesDone += it.progress.filesDone;
        t.filesTotal += it.progress.filesTotal;
        t.wireBytes += it.progress.wireBytes;
    }
    return t;
}

double TransferQueue::totalBytesPerSecond() const
{
    double sum = 0;
    for (const QueueItem &it : m_items) {
        if (it.state == ItemState::Running) sum += it.bytesPerSecond;
    }
    return sum;
}

void TransferQueue::schedule()
{
    if (m_shuttingDown) return;
    int running = int(m_workers.size());
    for (QueueItem &it : m_items) {
        if (running >= m_maxConcurrent) break;
        if (it.state != ItemState::Queued) continue;
        start(it);
        ++running;
    }
    if (!m_workers.isEmpty() && !m_ticker.isActive()) m_ticker.start();
}

ConflictPolicy TransferQueue::askOnGuiThread(const std::shared_ptr<Worker> &worker, const QString &host,
                                             const QString &destination, bool isDir)
{
    {
        std::lock_guard lock(worker->mutex);
        if (worker->cancel) return ConflictPolicy::Ask;
        worker->asking = true;
        worker->answer.reset();
    }
    QMetaObject::invokeMethod(
        this,
        [this, worker, host, destination, isDir] {
            ConflictPolicy answer = ConflictPolicy::Ask;
            if (m_asker && !m_shuttingDown) answer = m_asker(host, destination, isDir);
            worker->give(answer);
        },
        Qt::QueuedConnection);
    std::unique_lock lock(worker->mutex);
    worker->answered.wait(lock, [&] { return worker->answer.has_value(); });
    worker->asking = false;
    return *worker->answer;
}

void TransferQueue::start(QueueItem &item)
{
    auto factory = m_provider ? m_provider(item.request.host) : Result<SessionFactory>(Error{ErrorCode::Generic, {}});
    if (!factory) {
        item.state = ItemState::Failed;
        item.message = factory.error().message;
        item.errorCode = factory.error().code;
        changed(rowOf(item.id));
        return;
    }
    item.state = ItemState::Running;
    item.message.clear();
    item.progress = {};
    m_meters[item.id].reset();
    auto worker = std::make_shared<Worker>();
    worker->clock.start();
    m_workers.insert(item.id, worker);
    const quint64 id = item.id;
    const TransferRequest request = item.request;
    const int attempts = m_autoRetries + 1;
    JournalStore *journals = &m_journals;
    SessionFactory sessions = *factory;
    worker->thread = QThread::create([=, this] {
        ProgressSink sink = [worker](const TransferProgress &p) {
            std::lock_guard lock(worker->mutex);
            worker->progress = p;
        };
        ConflictResolver resolver = [this, worker, host = request.host](const QString &dest, bool isDir) {
            return askOnGuiThread(worker, host, dest, isDir);
        };
        TransferContext ctx(sessions, &worker->cancel, journals, request.host, request.options, sink, resolver);
        // Cancel ends the item (its .partial goes); Pause and quitting keep it to resume.
        ctx.setDiscardOnCancel([worker] { return !worker->pauseRequested.load(); });
        auto result = runTransferWithRetries(request, ctx, attempts);
        sink(ctx.snapshot());
        const bool paused = worker->pauseRequested.load();
        // this, not a QPointer read here: the destructor joins this thread, and a call queued to a
        // destroyed queue is dropped.
        QMetaObject::invokeMethod(
            this, [this, id, result, paused] { finish(id, result, paused); }, Qt::QueuedConnection);
    });
    worker->thread->start();
    changed(rowOf(id));
    save();
}

void TransferQueue::finish(quint64 id, const Result<TransferOutcome> &result, bool pauseRequested)
{
    auto worker = m_workers.take(id);
    if (worker && worker->thread) {
        worker->thread->wait();
        delete worker->thread;
        worker->thread = nullptr;
    }
    const int row = rowOf(id);
    if (row < 0) return;
    QueueItem &it = m_items[row];
    if (worker) {
        std::lock_guard lock(worker->mutex);
        it.progress = worker->progress;
    }
    it.bytesPerSecond = 0;
    it.etaSeconds = -1;
    if (worker) it.seconds = double(worker->clock.elapsed()) / 1000.0;
    if (result) {
        it.outcome = *result;
        it.state = result->skipped ? ItemState::Skipped : ItemState::Done;
        it.message = result->notes.join(QLatin1Char(' '));
        if (!result->skipped) it.progress.bytesDone = it.progress.bytesTotal;
    } else if (result.error().code == ErrorCode::Cancelled) {
        it.state = pauseRequested ? ItemState::Paused : ItemState::Cancelled;
        it.message = pauseRequested ? TransferText::tr("Paused; resumes where it stopped.")
                                    : result.error().message;
    } else {
        it.state = ItemState::Failed;
        it.message = result.error().message;
        it.errorCode = result.error().code;
    }
    changed(row);
    save();
    emit itemFinished(id, it.state);
    if (m_workers.isEmpty()) m_ticker.stop();
    schedule();
}

void TransferQueue::tick()
{
    int first = -1;
    int last = -1;
    static QElapsedTimer clock;
    if (!clock.isValid()) clock.start();
    for (auto it = m_workers.cbegin(); it != m_workers.cend(); ++it) {
        const int row = rowOf(it.key());
        if (row < 0) continue;
        QueueItem &item = m_items[row];
        {
            std::lock_guard lock(it.value()->mutex);
            item.progress = it.value()->progress;
        }
        SpeedMeter &meter = m_meters[item.id];
        meter.add(clock.elapsed(), item.progress.bytesDone - item.progress.resumedBytes);
        item.bytesPerSecond = meter.bytesPerSecond();
        item.etaSeconds = meter.etaSeconds(item.progress.bytesTotal > item.progress.bytesDone
                                               ? item.progress.bytesTotal - item.progress.bytesDone
                                               : 0);
        first = first < 0 ? row : std::min(first, row);
        last = std::max(last, row);
    }
    if (first >= 0) {
        emit itemsChanged(first, last);
        emit totalsChanged();
    }
}

void TransferQueue::save() const
{
    QJsonArray array;
    for (const QueueItem &it : m_items) {
        if (!it.isPending() && it.state != ItemState::Failed) continue;
        const TransferRequest &r = it.request;
        array.append(QJsonObject{
            {QStringLiteral("direction"), directionName(r.direction)},
            {QStringLiteral("host"), r.host},
            {QStringLiteral("local"), r.localPath},
            {QStringLiteral("remote"), r.remotePath},
            {QStringLiteral("destinationIsDir"), r.destinationIsDir},
            {QStringLiteral("parallel"), r.options.parallel},
            {QStringLiteral("onConflict"), conflictPolicyName(r.options.onConflict)},
            {QStringLiteral("followSymlinks"), r.options.followSymlinks},
            {QStringLiteral("verify"), r.options.verify},
            {QStringLiteral("paused"), it.state == ItemState::Paused},
            {QStringLiteral("failed"), it.state == ItemState::Failed},
            {QStringLiteral("message"), it.message},
        });
    }
    if (!schema::checkReplaceable(storePath(), kQueueSchema)) return; // restore() said why
    QDir().mkpath(m_journals.directory());
    QSaveFile file(storePath());
    if (file.open(QIODevice::WriteOnly)) {
        const QJsonObject root = schema::stamped(QJsonObject{{QStringLiteral("items"), array}}, kQueueSchema);
        file.write(QJsonDocument(root).toJson(QJsonDocument::Indented));
        file.commit();
    }
}

Result<void> TransferQueue::restore()
{
    QFile file(storePath());
    if (!file.exists()) return {};
    if (!file.open(QIODevice::ReadOnly)) {
        return Error{ErrorCode::Io, TransferText::tr("Cannot read %1: %2.")
                                        .arg(storePath(), file.errorString())};
    }
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll());
    if (!doc.isArray() && !doc.isObject()) {
        return Error{ErrorCode::Parse, TransferText::tr("%1 is damaged; the transfer list starts empty.")
                                           .arg(storePath())};
    }
    // Version 1 was the bare list of items.
    const QJsonObject stored = doc.isArray() ? QJsonObject{{QStringLiteral("items"), doc.array()}} : doc.object();
    const Result<QJsonObject> root = schema::upgrade(stored, kQueueSchema, storePath(), kQueueMigrations);
    if (!root) return root.error();
    for (const QJsonValue &v : root->value(QStringLiteral("items")).toArray()) {
        const QJsonObject o = v.toObject();
        TransferRequest r;
        r.direction = o.value(QStringLiteral("direction")).toString() == QLatin1String("download") ? Direction::Download
                                                                                                   : Direction::Upload;
        r.host = o.value(QStringLiteral("host")).toString();
        r.localPath = o.value(QStringLiteral("local")).toString();
        r.remotePath = o.value(QStringLiteral("remote")).toString();
        r.destinationIsDir = o.value(QStringLiteral("destinationIsDir")).toBool();
        r.options.parallel = o.value(QStringLiteral("parallel")).toInt();
        r.options.onConflict = conflictPolicyFromName(o.value(QStringLiteral("onConflict")).toString()).value_or(ConflictPolicy::Ask);
        r.options.followSymlinks = o.value(QStringLiteral("followSymlinks")).toBool(true);
        r.options.verify = o.value(QStringLiteral("verify")).toBool(true);
        QueueItem item;
        item.id = m_nextId++;
        item.request = r;
        if (o.value(QStringLiteral("paused")).toBool()) item.state = ItemState::Paused;
        if (o.value(QStringLiteral("failed")).toBool()) {
            item.state = ItemState::Failed;
            item.message = o.value(QStringLiteral("message")).toString();
        }
        const int row = int(m_items.size());
        emit itemAboutToBeAdded(row);
        m_items.append(item);
        emit itemAdded(row);
    }
    emit totalsChanged();
    schedule();
    return {};
}

} // namespace gantry::transfer
