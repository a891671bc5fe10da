#pragma once

#include "core/jobs/results.h"
#include "core/providers/providertypes.h"

#include <QHash>
#include <functional>
#include <QObject>

namespace gantry {
class ConnectionManager;
class HostStore;
namespace transfer { class TransferQueue; }
} // namespace gantry

namespace gantry::workspace {

// "Results home before terminate": an instance whose saved host has result paths (Jobs tab) is not
// terminated before they are downloaded to ~/Gantry results/<host>. The GUI asks the user with the
// verdict; an unattended caller (idle policy, watcher) downloads first and never terminates when
// that fails. Downloads run in the transfer queue over the host's connection. Owner-thread only.
class ResultsHome final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResultsHome)

public:
    enum class Verdict
    {
        Allow,            // nothing to bring home (no result paths, or they are home)
        TransfersPending, // transfers to or from it are queued or running
        Downloading,      // the results download is running
        Failed,           // the results download failed (detail says what)
        OfferDownload,    // result paths exist and are not home yet
    };
    struct Check
    {
        Verdict verdict = Verdict::Allow;
        QString hostName;
        QStringList patterns;
        QString detail;
    };

    ResultsHome(QString configDir, HostStore *hosts, ConnectionManager *connections, transfer::TransferQueue *queue,
                QObject *parent = nullptr);

    // Copies through a bucket or between machines that still read or write a machine: terminating
    // it is held back for them as for the queue's transfers.
    void setCopiesRunning(std::function<bool(const QString &host)> running) { m_copiesRunning = std::move(running); }

    Check check(const QString &provider, const QString &instanceId) const;
    QString resultsDir(const QString &hostName) const;
    // The user saw the failure and chose to terminate anyway.
    void acknowledgeFailure(const QString &hostName) { m_guard.acknowledgeFailure(hostName); }
    // Starts the download (connecting first when needed); done() runs once it is home or failed.
    void download(const QString &hostName, const QStringList &patterns, std::function<void(Result<void>)> done = {});

signals:
    void message(const QString &text);

private:
    void expandAndQueue(const QString &hostName, const QStringList &patterns);
    void itemFinished(quint64 id, bool ok);
    void finish(const QString &hostName, Result<void> result);

    QString m_configDir;
    HostStore *m_hosts;
    ConnectionManager *m_connections;
    transfer::TransferQueue *m_queue;
    std::function<bool(const QString &host)> m_copiesRunning;
    jobs::TerminateGuard m_guard;
    QHash<quint64, QString> m_itemHost;
    QHash<QString, int> m_failed;
    QHash<QString, QList<std::function<void(Result<void>)>>> m_waiting;
};

} // namespace gantry::workspace
