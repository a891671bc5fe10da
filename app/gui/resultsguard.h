#pragma once

#include "jobs/results.h"

#include <QHash>
#include <QObject>
#include <QSet>

class QWidget;

namespace gantry {
class ConnectionManager;
class HostStore;
namespace providers { struct Instance; }
namespace transfer { class TransferQueue; }
} // namespace gantry

namespace gantry::app {

// "Results home before terminate": before an instance with result paths (Jobs tab) is
// terminated, offer to download them with the transfer engine, and refuse while that download
// runs or after it failed, until the user says otherwise. Pending transfers to it ask first too.
class ResultsGuard final : public QObject
{
    Q_OBJECT

public:
    ResultsGuard(QString configDir, HostStore *hosts, ConnectionManager *connections, transfer::TransferQueue *queue,
                 QWidget *dialogParent, QObject *parent = nullptr);

    // True when terminating may go ahead now (asks the user where needed).
    bool allowTerminate(const providers::Instance &instance);
    QString resultsDir(const QString &hostName) const;

signals:
    void message(const QString &text);

private:
    void startDownload(const QString &hostName, const QStringList &patterns);
    void itemFinished(quint64 id, bool ok);

    QString m_configDir;
    HostStore *m_hosts;
    ConnectionManager *m_connections;
    transfer::TransferQueue *m_queue;
    QWidget *m_parent;
    jobs::TerminateGuard m_guard;
    QHash<quint64, QString> m_itemHost;
    QHash<QString, int> m_failed;
};

} // namespace gantry::app
