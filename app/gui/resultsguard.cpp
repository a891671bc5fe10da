#include "resultsguard.h"

#include "hosts/connectionmanager.h"
#include "hosts/hoststore.h"
#include "providers/providertypes.h"
#include "transfer/transferqueue.h"

#include <QDir>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QWidget>

namespace gantry::app {

ResultsGuard::ResultsGuard(QString configDir, HostStore *hosts, ConnectionManager *connections,
                           transfer::TransferQueue *queue, QWidget *dialogParent, QObject *parent)
    : QObject(parent)
    , m_configDir(std::move(configDir))
    , m_hosts(hosts)
    , m_connections(connections)
    , m_queue(queue)
    , m_parent(dialogParent)
{
    connect(m_queue, &transfer::TransferQueue::itemFinished, this, [this](quint64 id, transfer::ItemState state) {
        itemFinished(id, state == transfer::ItemState::Done || state == transfer::ItemState::Skipped);
    });
}

QString ResultsGuard::resultsDir(const QString &hostName) const
{
    return QDir::homePath() + QStringLiteral("/Gantry results/") + hostName;
}

bool ResultsGuard::allowTerminate(const providers::Instance &instance)
{
    QString hostName;
    for (const SavedHost &host : m_hosts->hosts()) {
        if (host.provider == instance.provider && host.instanceId == instance.id)
            hostName = host.name;
    }
    if (hostName.isEmpty())
        return true;
    if (m_queue->hasPendingTransfers(hostName)
        && QMessageBox::question(m_parent, tr("Transfers pending"),
                                 tr("Transfers to or from %1 are still queued or running; terminating loses them. Terminate anyway?")
                                     .arg(hostName))
               != QMessageBox::Yes)
        return false;
    if (auto allowed = m_guard.canTerminate(hostName); !allowed) {
        if (m_guard.state(hostName) == jobs::ResultsDownloadState::Running) {
            QMessageBox::information(m_parent, tr("Results still downloading"), allowed.error().message);
            return false;
        }
        if (QMessageBox::warning(m_parent, tr("Results not home"), allowed.error().message + QStringLiteral("\n\n") + tr("Terminate anyway?"),
                                 QMessageBox::Yes | QMessageBox::No, QMessageBox::No)
            != QMessageBox::Yes)
            return false;
        m_guard.acknowledgeFailure(hostName);
        return true;
    }
    const QStringList patterns = jobs::ResultPathStore(m_configDir).patterns(hostName);
    if (!m_guard.shouldOfferDownload(hostName, patterns))
        return true;
    QMessageBox box(QMessageBox::Question, tr("Bring results home first?"),
                    tr("%1 has result paths (%2). Download them to %3 before terminating?")
                        .arg(hostName, patterns.join(QStringLiteral(", ")), resultsDir(hostName)),
                    QMessageBox::NoButton, m_parent);
    QPushButton *download = box.addButton(tr("Download first"), QMessageBox::AcceptRole);
    QPushButton *without = box.addButton(tr("Terminate without"), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.exec();
    if (box.clickedButton() == without)
        return true;
    if (box.clickedButton() == download)
        startDownload(hostName, patterns);
    return false;
}

void ResultsGuard::startDownload(const QString &hostName, const QStringList &patterns)
{
    ssh::Connection *connection = m_connections->connection(hostName);
    if (!connection || connection->state() != ssh::ConnectionState::Connected) {
        emit message(tr("Connect to %1 first: its result paths are looked up on the instance.").arg(hostName));
        return;
    }
    m_guard.setState(hostName, jobs::ResultsDownloadState::Running);
    QPointer<ResultsGuard> self(this);
    connection->post([self, hostName, patterns, connection](ssh::Session &session) {
        auto found = jobs::expandResults(session, patterns);
        QMetaObject::invokeMethod(connection, [self, hostName, found] {
            if (!self)
                return;
            if (!found) {
                self->m_guard.setState(hostName, jobs::ResultsDownloadState::Failed, found.error().message);
                emit self->message(found.error().message);
                return;
            }
            if (found->isEmpty()) {
                self->m_guard.setState(hostName, jobs::ResultsDownloadState::Done);
                emit self->message(tr("No result files matched on %1; nothing to download.").arg(hostName));
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
        }, Qt::QueuedConnection);
    });
}

void ResultsGuard::itemFinished(quint64 id, bool ok)
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
        m_guard.setState(hostName, jobs::ResultsDownloadState::Failed,
                         tr("%n result download(s) failed; see Transfers", nullptr, m_failed.value(hostName)));
        emit message(tr("Some results from %1 did not arrive; retry them in Transfers before terminating.").arg(hostName));
    } else {
        m_guard.setState(hostName, jobs::ResultsDownloadState::Done);
        emit message(tr("Results of %1 are home in %2; you can terminate it now.").arg(hostName, resultsDir(hostName)));
    }
}

} // namespace gantry::app
