#include "core/workspace/resultshome.h"

#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"
#include "core/transfer/transferqueue.h"
#include "core/util/background.h"

#include <QDir>
#include <QPointer>

#include <algorithm>

namespace gantry::workspace {

ResultsHome::ResultsHome(QString configDir, HostStore *hosts, ConnectionManager *connections, transfer::TransferQueue *queue,
                         QObject *parent)
    : QObject(parent)
    , m_configDir(std::move(configDir))
    , m_hosts(hosts)
    , m_connections(connections)
    , m_queue(queue)
{
    if (m_queue) {
        connect(m_queue, &transfer::TransferQueue::itemFinished, this, [this](quint64 id, transfer::ItemState state) {
            itemFinished(id, state == transfer::ItemState::Done || state == transfer::ItemState::Skipped);
        });
    }
}

QString ResultsHome::resultsDir(const QString &hostName) const
{
    return QDir::homePath() + QStringLiteral("/Gantry results/") + hostName;
}

ResultsHome::Check ResultsHome::check(const QString &provider, const QString &instanceId) const
{
    Check check;
    for (const SavedHost &host : m_hosts ? m_hosts->hosts() : QList<SavedHost>{}) {
        if (host.provider == provider && host.instanceId == instanceId)
            check.hostName = host.name;
    }
    if (check.hostName.isEmpty())
        return check;
    if (m_queue && m_queue->hasPendingTransfers(check.hostName)) {
        check.verdict = Verdict::TransfersPending;
        check.detail = tr("Transfers to or from %1 are still queued or running; terminating loses them.").arg(check.hostName);
        return check;
    }
    if (m_copiesRunning && m_copiesRunning(check.hostName)) {
        check.verdict = Verdict::TransfersPending;
        check.detail = tr("A copy to or from %1 (through a bucket or from another machine) is still running; terminating stops it half-way.")
                           .arg(check.hostName);
        return check;
    }
    if (Result<void> allowed = m_guard.canTerminate(check.hostName); !allowed) {
        check.verdict = m_guard.state(check.hostName) == jobs::ResultsDownloadState::Running ? Verdict::Downloading : Verdict::Failed;
        check.detail = allowed.error().message;
        return check;
    }
    check.patterns = jobs::ResultPathStore(m_configDir).patterns(check.hostName);
    if (m_guard.shouldOfferDownload(check.hostName, check.patterns))
        check.verdict = Verdict::OfferDownload;
    return check;
}

void ResultsHome::download(const QString &hostName, const QStringList &patterns, std::function<void(Result<void>)> done)
{
    if (done)
        m_waiting[hostName].append(std::move(done));
    if (m_guard.state(hostName) == jobs::ResultsDownloadState::Running)
        return; // the running download answers every caller
    if (!m_connections || !m_queue) {
        finish(hostName, Error{ErrorCode::Usage, tr("Results of %1 cannot be downloaded here: no transfer queue.").arg(hostName)});
        return;
    }
    m_guard.setState(hostName, jobs::ResultsDownloadState::Running);
    ssh::Connection *connection = m_connections->connection(hostName);
    if (connection && connection->state() == ssh::ConnectionState::Connected) {
        expandAndQueue(hostName, patterns);
        return;
    }
    connection = m_connections->connectHost(hostName);
    if (!connection) {
        finish(hostName, Error{ErrorCode::NotFound, tr("%1 is not a saved host; its result paths cannot be looked up.").arg(hostName)});
        return;
    }
    // One answer per attempt: the first state that is not "connecting" decides.
    auto decided = std::make_shared<bool>(false);
    connect(connection, &ssh::Connection::stateChanged, this,
            [this, hostName, patterns, decided](ssh::ConnectionState state, const QString &text) {
                if (*decided || state == ssh::ConnectionState::Connecting)
                    return;
                *decided = true;
                if (state == ssh::ConnectionState::Connected)
                    expandAndQueue(hostName, patterns);
                else
                    finish(hostName, Error{ErrorCode::ConnectFailed,
                                           tr("Cannot connect to %1 to bring its results home: %2").arg(hostName, text)});
            });
}

void ResultsHome::expandAndQueue(const QString &hostName, const QStringList &patterns)
{
    ssh::Connection *connection = m_connections->connection(hostName);
    QPointer<ResultsHome> self(this);
    connection->post([self, hostName, patterns](ssh::Session &session) {
        auto found = jobs::expandResults(session, patterns);
        background::deliver(self, [self, hostName, found] {
            if (!found) {
                self->finish(hostName, found.error());
                return;
            }
            if (found->isEmpty()) {
                emit self->message(tr("No result files matched on %1; nothing to download.").arg(hostName));
                self->finish(hostName, {});
                return;
            }
            const QString dir = self->resultsDir(hostName);
            QDir().mkpath(dir);
            self->m_failed.insert(hostName, 0);
            for (const jobs::ResultDownload &item : *found) {
                transfer::TransferRequest request;
                request.direction = transfer::Direction::Download;
                request.host = hostName;
                request.remotePath = item.remotePath;
                request.localPath = dir;
                request.destinationIsDir = true;
                self->m_itemHost.insert(self->m_queue->enqueue(request), hostName);
            }
            emit self->message(tr("Downloading %n result item(s) from %1 to %2…", nullptr, int(found->size())).arg(hostName, dir));
        });
    });
}

void ResultsHome::itemFinished(quint64 id, bool ok)
{
    const QString hostName = m_itemHost.take(id);
    if (hostName.isEmpty())
        return;
    if (!ok)
        ++m_failed[hostName];
    const bool more = std::any_of(m_itemHost.cbegin(), m_itemHost.cend(), [&hostName](const QString &h) { return h == hostName; });
    if (more)
        return;
    if (m_failed.value(hostName) > 0) {
        finish(hostName, Error{ErrorCode::RemoteFailed, tr("%n result download(s) failed; see Transfers", nullptr, m_failed.value(hostName))});
        emit message(tr("Some results from %1 did not arrive; retry them in Transfers before terminating.").arg(hostName));
    } else {
        finish(hostName, {});
        emit message(tr("Results of %1 are home in %2; you can terminate it now.").arg(hostName, resultsDir(hostName)));
    }
}

void ResultsHome::finish(const QString &hostName, Result<void> result)
{
    if (result)
        m_guard.setState(hostName, jobs::ResultsDownloadState::Done);
    else
        m_guard.setState(hostName, jobs::ResultsDownloadState::Failed, result.error().message);
    if (!result && !m_waiting.contains(hostName))
        emit message(result.error().message);
    for (const auto &done : m_waiting.take(hostName))
        done(result);
}

} // namespace gantry::workspace
