#pragma once

#include "core/hosts/hoststore.h"
#include "core/transfer/journal.h"
#include "core/transfer/speedmeter.h"
#include "core/transfer/transfertypes.h"
#include "core/util/secretstore.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QThread>
#include <QTimer>

#include <memory>

namespace gantry::transfer {

enum class ItemState
{
    Queued,
    Running,
    Paused,
    Done,
    Failed,
    Cancelled,
    Skipped,
};
QString itemStateName(ItemState state);

struct QueueItem
{
    quint64 id = 0;
    TransferRequest request;
    ItemState state = ItemState::Queued;
    TransferProgress progress;
    double bytesPerSecond = 0;
    qint64 etaSeconds = -1;
    QString message;            // why it failed, or notes when done
    ErrorCode errorCode = ErrorCode::Generic;
    TransferOutcome outcome;
    int retries = 0;            // automatic retries after dropped connections
    double seconds = 0;         // how long its last run took, start to end (retries included)

    // Payload bytes per second over the last run: what a finished row shows as its speed.
    double averageBytesPerSecond() const { return seconds > 0 ? double(outcome.payloadBytes) / seconds : 0; }
    // The local folder it reads from (upload) or writes into (download).
    QString localFolder() const;
    // Where it ends on the host or here: the final path once known, else the requested one.
    QString destinationPath() const;
    // The folder on the host it writes into (upload) or reads from (download).
    QString remoteFolder() const;

    bool isFinished() const { return state == ItemState::Done || state == ItemState::Cancelled || state == ItemState::Skipped; }
    bool isPending() const { return state == ItemState::Queued || state == ItemState::Running || state == ItemState::Paused; }
    QString displayName() const;
};

// The uploads and downloads of the app, on the GUI thread. Each running item works on its own
// thread with its own SSH sessions; progress is copied from the workers every 250 ms and
// announced in one batched itemsChanged signal. Unfinished items are saved to
// <configDir>/transfers/queue.json and come back (queued, resuming from their journals) after
// restore().
class TransferQueue final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TransferQueue)

public:
    // How to open sessions for a host name; called on the GUI thread when an item starts.
    using FactoryProvider = std::function<Result<SessionFactory>(const QString &host)>;
    // Asked on the GUI thread when an item meets an existing destination under the Ask policy.
    using ConflictAsker = std::function<ConflictPolicy(const QString &host, const QString &destination, bool isDirectory)>;

    TransferQueue(QString configDir, FactoryProvider provider, QObject *parent = nullptr);
    ~TransferQueue() override;

    // Saved hosts, non-interactive sessions (secrets from the store; unknown host keys refused).
    static FactoryProvider savedHostProvider(HostStore *hosts, SecretStore *secrets, const QString &knownHostsFile = {});

    quint64 enqueue(const TransferRequest &request);
    void pause(quint64 id);
    void resume(quint64 id);
    void cancel(quint64 id);
    void retry(quint64 id);
    void removeFinished();
    // Takes one item off the list: a finished or failed one (nothing runs for it any more).
    void remove(quint64 id);

    void setMaxConcurrent(int count);
    int maxConcurrent() const { return m_maxConcurrent; }
    void setConflictAsker(ConflictAsker asker) { m_asker = std::move(asker); }
    // Automatic retries (with back-off) after a dropped connection or an sshd restart.
    void setAutoRetries(int retries) { m_autoRetries = retries; }

    const QList<QueueItem> &items() const { return m_items; }
    int rowOf(quint64 id) const;
    const QueueItem *item(quint64 id) const;
    // True while an upload or download for this host (any host when empty) is queued, running or
    // paused: closing the app or terminating the machine should ask first.
    bool hasPendingTransfers(const QString &host = {}) const;
    TransferProgress totals() const;   // over pending items
    double totalBytesPerSecond() const;

    // Reloads unfinished items from queue.json (after an app restart) and starts them. One written
    // by a newer Gantry is refused, and the queue then never saves over it.
    Result<void> restore();
    QString storePath() const;

signals:
    void itemAboutToBeAdded(int row);
    void itemAdded(int row);
    void itemAboutToBeRemoved(int row);
    void itemRemoved(int row);
    void itemsChanged(int firstRow, int lastRow);
    void itemFinished(quint64 id, gantry::transfer::ItemState state);
    void totalsChanged();

private:
    struct Worker;
    void schedule();
    void start(QueueItem &item);
    void finish(quint64 id, const Result<TransferOutcome> &result, bool pauseRequested);
    void tick();
    void discardLeftovers(const QueueItem &item);
    void changed(int row);
    void save() const;
    ConflictPolicy askOnGuiThread(const std::shared_ptr<Worker> &worker, const QString &host,
                                  const QString &destination, bool isDir);

    QString m_configDir;
    FactoryProvider m_provider;
    ConflictAsker m_asker;
    JournalStore m_journals;
    QList<QueueItem> m_items;
    QHash<quint64, std::shared_ptr<Worker>> m_workers;
    QHash<quint64, SpeedMeter> m_meters;
    QList<QThread *> m_discards; // removing cancelled items' .partial files; joined on destruction
    quint64 m_nextId = 1;
    int m_maxConcurrent = 2;
    int m_autoRetries = 3;
    bool m_shuttingDown = false;
    QTimer m_ticker;
};

} // namespace gantry::transfer

Q_DECLARE_METATYPE(gantry::transfer::ItemState)
